#include <QTest>

#include "engine/session/loop/RetryPolicy.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

ProviderError apiError(ProviderError::Headers headers = {})
{
    ProviderError e;
    e.kind = ProviderError::Kind::Server;
    e.httpStatus = 500;
    e.message = u"Internal error"_s;
    e.retryable = true;
    e.headers = std::move(headers);
    return e;
}

const QDateTime Now = QDateTime(QDate(2026, 12, 2), QTime(10, 0), Qt::UTC);

} // namespace

class RetryPolicyTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void withoutHeadersDoublesFromTwoSecondsUpToThirty();
    void retryAfterMsWins();
    void retryAfterSecondsAndDates();
    void unreadableRetryAfterFallsBackToBackoff();
    void headersLiftTheThirtySecondCap();
    void delaysNeverExceedWhatATimerCanWait();
    void contextOverflowAndPermanentErrorsAreNotRetried();
    void overloadAndRateLimitsSayWhatIsHappening();
    void stopsAfterTheConfiguredNumberOfAttempts();
};

void RetryPolicyTest::withoutHeadersDoublesFromTwoSecondsUpToThirty()
{
    QList<qint64> delays;
    for (int attempt = 1; attempt <= 10; ++attempt)
        delays.append(RetryPolicy::delayMs(attempt, apiError(), Now));
    QCOMPARE(delays, (QList<qint64>{2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000, 30000}));
}

void RetryPolicyTest::retryAfterMsWins()
{
    QCOMPARE(RetryPolicy::delayMs(4, apiError({{"retry-after-ms", "1500"}}), Now), 1500);
    QCOMPARE(RetryPolicy::delayMs(1, apiError({{"retry-after-ms", "700000"}}), Now), 700000);
}

void RetryPolicyTest::retryAfterSecondsAndDates()
{
    QCOMPARE(RetryPolicy::delayMs(1, apiError({{"retry-after", "30"}}), Now), 30000);
    QCOMPARE(RetryPolicy::delayMs(1, apiError({{"retry-after", "50"}}), Now), 50000);
    const QByteArray date = Now.addSecs(20).toString(Qt::RFC2822Date).toLatin1();
    const qint64 delay = RetryPolicy::delayMs(1, apiError({{"retry-after", date}}), Now);
    QVERIFY2(delay >= 19000 && delay <= 20000, qPrintable(QString::number(delay)));
}

void RetryPolicyTest::unreadableRetryAfterFallsBackToBackoff()
{
    QCOMPARE(RetryPolicy::delayMs(1, apiError({{"retry-after", "not-a-number"}}), Now), 2000);
    QCOMPARE(RetryPolicy::delayMs(1, apiError({{"retry-after", "Invalid Date String"}}), Now), 2000);
    const QByteArray past = Now.addSecs(-60).toString(Qt::RFC2822Date).toLatin1();
    QCOMPARE(RetryPolicy::delayMs(1, apiError({{"retry-after", past}}), Now), 2000);
}

void RetryPolicyTest::headersLiftTheThirtySecondCap()
{
    QCOMPARE(RetryPolicy::delayMs(6, apiError({{"x-request-id", "abc"}}), Now), 64000);
}

void RetryPolicyTest::delaysNeverExceedWhatATimerCanWait()
{
    QCOMPARE(RetryPolicy::delayMs(60, apiError({{"x-request-id", "abc"}}), Now), RetryPolicy::MaxDelayMs);
    QCOMPARE(RetryPolicy::delayMs(1, apiError({{"retry-after-ms", "2560914000"}}), Now), RetryPolicy::MaxDelayMs);
}

void RetryPolicyTest::contextOverflowAndPermanentErrorsAreNotRetried()
{
    ProviderError overflow = apiError();
    overflow.kind = ProviderError::Kind::ContextOverflow;
    QCOMPARE(RetryPolicy::retryReason(overflow), std::nullopt);
    ProviderError auth = apiError();
    auth.kind = ProviderError::Kind::Auth;
    auth.retryable = false;
    QCOMPARE(RetryPolicy::retryReason(auth), std::nullopt);
    ProviderError reset = ProviderError::network(u"Connection reset by server"_s);
    QVERIFY(RetryPolicy::retryReason(reset).has_value());
}

void RetryPolicyTest::overloadAndRateLimitsSayWhatIsHappening()
{
    ProviderError overloaded = apiError();
    overloaded.kind = ProviderError::Kind::Overloaded;
    overloaded.message = u"Overloaded"_s;
    QCOMPARE(RetryPolicy::retryReason(overloaded), u"Provider is overloaded"_s);
    ProviderError limited = apiError();
    limited.kind = ProviderError::Kind::RateLimit;
    limited.message = u"Rate limit reached for requests"_s;
    QCOMPARE(RetryPolicy::retryReason(limited), u"Rate limit reached for requests"_s);
}

void RetryPolicyTest::stopsAfterTheConfiguredNumberOfAttempts()
{
    const RetryPolicy policy;
    QVERIFY(policy.allowsAttempt(8));
    QVERIFY(!policy.allowsAttempt(9));
    const RetryPolicy unlimited{0};
    QVERIFY(unlimited.allowsAttempt(1000));
}

QTEST_GUILESS_MAIN(RetryPolicyTest)
#include "tst_retry_policy.moc"
