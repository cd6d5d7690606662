// OpenAI Chat Completions request bodies (wire formats §4.1), for OpenAI
// itself and for compatible servers.

#include <QTest>

#include "RequestFixtures.h"
#include "engine/request/ProviderTransform.h"
#include "engine/request/RequestBuilder.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

ProviderRequest ollama(QList<ModelMessage> messages)
{
    ProviderRequest r = request(WireProtocol::OpenAIChat, std::move(messages));
    r.endpoint.providerId = u"ollama"_s;
    r.endpoint.modelId = u"qwen3:8b"_s;
    r.endpoint.baseUrl = QUrl(u"http://localhost:11434/v1"_s);
    r.endpoint.apiKey.clear();
    return r;
}

} // namespace

class TestOpenAIChatRequest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void postsToChatCompletionsWithABearerKeyAndAsksForUsage();
    void sendsAssistantToolCallsAndToolMessages();
    void sendsImagesAsDataUrlPartsAndPdfsAsFileParts();
    void movesImagesAToolReturnedIntoAUserMessageAfterTheResults();
    void usesMaxCompletionTokensAndDeveloperMessagesForReasoningModels();
    void usesMaxTokensAndNoKeyForCompatibleServers();
    void sendsReasoningContentBackWhenTheModelWantsIt();
    void dropsReasoningTheApiCannotTake();
    void marksCacheControlOnContentPartsForClaudeThroughOpenRouter();
    void mergesProviderOptionsInTheWiresSpelling();
    void rejectsAttachmentsTheApiCannotTake();
};

// moc cannot read multi-line raw string literals; it only needs the
// declarations above.
#ifndef Q_MOC_RUN

void TestOpenAIChatRequest::postsToChatCompletionsWithABearerKeyAndAsksForUsage()
{
    const HttpRequestSpec spec = build(request(WireProtocol::OpenAIChat, {userText(u"hi"_s)}, {u"Be brief."_s}));
    QCOMPARE(spec.url, QUrl(u"https://api.openai.com/v1/chat/completions"_s));
    QCOMPARE(header(spec, "authorization"), QByteArray("Bearer sk-openai-secret"));
    {
        const QJsonValue expected = json(R"({
        "model":"gpt-4.1", "stream":true, "stream_options":{"include_usage":true},
        "messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"hi"}]})");
        QCOMPARE_JSON(bodyOf(spec), expected);
    }
}

void TestOpenAIChatRequest::sendsAssistantToolCallsAndToolMessages()
{
    ProviderRequest r = request(WireProtocol::OpenAIChat,
                                {userText(u"read it"_s),
                                 assistant({TextContent{u"Reading."_s, {}}, call(u"call_1"_s, u"read"_s, {{"path"_L1, "a.cpp"_L1}}),
                                            call(u"call_2"_s, u"glob"_s, {{"pattern"_L1, "*.h"_L1}})}),
                                 toolResults({result(u"call_1"_s, u"read"_s, u"int a;"_s), result(u"call_2"_s, u"glob"_s, u"a.h"_s)}),
                                 assistant({call(u"call_3"_s, u"bash"_s, {})}),
                                 toolResults({result(u"call_3"_s, u"bash"_s, u"failed"_s, true)})});
    r.tools = {ToolDefinition{u"read"_s, u"Read a file"_s, json(R"({"type":"object","properties":{"path":{"type":"string"}}})").toObject()}};
    const QJsonObject body = bodyOf(build(r));
    const QJsonValue expected = json(R"([
        {"role":"user","content":"read it"},
        {"role":"assistant","content":"Reading.","tool_calls":[
            {"id":"call_1","type":"function","function":{"name":"read","arguments":"{\u0022path\u0022:\u0022a.cpp\u0022}"}},
            {"id":"call_2","type":"function","function":{"name":"glob","arguments":"{\u0022pattern\u0022:\u0022*.h\u0022}"}}]},
        {"role":"tool","tool_call_id":"call_1","content":"int a;"},
        {"role":"tool","tool_call_id":"call_2","content":"a.h"},
        {"role":"assistant","content":null,"tool_calls":[
            {"id":"call_3","type":"function","function":{"name":"bash","arguments":"{}"}}]},
        {"role":"tool","tool_call_id":"call_3","content":"failed"}])");
    QCOMPARE_JSON(body.value("messages"_L1), expected);
    {
        const QJsonValue expected = json(R"([{"type":"function","function":{"name":"read","description":"Read a file",
        "parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}])");
        QCOMPARE_JSON(body.value("tools"_L1), expected);
    }
}

