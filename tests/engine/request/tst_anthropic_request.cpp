// Anthropic Messages request bodies match wire formats §3.1: headers and URL,
// system blocks, tool_use/tool_result pairing, thinking replay, base64
// attachments, cache_control placement, max_tokens with thinking.

#include <QTest>

#include "RequestFixtures.h"
#include "engine/request/RequestBuilder.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QJsonObject Cache{{"type"_L1, "ephemeral"_L1}};

} // namespace

class TestAnthropicRequest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void postsToMessagesWithApiKeyAndVersion();
    void streamsWithTheDefaultMaxTokensAndCachedSystemBlocks();
    void mergesConsecutiveToolResultsIntoOneUserMessage();
    void replaysSignedThinkingAndRedactedThinkingButNotForeignReasoning();
    void sendsImagesAndPdfsAsBase64SourceBlocks();
    void sendsImagesReturnedByAToolInsideItsResult();
    void sendsToolsWithTheirInputSchema();
    void enablesThinkingWithTheBudgetAddedToMaxTokens();
    void readsTheThinkingBudgetFromAiSdkProviderOptions();
    void sendsSamplingSettingsWithoutThinking();
    void rejectsAThinkingBudgetBelowTheMinimum();
    void sanitizesToolCallIdsFromOtherProviders();
    void dropsEmptyTextAndTheMessagesItEmpties();
    void trimsTrailingWhitespaceOfAFinalAssistantPrefill();
    void extraHeadersGoOnTopAndReplaceBuiltInOnes();
    void keepsAnOpenRouterStyleBasePath();
    void rejectsImageFormatsClaudeCannotRead();
};

// moc cannot read multi-line raw string literals; it only needs the
// declarations above.
#ifndef Q_MOC_RUN

void TestAnthropicRequest::postsToMessagesWithApiKeyAndVersion()
{
    const HttpRequestSpec spec = build(request(WireProtocol::AnthropicMessages, {userText(u"hi"_s)}));
    QCOMPARE(spec.url, QUrl(u"https://api.anthropic.com/v1/messages"_s));
    QCOMPARE(header(spec, "x-api-key"), QByteArray("sk-ant-secret"));
    QCOMPARE(header(spec, "anthropic-version"), QByteArray("2023-06-01"));
    QCOMPARE(header(spec, "content-type"), QByteArray("application/json"));
    QVERIFY(headerValues(spec, "authorization").isEmpty());
    QVERIFY(!spec.body.contains("sk-ant-secret"));
}

void TestAnthropicRequest::streamsWithTheDefaultMaxTokensAndCachedSystemBlocks()
{
    const QJsonObject body = bodyOf(build(request(WireProtocol::AnthropicMessages, {userText(u"hi"_s)},
                                                  {u"You are qcode."_s, u"<env>…</env>"_s})));
    {
        const QJsonValue expected = json(R"({
        "model": "claude-sonnet-4-5", "stream": true, "max_tokens": 32000,
        "system": [{"type":"text","text":"You are qcode.","cache_control":{"type":"ephemeral"}},
                   {"type":"text","text":"<env>…</env>","cache_control":{"type":"ephemeral"}}],
        "messages": [{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}]
    })");
        QCOMPARE_JSON(body, expected);
    }
}

void TestAnthropicRequest::mergesConsecutiveToolResultsIntoOneUserMessage()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                {userText(u"look"_s),
                                 assistant({TextContent{u"Reading both."_s, {}}, call(u"toolu_1"_s, u"read"_s, {{"path"_L1, "a.cpp"_L1}}),
                                            call(u"toolu_2"_s, u"read"_s, {{"path"_L1, "b.cpp"_L1}})}),
                                 toolResults({result(u"toolu_1"_s, u"read"_s, u"int a;"_s)}),
                                 toolResults({result(u"toolu_2"_s, u"read"_s, u"No such file"_s, true)}),
                                 userText(u"and now?"_s)});
    const QJsonArray messages = bodyOf(build(r)).value("messages"_L1).toArray();
    {
        const QJsonValue expected = json(R"([
        {"role":"user","content":[{"type":"text","text":"look"}]},
        {"role":"assistant","content":[
            {"type":"text","text":"Reading both."},
            {"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a.cpp"}},
            {"type":"tool_use","id":"toolu_2","name":"read","input":{"path":"b.cpp"}}]},
        {"role":"user","content":[
            {"type":"tool_result","tool_use_id":"toolu_1","content":"int a;"},
            {"type":"tool_result","tool_use_id":"toolu_2","content":"No such file","is_error":true,
             "cache_control":{"type":"ephemeral"}},
            {"type":"text","text":"and now?","cache_control":{"type":"ephemeral"}}]}
    ])");
        QCOMPARE_JSON(messages, expected);
    }
}

