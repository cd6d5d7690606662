// Bad input gets a clear Error from every builder, never a crash, and no
// error or body ever carries the API key.

#include <QTest>

#include "RequestFixtures.h"
#include "engine/request/RequestBuilder.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

Q_DECLARE_METATYPE(qcode::WireProtocol)

namespace {

void addProtocols()
{
    QTest::addColumn<WireProtocol>("protocol");
    QTest::newRow("anthropic") << WireProtocol::AnthropicMessages;
    QTest::newRow("openai-chat") << WireProtocol::OpenAIChat;
    QTest::newRow("openai-responses") << WireProtocol::OpenAIResponses;
    QTest::newRow("gemini") << WireProtocol::Gemini;
}

QString failure(const ProviderRequest &r)
{
    const Result<HttpRequestSpec> spec = buildHttpRequest(r);
    if (spec)
        return QString();
    // The sentence is for a person: never empty, never the secret.
    if (spec.errorMessage().contains(r.endpoint.apiKey))
        return u"LEAKED KEY"_s;
    return spec.errorMessage();
}

} // namespace

class TestRequestValidation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rejectsAToolResultWithoutAMatchingCall_data() { addProtocols(); }
    void rejectsAToolResultWithoutAMatchingCall()
    {
        QFETCH(WireProtocol, protocol);
        const QString error = failure(request(protocol, {userText(u"q"_s), toolResults({result(u"call_9"_s, u"bash"_s, u"ok"_s)})}));
        QVERIFY(error.contains(u"call_9"_s));
        QVERIFY(error.contains(u"bash"_s));
    }

    void rejectsAToolCallThatNeverGotAResult_data() { addProtocols(); }
    void rejectsAToolCallThatNeverGotAResult()
    {
        QFETCH(WireProtocol, protocol);
        QVERIFY(!failure(request(protocol, {userText(u"q"_s), assistant({call(u"call_1"_s, u"bash"_s, {})})})).isEmpty());
        QVERIFY(!failure(request(protocol, {userText(u"q"_s), assistant({call(u"call_1"_s, u"bash"_s, {})}),
                                            assistant({TextContent{u"moving on"_s, {}}}),
                                            toolResults({result(u"call_1"_s, u"bash"_s, u"late"_s)})}))
                     .isEmpty());
    }

    void rejectsAResultGivenTwice()
    {
        const QString error = failure(request(WireProtocol::OpenAIChat,
                                              {userText(u"q"_s), assistant({call(u"call_1"_s, u"bash"_s, {})}),
                                               toolResults({result(u"call_1"_s, u"bash"_s, u"a"_s), result(u"call_1"_s, u"bash"_s, u"b"_s)})}));
        QVERIFY(!error.isEmpty());
    }

    void rejectsAnUnknownProtocol()
    {
        ProviderRequest r = request(WireProtocol::OpenAIChat, {userText(u"q"_s)});
        r.endpoint.protocol = static_cast<WireProtocol>(42);
        QVERIFY(failure(r).contains(u"42"_s));
    }

    void rejectsAnEmptyModelId_data() { addProtocols(); }
    void rejectsAnEmptyModelId()
    {
        QFETCH(WireProtocol, protocol);
        ProviderRequest r = request(protocol, {userText(u"q"_s)});
        r.endpoint.modelId = u"  "_s;
        QVERIFY(failure(r).contains(r.endpoint.providerId));
    }

    void rejectsABaseUrlThatIsNotHttp_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("file") << u"file:///etc/passwd"_s;
        QTest::newRow("ftp") << u"ftp://example.com/v1"_s;
        QTest::newRow("no scheme") << u"api.openai.com/v1"_s;
        QTest::newRow("empty") << QString();
        QTest::newRow("no host") << u"https://"_s;
    }

    void rejectsABaseUrlThatIsNotHttp()
    {
        QFETCH(QString, url);
        ProviderRequest r = request(WireProtocol::OpenAIChat, {userText(u"q"_s)});
        r.endpoint.baseUrl = QUrl(url);
        QVERIFY(!failure(r).isEmpty());
    }

    void rejectsContentInTheWrongRole()
    {
        ModelMessage user{ModelRole::User, {call(u"c"_s, u"bash"_s, {})}, {}};
        QVERIFY(failure(request(WireProtocol::AnthropicMessages, {user})).contains(RequestBuilder::tr("user")));
        ModelMessage system{ModelRole::System, {file(u"image/png"_s, "x")}, {}};
        QVERIFY(!failure(request(WireProtocol::OpenAIChat, {system, userText(u"q"_s)})).isEmpty());
        ModelMessage tool{ModelRole::Tool, {TextContent{u"stray"_s, {}}}, {}};
        QVERIFY(!failure(request(WireProtocol::Gemini, {userText(u"q"_s), tool})).isEmpty());
    }

    void rejectsARequestWithNothingToSay_data() { addProtocols(); }
    void rejectsARequestWithNothingToSay()
    {
        QFETCH(WireProtocol, protocol);
        QVERIFY(!failure(request(protocol, {}, {u"system only"_s})).isEmpty());
    }

    void rejectsUnnamedAndDuplicateTools()
    {
        ProviderRequest r = request(WireProtocol::OpenAIResponses, {userText(u"q"_s)});
        r.tools = {ToolDefinition{u"read"_s, {}, {}}, ToolDefinition{u"read"_s, {}, {}}};
        QVERIFY(failure(r).contains(u"read"_s));
        r.tools = {ToolDefinition{{}, u"nameless"_s, {}}};
        QVERIFY(!failure(r).isEmpty());
    }

    void rejectsACallWithoutAnIdOrName()
    {
        QVERIFY(!failure(request(WireProtocol::AnthropicMessages,
                                 {userText(u"q"_s), assistant({call({}, u"bash"_s, {})}), toolResults({result({}, u"bash"_s, u"x"_s)})}))
                     .isEmpty());
    }

    void neverPutsTheKeyIntoTheBodyOrTheUrl_data() { addProtocols(); }
    void neverPutsTheKeyIntoTheBodyOrTheUrl()
    {
        QFETCH(WireProtocol, protocol);
        const Result<HttpRequestSpec> spec = buildHttpRequest(request(protocol, {userText(u"q"_s)}, {u"sys"_s}));
        QVERIFY(spec);
        const QByteArray key = endpoint(protocol).apiKey.toUtf8();
        QVERIFY(!spec->body.contains(key));
        QVERIFY(!spec->url.toEncoded().contains(key));
    }

    void buildsEveryProtocolFromTheSameRequest_data() { addProtocols(); }
    void buildsEveryProtocolFromTheSameRequest()
    {
        QFETCH(WireProtocol, protocol);
        ProviderRequest r = request(protocol,
                                    {userText(u"q"_s), assistant({TextContent{u"a"_s, {}}, call(u"c1"_s, u"bash"_s, {{"command"_L1, "ls"_L1}})}),
                                     toolResults({result(u"c1"_s, u"bash"_s, u"x"_s)})},
                                    {u"sys"_s});
        r.tools = {ToolDefinition{u"bash"_s, u"Run"_s, {}}};
        r.options.maxOutputTokens = 1024;
        const Result<HttpRequestSpec> spec = buildHttpRequest(r);
        QVERIFY2(spec, qPrintable(spec.errorMessage()));
        QJsonParseError error;
        QJsonDocument::fromJson(spec->body, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(spec->url.scheme(), u"https"_s);
    }
};

QTEST_GUILESS_MAIN(TestRequestValidation)
#include "tst_request_validation.moc"
