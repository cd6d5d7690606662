// ProviderError classifies real error bodies as the corpus expects, reads
// retry delays in every documented form, and always says something a
// person can act on.

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTest>

#include "ProviderTranscript.h"
#include "engine/provider/ProviderError.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

const QDateTime Now = QDateTime(QDate(2025, 6, 2), QTime(15, 14, 0), Qt::UTC);

ProviderError fromHttp(int status, const QByteArray &body, const ProviderError::Headers &headers = {})
{
    return ProviderError::fromHttpResponse(status, headers, body, Now);
}

} // namespace

class TestProviderError : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classifiesEachRecordedHttpErrorAsTheCorpusExpects_data()
    {
        QTest::addColumn<QString>("path");
        const QString root = QDir(qEnvironmentVariable("QCODE_SHARED_DIR")).filePath(u"fixtures/providers/http-errors"_s);
        if (!QFileInfo(root).isDir())
            QSKIP(qPrintable(u"the HTTP error fixture folder %1 is absent (set QCODE_SHARED_DIR)"_s.arg(root)));
        const QDir dir(root);
        for (const QString &name : dir.entryList({u"*.json"_s}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }

    void classifiesEachRecordedHttpErrorAsTheCorpusExpects()
    {
        QFETCH(QString, path);
        const QJsonObject fixture = qcode::test::readJsonObject(path);
        const QJsonObject expected = fixture.value("expected"_L1).toObject();

        ProviderError::Headers headers;
        const QJsonObject headerObject = fixture.value("headers"_L1).toObject();
        for (auto it = headerObject.begin(); it != headerObject.end(); ++it)
            headers.append({it.key().toUtf8(), it.value().toString().toUtf8()});
        const QJsonValue bodyValue = fixture.value("body"_L1);
        const QByteArray body = bodyValue.isObject() ? QJsonDocument(bodyValue.toObject()).toJson()
                                                     : bodyValue.toString().toUtf8();

        const ProviderError error = fromHttp(fixture.value("http_status"_L1).toInt(0), body, headers);
        QCOMPARE(error.isContextOverflow(), expected.value("context_overflow"_L1).toBool());
        QCOMPARE(error.retryable, expected.value("retryable"_L1).toBool());
        QCOMPARE(error.requestTooLarge, expected.value("request_too_large"_L1).toBool());
        const QJsonValue retryAfter = expected.value("retry_after_seconds"_L1);
        if (retryAfter.isNull()) {
            QVERIFY(!error.retryAfterMs.has_value());
        } else {
            QVERIFY(error.retryAfterMs.has_value());
            QCOMPARE(*error.retryAfterMs, qint64(std::ceil(retryAfter.toDouble() * 1000)));
        }
        const QString type = expected.value("error_type"_L1).toString();
        if (!type.isEmpty())
            QVERIFY2(error.errorType == type || error.errorCode == type,
                     qPrintable(u"type %1, code %2"_s.arg(error.errorType, error.errorCode)));
        QVERIFY(!error.message.isEmpty());
        QVERIFY(error.sentence().contains(error.message.left(40)));
    }

    void mapsStatusCodesWithoutABodyToKinds_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("retryable");
        QTest::newRow("401") << 401 << int(ProviderError::Kind::Auth) << false;
        QTest::newRow("403") << 403 << int(ProviderError::Kind::Permission) << false;
        QTest::newRow("404") << 404 << int(ProviderError::Kind::NotFound) << false;
        QTest::newRow("408") << 408 << int(ProviderError::Kind::Timeout) << true;
        QTest::newRow("409") << 409 << int(ProviderError::Kind::Server) << true;
        QTest::newRow("422") << 422 << int(ProviderError::Kind::BadRequest) << false;
        QTest::newRow("429") << 429 << int(ProviderError::Kind::RateLimit) << true;
        QTest::newRow("500") << 500 << int(ProviderError::Kind::Server) << true;
        QTest::newRow("502") << 502 << int(ProviderError::Kind::Server) << true;
        QTest::newRow("503") << 503 << int(ProviderError::Kind::Overloaded) << true;
        QTest::newRow("504") << 504 << int(ProviderError::Kind::Timeout) << true;
        QTest::newRow("529") << 529 << int(ProviderError::Kind::Overloaded) << true;
    }

    void mapsStatusCodesWithoutABodyToKinds()
    {
        QFETCH(int, status);
        QFETCH(int, kind);
        QFETCH(bool, retryable);
        const ProviderError error = fromHttp(status, {});
        QCOMPARE(int(error.kind), kind);
        QCOMPARE(error.retryable, retryable);
        QVERIFY(error.sentence().contains(QString::number(status)));
    }

    void prefersRetryAfterMsOverRetryAfter()
    {
        const auto error = fromHttp(429, {}, {{"Retry-After-Ms", "1500"}, {"retry-after", "30"}});
        QCOMPARE(error.retryAfterMs.value_or(-1), qint64(1500));
    }

    void readsRetryAfterAsFractionalSecondsRoundedUp()
    {
        QCOMPARE(fromHttp(429, {}, {{"retry-after", "30"}}).retryAfterMs.value_or(-1), qint64(30000));
        QCOMPARE(fromHttp(429, {}, {{"retry-after", "1.2345"}}).retryAfterMs.value_or(-1), qint64(1235));
    }

    void readsRetryAfterAsAnHttpDate()
    {
        const auto error = fromHttp(503, {}, {{"retry-after", "Mon, 02 Jun 2025 15:14:20 GMT"}});
        QCOMPARE(error.retryAfterMs.value_or(-1), qint64(20000));
    }

    void ignoresAPastOrUnreadableRetryAfter()
    {
        QVERIFY(!fromHttp(429, {}, {{"retry-after", "Mon, 02 Jun 2025 15:00:00 GMT"}}).retryAfterMs.has_value());
        QVERIFY(!fromHttp(429, {}, {{"retry-after", "not-a-number"}}).retryAfterMs.has_value());
        QVERIFY(!fromHttp(429, {}, {{"retry-after-ms", "soon"}}).retryAfterMs.has_value());
    }

    void honoursXShouldRetry()
    {
        QVERIFY(!fromHttp(500, {}, {{"x-should-retry", "false"}}).retryable);
        QVERIFY(fromHttp(400, {}, {{"x-should-retry", "true"}}).retryable);
    }

    void neverRetriesAContextOverflowWhateverTheHeadersSay()
    {
        const auto error = fromHttp(400, R"({"error":{"message":"prompt is too long: 208310 tokens > 200000 maximum"}})",
                                    {{"x-should-retry", "true"}});
        QVERIFY(error.isContextOverflow());
        QVERIFY(!error.retryable);
    }

    void treatsATokensPerMinuteRateLimitAsARateLimitNotAnOverflow()
    {
        const auto error = fromHttp(429, R"({"error":{"message":"Request too large for gpt-4o-mini in organization org-x on tokens per min (TPM): Limit 200000, Requested 250000. The input or output tokens must be reduced in order to run successfully.","type":"tokens","code":"rate_limit_exceeded"}})");
        QCOMPARE(error.kind, ProviderError::Kind::RateLimit);
        QVERIFY(error.retryable);
    }

    void recognisesOverflowMessagesOfEveryProvider_data()
    {
        QTest::addColumn<QString>("message");
        QTest::newRow("anthropic") << u"prompt is too long: 213462 tokens > 200000 maximum"_s;
        QTest::newRow("bedrock") << u"Input is too long for requested model."_s;
        QTest::newRow("openai") << u"Your input exceeds the context window of this model"_s;
        QTest::newRow("gemini") << u"The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)"_s;
        QTest::newRow("groq") << u"Please reduce the length of the messages or completion"_s;
        QTest::newRow("xai") << u"This model's maximum prompt length is 131072 but the request contains 537812 tokens"_s;
        QTest::newRow("mistral") << u"Prompt contains 5000 tokens and 0 draft tokens, too large for model with 4096 maximum context length"_s;
        QTest::newRow("kimi") << u"Your request exceeded model token limit: 262144 (requested: 300000)"_s;
        QTest::newRow("minimax") << u"invalid params, context window exceeds limit"_s;
        QTest::newRow("copilot") << u"prompt token count of 140000 exceeds the limit of 128000"_s;
        QTest::newRow("lmstudio") << u"tokens to keep from the initial prompt is greater than the context length"_s;
    }

    void recognisesOverflowMessagesOfEveryProvider()
    {
        QFETCH(QString, message);
        QVERIFY(ProviderError::looksLikeContextOverflow(message));
        const QJsonObject body{{"error"_L1, QJsonObject{{"message"_L1, message}}}};
        QVERIFY(fromHttp(400, QJsonDocument(body).toJson()).isContextOverflow());
    }

    void doesNotMistakeOrdinaryBadRequestsForOverflow()
    {
        QVERIFY(!ProviderError::looksLikeContextOverflow(u"Web search options not supported with this model."_s));
        QCOMPARE(fromHttp(400, R"({"error":{"message":"Invalid value for 'temperature'"}})").kind,
                 ProviderError::Kind::BadRequest);
    }

    void readsAnHtmlErrorPageAsAPlainSentence()
    {
        const auto error = fromHttp(502, "<html><body><h1>502 Bad Gateway</h1></body></html>");
        QCOMPARE(error.kind, ProviderError::Kind::Server);
        QVERIFY(error.retryable);
        QVERIFY(!error.sentence().contains(u"<html>"_s));
        QVERIFY(error.sentence().contains(u"HTML"_s));
    }

    void readsAPlainTextBody()
    {
        const auto error = fromHttp(401, "Unauthorized: bad key");
        QCOMPARE(error.kind, ProviderError::Kind::Auth);
        QCOMPARE(error.message, u"Unauthorized: bad key"_s);
    }

    void recognisesGeminisInvalidApiKeyAsAnAuthError()
    {
        const auto error = fromHttp(400, R"({"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}})");
        QCOMPARE(error.kind, ProviderError::Kind::Auth);
    }

    void doesNotRetryAPerDayQuota()
    {
        const auto error = fromHttp(429, R"({"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}]}})");
        QCOMPARE(error.kind, ProviderError::Kind::RateLimit);
        QVERIFY(!error.retryable);
    }

    void classifiesMidStreamErrorPayloads()
    {
        const auto overloaded = ProviderError::fromStreamPayload(QJsonDocument::fromJson(
            R"({"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"}})").object());
        QCOMPARE(overloaded.kind, ProviderError::Kind::Overloaded);
        QVERIFY(overloaded.retryable);
        QCOMPARE(overloaded.httpStatus, 200);

        const auto overflow = ProviderError::fromStreamPayload(QJsonDocument::fromJson(
            R"({"type":"error","error":{"type":"invalid_request_error","code":"context_length_exceeded","message":"x"}})").object());
        QVERIFY(overflow.isContextOverflow());

        const auto quota = ProviderError::fromStreamPayload(QJsonDocument::fromJson(
            R"({"type":"error","error":{"type":"insufficient_quota","code":"insufficient_quota","message":"You exceeded your current quota"}})").object());
        QCOMPARE(quota.kind, ProviderError::Kind::RateLimit);
        QVERIFY(!quota.retryable);
        QVERIFY(quota.sentence().contains(u"credit"_s));

        const auto api = ProviderError::fromStreamPayload(QJsonDocument::fromJson(
            R"({"type":"error","error":{"type":"api_error","message":"Internal server error"}})").object());
        QCOMPARE(api.kind, ProviderError::Kind::Server);
        QVERIFY(api.retryable);
    }

    void givesEveryKindAFullSentence()
    {
        for (int kind = int(ProviderError::Kind::Auth); kind <= int(ProviderError::Kind::Unknown); ++kind) {
            ProviderError error;
            error.kind = ProviderError::Kind(kind);
            error.message = u"provider words"_s;
            const QString sentence = error.sentence();
            QVERIFY2(sentence.endsWith(u'.'), qPrintable(sentence));
            QVERIFY2(sentence.size() > 30, qPrintable(sentence));
            if (error.kind != ProviderError::Kind::Aborted)
                QVERIFY2(sentence.contains(u"provider words"_s), qPrintable(sentence));
        }
    }

    void statesTheRetryDelayInTheRateLimitSentence()
    {
        const auto error = fromHttp(429, R"({"error":{"type":"rate_limit_error","message":"slow down"}})", {{"retry-after", "16"}});
        QVERIFY2(error.sentence().contains(u"16"_s), qPrintable(error.sentence()));
    }
};

QTEST_GUILESS_MAIN(TestProviderError)
#include "tst_provider_error.moc"