void TestAnthropicRequest::replaysSignedThinkingAndRedactedThinkingButNotForeignReasoning()
{
    const QJsonObject signedMeta{{"anthropic"_L1, QJsonObject{{"signature"_L1, "sig-1"_L1}}}};
    const QJsonObject redacted{{"anthropic"_L1, QJsonObject{{"redactedData"_L1, "opaque"_L1}}}};
    const QJsonObject foreign{{"openai"_L1, QJsonObject{{"itemId"_L1, "rs_1"_L1}}}};
    ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                {userText(u"q"_s),
                                 assistant({ReasoningContent{u"Let me check."_s, signedMeta}, ReasoningContent{{}, redacted},
                                            ReasoningContent{u"other model"_s, foreign}, call(u"toolu_1"_s, u"bash"_s, {{"command"_L1, "ls"_L1}})}),
                                 toolResults({result(u"toolu_1"_s, u"bash"_s, u"a.txt"_s)})});
    const QJsonArray messages = bodyOf(build(r)).value("messages"_L1).toArray();
    {
        const QJsonValue expected = json(R"({"role":"assistant","content":[
        {"type":"thinking","thinking":"Let me check.","signature":"sig-1"},
        {"type":"redacted_thinking","data":"opaque"},
        {"type":"tool_use","id":"toolu_1","name":"bash","input":{"command":"ls"},"cache_control":{"type":"ephemeral"}}]})");
        QCOMPARE_JSON(messages.at(1), expected);
    }
}

void TestAnthropicRequest::sendsImagesAndPdfsAsBase64SourceBlocks()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                {ModelMessage{ModelRole::User,
                                              {TextContent{u"What is this?"_s, {}}, file(u"image/png"_s, "PNG"),
                                               file(u"application/pdf"_s, "%PDF", u"spec.pdf"_s)},
                                              {}}});
    const QJsonArray content = bodyOf(build(r)).value("messages"_L1).toArray().at(0).toObject().value("content"_L1).toArray();
    {
        const QJsonValue expected = json(R"([
        {"type":"text","text":"What is this?"},
        {"type":"image","source":{"type":"base64","media_type":"image/png","data":"UE5H"}},
        {"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERg=="},"title":"spec.pdf",
         "cache_control":{"type":"ephemeral"}}
    ])");
        QCOMPARE_JSON(content, expected);
    }
}

void TestAnthropicRequest::sendsImagesReturnedByAToolInsideItsResult()
{
    ToolResultContent shot = result(u"toolu_1"_s, u"screenshot"_s, u"Captured."_s);
    shot.media.append(file(u"image/jpeg"_s, "JPG"));
    ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                {userText(u"q"_s), assistant({call(u"toolu_1"_s, u"screenshot"_s, {})}), toolResults({shot})});
    r.endpoint.providerId = u"custom"_s; // markers on parts, so the result itself stays unmarked below
    const QJsonObject block = bodyOf(build(r)).value("messages"_L1).toArray().at(2).toObject().value("content"_L1).toArray().at(0).toObject();
    {
        const QJsonValue expected = json(R"([{"type":"text","text":"Captured."},
        {"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"SlBH"}}])");
        QCOMPARE_JSON(block.value("content"_L1), expected);
    }
    QCOMPARE_JSON(block.value("cache_control"_L1), Cache);
}

void TestAnthropicRequest::sendsToolsWithTheirInputSchema()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages, {userText(u"q"_s)});
    r.tools = {ToolDefinition{u"read"_s, u"Read a file"_s, json(R"({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]})").toObject()},
               ToolDefinition{u"todo"_s, {}, {}}};
    {
        const QJsonValue expected = json(R"([
        {"name":"read","description":"Read a file","input_schema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}},
        {"name":"todo","input_schema":{"type":"object","properties":{}}}])");
        QCOMPARE_JSON(bodyOf(build(r)).value("tools"_L1), expected);
    }
}

void TestAnthropicRequest::enablesThinkingWithTheBudgetAddedToMaxTokens()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages, {userText(u"q"_s)});
    r.options.maxOutputTokens = 20000;
    r.options.reasoningBudgetTokens = 8000;
    r.options.temperature = 0.3;
    const QJsonObject body = bodyOf(build(r));
    QCOMPARE(body.value("max_tokens"_L1).toInt(), 28000);
    QCOMPARE_JSON(body.value("thinking"_L1), json(R"({"type":"enabled","budget_tokens":8000})"));
    QVERIFY(!body.contains("temperature"_L1));
}

