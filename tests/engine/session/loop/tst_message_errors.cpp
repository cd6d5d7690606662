// The named errors an assistant message stores, in OpenCode's {name, data}
// shapes (reference §1.3, §3.4), so an exported session reads the same in
// OpenCode.

#include <QTest>

#include "engine/session/loop/MessageErrors.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class MessageErrorsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void httpFailuresBecomeApiErrorsWithStatusHeadersAndBody();
    void contextOverflowKeepsTheResponseBody();
    void anAbortIsAMessageAbortedError();
    void aFailureWithoutAnyExchangeIsAnUnknownError();
    void theFinalErrorAfterRetriesSaysHowOftenAndIsNotRetryable();
};

void MessageErrorsTest::httpFailuresBecomeApiErrorsWithStatusHeadersAndBody()
{
    const ProviderError error = ProviderError::fromHttpResponse(
        429, {{"Retry-After", "3"}}, R"({"type":"error","error":{"type":"rate_limit_error","message":"slow down"}})");
    const NamedError named = MessageErrors::fromProviderError(error);
    QCOMPARE(named.name, u"APIError"_s);
    QCOMPARE(named.data.value("statusCode"_L1).toInt(), 429);
    QCOMPARE(named.data.value("isRetryable"_L1).toBool(), true);
    QCOMPARE(named.data.value("responseHeaders"_L1).toObject().value("retry-after"_L1).toString(), u"3"_s);
    QVERIFY(named.data.value("responseBody"_L1).toString().contains(u"slow down"_s));
    QCOMPARE(named.message(), error.sentence());
}

void MessageErrorsTest::contextOverflowKeepsTheResponseBody()
{
    const QByteArray body = R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}})";
    const NamedError named = MessageErrors::fromProviderError(ProviderError::fromHttpResponse(400, {}, body));
    QCOMPARE(named.name, u"ContextOverflowError"_s);
    QCOMPARE(named.data.value("responseBody"_L1).toString(), QString::fromUtf8(body));
    QVERIFY(!named.message().isEmpty());
}

void MessageErrorsTest::anAbortIsAMessageAbortedError()
{
    QCOMPARE(MessageErrors::fromProviderError(ProviderError::aborted()).name, u"MessageAbortedError"_s);
    QVERIFY(!MessageErrors::aborted().message().isEmpty());
}

void MessageErrorsTest::aFailureWithoutAnyExchangeIsAnUnknownError()
{
    ProviderError error;
    error.message = u"the request could not be built"_s;
    const NamedError named = MessageErrors::fromProviderError(error);
    QCOMPARE(named.name, u"UnknownError"_s);
    QVERIFY(named.message().contains(u"the request could not be built"_s));
    QCOMPARE(MessageErrors::unknown(u"disk full"_s).toJson(),
             (QJsonObject{{"name"_L1, "UnknownError"_L1}, {"data"_L1, QJsonObject{{"message"_L1, "disk full"_L1}}}}));
}

void MessageErrorsTest::theFinalErrorAfterRetriesSaysHowOftenAndIsNotRetryable()
{
    const ProviderError last = ProviderError::fromHttpResponse(
        529, {}, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})");
    QVERIFY(last.retryable);
    const NamedError named = MessageErrors::retriesExhausted(9, last);
    QCOMPARE(named.name, u"APIError"_s);
    QCOMPARE(named.data.value("isRetryable"_L1).toBool(true), false);
    QCOMPARE(named.data.value("statusCode"_L1).toInt(), 529);
    QVERIFY2(named.message().contains(u"9"_s), qPrintable(named.message()));
    QVERIFY2(named.message().contains(u"HTTP 529: Overloaded"_s), qPrintable(named.message()));
}

QTEST_GUILESS_MAIN(MessageErrorsTest)
#include "tst_message_errors.moc"