void TestOpenAIChatRequest::sendsImagesAsDataUrlPartsAndPdfsAsFileParts()
{
    FileContent remote{u"image/jpeg"_s, {}, QUrl(u"https://example.com/cat.jpg"_s), {}, {}};
    ProviderRequest r = request(WireProtocol::OpenAIChat,
                                {ModelMessage{ModelRole::User,
                                              {TextContent{u"Compare"_s, {}}, file(u"image/png"_s, "PNG"), remote,
                                               file(u"application/pdf"_s, "%PDF", u"spec.pdf"_s)},
                                              {}}});
    {
        const QJsonValue expected = json(R"({"role":"user","content":[
        {"type":"text","text":"Compare"},
        {"type":"image_url","image_url":{"url":"data:image/png;base64,UE5H"}},
        {"type":"image_url","image_url":{"url":"https://example.com/cat.jpg"}},
        {"type":"file","file":{"filename":"spec.pdf","file_data":"data:application/pdf;base64,JVBERg=="}}]})");
        QCOMPARE_JSON(bodyOf(build(r)).value("messages"_L1).toArray().at(0), expected);
    }
}

void TestOpenAIChatRequest::movesImagesAToolReturnedIntoAUserMessageAfterTheResults()
{
    ToolResultContent shot = result(u"call_1"_s, u"screenshot"_s, u"Captured."_s);
    shot.media.append(file(u"image/png"_s, "PNG"));
    ProviderRequest r = request(WireProtocol::OpenAIChat,
                                {userText(u"q"_s), assistant({call(u"call_1"_s, u"screenshot"_s, {})}), toolResults({shot}),
                                 userText(u"what do you see?"_s)});
    const QJsonArray messages = bodyOf(build(r)).value("messages"_L1).toArray();
    QCOMPARE(messages.size(), 5);
    QCOMPARE_JSON(messages.at(2), json(R"({"role":"tool","tool_call_id":"call_1","content":"Captured."})"));
    {
        const QJsonValue expected = json(R"({"role":"user","content":[{"type":"text","text":"Attached image(s) from tool result:"},
        {"type":"image_url","image_url":{"url":"data:image/png;base64,UE5H"}}]})");
        QCOMPARE_JSON(messages.at(3), expected);
    }
}

void TestOpenAIChatRequest::usesMaxCompletionTokensAndDeveloperMessagesForReasoningModels()
{
    ProviderRequest r = request(WireProtocol::OpenAIChat, {userText(u"q"_s)}, {u"sys"_s});
    r.endpoint.modelId = u"o3"_s;
    r.options.maxOutputTokens = 1000;
    r.options.temperature = 0.5;
    r.options.reasoningEffort = u"high"_s;
    const QJsonObject body = bodyOf(build(r));
    QCOMPARE(body.value("max_completion_tokens"_L1).toInt(), 1000);
    QVERIFY(!body.contains("max_tokens"_L1));
    QVERIFY(!body.contains("temperature"_L1));
    QCOMPARE(body.value("reasoning_effort"_L1).toString(), u"high"_s);
    QCOMPARE(body.value("messages"_L1).toArray().at(0).toObject().value("role"_L1).toString(), u"developer"_s);
}

void TestOpenAIChatRequest::usesMaxTokensAndNoKeyForCompatibleServers()
{
    ProviderRequest r = ollama({userText(u"q"_s)});
    r.options.maxOutputTokens = 4096;
    r.options.temperature = 0.55;
    r.options.topP = 1.0;
    const HttpRequestSpec spec = build(r);
    QCOMPARE(spec.url, QUrl(u"http://localhost:11434/v1/chat/completions"_s));
    QVERIFY(headerValues(spec, "authorization").isEmpty());
    const QJsonObject body = bodyOf(spec);
    QCOMPARE(body.value("max_tokens"_L1).toInt(), 4096);
    QCOMPARE(body.value("temperature"_L1).toDouble(), 0.55);
    QCOMPARE(body.value("top_p"_L1).toDouble(), 1.0);
    QCOMPARE_JSON(body.value("stream_options"_L1), json(R"({"include_usage":true})"));
}