void TestAnthropicRequest::readsTheThinkingBudgetFromAiSdkProviderOptions()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages, {userText(u"q"_s)});
    r.options.maxOutputTokens = 16000;
    r.options.providerOptions = json(R"({"thinking":{"type":"enabled","budgetTokens":4000},"cacheControl":{"type":"ephemeral"}})").toObject();
    const QJsonObject body = bodyOf(build(r));
    QCOMPARE(body.value("max_tokens"_L1).toInt(), 20000);
    QCOMPARE_JSON(body.value("thinking"_L1), json(R"({"type":"enabled","budget_tokens":4000})"));
    QCOMPARE_JSON(body.value("cache_control"_L1), Cache);
}

void TestAnthropicRequest::sendsSamplingSettingsWithoutThinking()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages, {userText(u"q"_s)});
    r.options.maxOutputTokens = 8192;
    r.options.temperature = 0.5;
    r.options.topP = 0.9;
    r.options.topK = 40;
    const QJsonObject body = bodyOf(build(r));
    QCOMPARE(body.value("max_tokens"_L1).toInt(), 8192);
    QCOMPARE(body.value("temperature"_L1).toDouble(), 0.5);
    QCOMPARE(body.value("top_p"_L1).toDouble(), 0.9);
    QCOMPARE(body.value("top_k"_L1).toInt(), 40);
    QVERIFY(!body.contains("thinking"_L1));
}

void TestAnthropicRequest::rejectsAThinkingBudgetBelowTheMinimum()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages, {userText(u"q"_s)});
    r.options.reasoningBudgetTokens = 500;
    const Result<HttpRequestSpec> spec = buildHttpRequest(r);
    QVERIFY(!spec);
    QVERIFY(spec.errorMessage().contains(u"1024"_s));
}

void TestAnthropicRequest::sanitizesToolCallIdsFromOtherProviders()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                {userText(u"q"_s), assistant({call(u"call.1:x"_s, u"bash"_s, {})}),
                                 toolResults({result(u"call.1:x"_s, u"bash"_s, u"ok"_s)})});
    const QJsonArray messages = bodyOf(build(r)).value("messages"_L1).toArray();
    QCOMPARE(messages.at(1).toObject().value("content"_L1).toArray().at(0).toObject().value("id"_L1).toString(), u"call_1_x"_s);
    QCOMPARE(messages.at(2).toObject().value("content"_L1).toArray().at(0).toObject().value("tool_use_id"_L1).toString(), u"call_1_x"_s);
}

void TestAnthropicRequest::dropsEmptyTextAndTheMessagesItEmpties()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                {userText(u"Hello"_s), assistant({TextContent{{}, {}}}), userText(u"World"_s)});
    const QJsonArray messages = bodyOf(build(r)).value("messages"_L1).toArray();
    QCOMPARE(messages.size(), 1);
    QCOMPARE(messages.at(0).toObject().value("content"_L1).toArray().size(), 2);
}

void TestAnthropicRequest::trimsTrailingWhitespaceOfAFinalAssistantPrefill()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages, {userText(u"q"_s), assistant({TextContent{u"Sure:  \n"_s, {}}})});
    const QJsonArray messages = bodyOf(build(r)).value("messages"_L1).toArray();
    QCOMPARE(messages.last().toObject().value("content"_L1).toArray().last().toObject().value("text"_L1).toString(), u"Sure:"_s);
}

void TestAnthropicRequest::extraHeadersGoOnTopAndReplaceBuiltInOnes()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages, {userText(u"q"_s)});
    r.endpoint.headers = {{"anthropic-beta", "context-1m-2025-08-07"}, {"X-Api-Key", "proxy-key"}};
    const HttpRequestSpec spec = build(r);
    QCOMPARE(header(spec, "anthropic-beta"), QByteArray("context-1m-2025-08-07"));
    QCOMPARE(headerValues(spec, "x-api-key"), QList<QByteArray>{"proxy-key"});
}

void TestAnthropicRequest::keepsAnOpenRouterStyleBasePath()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages, {userText(u"q"_s)});
    r.endpoint.baseUrl = QUrl(u"https://proxy.example.com/anthropic/v1/"_s);
    QCOMPARE(build(r).url, QUrl(u"https://proxy.example.com/anthropic/v1/messages"_s));
}

void TestAnthropicRequest::rejectsImageFormatsClaudeCannotRead()
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                {ModelMessage{ModelRole::User, {file(u"image/bmp"_s, "BM", u"a.bmp"_s)}, {}}});
    const Result<HttpRequestSpec> spec = buildHttpRequest(r);
    QVERIFY(!spec);
    QVERIFY(spec.errorMessage().contains(u"a.bmp"_s));
}

#endif // Q_MOC_RUN

QTEST_GUILESS_MAIN(TestAnthropicRequest)
#include "tst_anthropic_request.moc"