void TestOpenAIChatRequest::sendsReasoningContentBackWhenTheModelWantsIt()
{
    ProviderRequest r = request(WireProtocol::OpenAIChat,
                                {userText(u"q"_s), assistant({ReasoningContent{u"thinking"_s, {}}, call(u"call_0"_s, u"bash"_s, {})}),
                                 toolResults({result(u"call_0"_s, u"bash"_s, u"ok"_s)})});
    r.endpoint.providerId = u"deepseek"_s;
    r.endpoint.modelId = u"deepseek-reasoner"_s;
    ProviderTransform::moveReasoningToField(r, u"reasoning_content"_s);
    const QJsonObject message = bodyOf(build(r)).value("messages"_L1).toArray().at(1).toObject();
    QCOMPARE(message.value("reasoning_content"_L1).toString(), u"thinking"_s);
    QVERIFY(message.value("content"_L1).isNull());
}

void TestOpenAIChatRequest::dropsReasoningTheApiCannotTake()
{
    ProviderRequest r = request(WireProtocol::OpenAIChat,
                                {userText(u"q"_s), assistant({ReasoningContent{u"hmm"_s, {}}, TextContent{u"A"_s, {}}}), userText(u"more"_s)});
    QCOMPARE_JSON(bodyOf(build(r)).value("messages"_L1).toArray().at(1), json(R"({"role":"assistant","content":"A"})"));
}

void TestOpenAIChatRequest::marksCacheControlOnContentPartsForClaudeThroughOpenRouter()
{
    ProviderRequest r = request(WireProtocol::OpenAIChat, {userText(u"q"_s)}, {u"sys"_s});
    r.endpoint.providerId = u"openrouter"_s;
    r.endpoint.modelId = u"anthropic/claude-sonnet-4"_s;
    r.endpoint.baseUrl = QUrl(u"https://openrouter.ai/api/v1"_s);
    r.options.reasoningEffort = u"high"_s;
    const HttpRequestSpec spec = build(r);
    QCOMPARE(spec.url, QUrl(u"https://openrouter.ai/api/v1/chat/completions"_s));
    const QJsonObject body = bodyOf(spec);
    {
        const QJsonValue expected = json(R"([
        {"role":"system","content":[{"type":"text","text":"sys","cache_control":{"type":"ephemeral"}}]},
        {"role":"user","content":[{"type":"text","text":"q","cache_control":{"type":"ephemeral"}}]}])");
        QCOMPARE_JSON(body.value("messages"_L1), expected);
    }
    QCOMPARE_JSON(body.value("reasoning"_L1), json(R"({"effort":"high"})"));
    QVERIFY(!body.contains("reasoning_effort"_L1));
}

void TestOpenAIChatRequest::mergesProviderOptionsInTheWiresSpelling()
{
    ProviderRequest r = ollama({userText(u"q"_s)});
    r.options.providerOptions = json(R"({"promptCacheKey":"ses_1","parallel_tool_calls":false,
        "chat_template_kwargs":{"enable_thinking":true},"model":"evil","stream":false})").toObject();
    QTest::ignoreMessage(QtWarningMsg, "ignoring provider option \"model\" that would replace part of the request");
    QTest::ignoreMessage(QtWarningMsg, "ignoring provider option \"stream\" that would replace part of the request");
    const QJsonObject body = bodyOf(build(r));
    QCOMPARE(body.value("prompt_cache_key"_L1).toString(), u"ses_1"_s);
    QCOMPARE(body.value("parallel_tool_calls"_L1).toBool(true), false);
    QCOMPARE_JSON(body.value("chat_template_kwargs"_L1), json(R"({"enable_thinking":true})"));
    QCOMPARE(body.value("model"_L1).toString(), u"qwen3:8b"_s);
    QCOMPARE(body.value("stream"_L1).toBool(), true);
}

void TestOpenAIChatRequest::rejectsAttachmentsTheApiCannotTake()
{
    const Result<HttpRequestSpec> spec =
        buildHttpRequest(request(WireProtocol::OpenAIChat, {ModelMessage{ModelRole::User, {file(u"video/mp4"_s, "x", u"clip.mp4"_s)}, {}}}));
    QVERIFY(!spec);
    QVERIFY(spec.errorMessage().contains(u"clip.mp4"_s));
}

#endif // Q_MOC_RUN

QTEST_GUILESS_MAIN(TestOpenAIChatRequest)
#include "tst_openai_chat_request.moc"
