// OpenAI Responses request bodies (wire formats §5.1): stateless input items
// with reasoning replay, flat tools, max_output_tokens.

#include <QTest>

#include "RequestFixtures.h"
#include "engine/request/RequestBuilder.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QJsonObject openai(const char *itemId, const char *encrypted = nullptr)
{
    QJsonObject o{{"itemId"_L1, QLatin1StringView(itemId)}};
    if (encrypted)
        o.insert("reasoningEncryptedContent"_L1, QLatin1StringView(encrypted));
    return QJsonObject{{"openai"_L1, o}};
}

} // namespace

class TestOpenAIResponsesRequest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void postsToResponsesStatelessAndAsksForEncryptedReasoning();
    void replaysReasoningFunctionCallsAndTheirOutputsAsInputItems();
    void dropsReasoningItHasNoEncryptedContentFor();
    void sendsFlatFunctionTools();
    void sendsImagesAndPdfsAsInputParts();
    void keepsSamplingAndTheSystemRoleForNonReasoningModels();
    void mapsAiSdkReasoningOptions();
};

// moc cannot read multi-line raw string literals; it only needs the
// declarations above.
#ifndef Q_MOC_RUN

void TestOpenAIResponsesRequest::postsToResponsesStatelessAndAsksForEncryptedReasoning()
{
    ProviderRequest r = request(WireProtocol::OpenAIResponses, {userText(u"hi"_s)}, {u"Be brief."_s});
    r.options.maxOutputTokens = 32000;
    r.options.reasoningEffort = u"medium"_s;
    r.options.temperature = 0.2;
    const HttpRequestSpec spec = build(r);
    QCOMPARE(spec.url, QUrl(u"https://api.openai.com/v1/responses"_s));
    QCOMPARE(header(spec, "authorization"), QByteArray("Bearer sk-openai-secret"));
    {
        const QJsonValue expected = json(R"({
        "model":"gpt-5", "stream":true, "store":false, "max_output_tokens":32000,
        "reasoning":{"effort":"medium","summary":"auto"}, "include":["reasoning.encrypted_content"],
        "input":[{"role":"developer","content":"Be brief."},
                 {"role":"user","content":[{"type":"input_text","text":"hi"}]}]})");
        QCOMPARE_JSON(bodyOf(spec), expected);
    }
}

void TestOpenAIResponsesRequest::replaysReasoningFunctionCallsAndTheirOutputsAsInputItems()
{
    ProviderRequest r = request(WireProtocol::OpenAIResponses,
                                {userText(u"list"_s),
                                 assistant({ReasoningContent{u"First part."_s, openai("rs_1", "gAAAA")},
                                            ReasoningContent{u"Second part."_s, openai("rs_1", "gAAAA")},
                                            TextContent{u"Listing."_s, openai("msg_1")},
                                            call(u"call_1"_s, u"bash"_s, {{"command"_L1, "ls"_L1}}, openai("fc_1"))}),
                                 toolResults({result(u"call_1"_s, u"bash"_s, u"a.txt"_s)})});
    const QJsonValue expected = json(R"([
        {"role":"user","content":[{"type":"input_text","text":"list"}]},
        {"type":"reasoning","id":"rs_1","encrypted_content":"gAAAA",
         "summary":[{"type":"summary_text","text":"First part."},{"type":"summary_text","text":"Second part."}]},
        {"role":"assistant","content":[{"type":"output_text","text":"Listing."}]},
        {"type":"function_call","call_id":"call_1","name":"bash","arguments":"{\u0022command\u0022:\u0022ls\u0022}"},
        {"type":"function_call_output","call_id":"call_1","output":"a.txt"}])");
    QCOMPARE_JSON(bodyOf(build(r)).value("input"_L1), expected);
}

void TestOpenAIResponsesRequest::dropsReasoningItHasNoEncryptedContentFor()
{
    ProviderRequest r = request(WireProtocol::OpenAIResponses,
                                {userText(u"q"_s),
                                 assistant({ReasoningContent{u"stored elsewhere"_s, openai("rs_2")},
                                            ReasoningContent{u"another model's"_s, {}}, TextContent{u"A"_s, {}}}),
                                 userText(u"more"_s)});
    const QJsonArray input = bodyOf(build(r)).value("input"_L1).toArray();
    QCOMPARE(input.size(), 3);
    QCOMPARE_JSON(input.at(1), json(R"({"role":"assistant","content":[{"type":"output_text","text":"A"}]})"));
}

void TestOpenAIResponsesRequest::sendsFlatFunctionTools()
{
    ProviderRequest r = request(WireProtocol::OpenAIResponses, {userText(u"q"_s)});
    r.tools = {ToolDefinition{u"read"_s, u"Read a file"_s, json(R"({"type":"object","properties":{"path":{"type":"string"}}})").toObject()}};
    {
        const QJsonValue expected = json(R"([{"type":"function","name":"read","description":"Read a file",
        "parameters":{"type":"object","properties":{"path":{"type":"string"}}},"strict":false}])");
        QCOMPARE_JSON(bodyOf(build(r)).value("tools"_L1), expected);
    }
}

void TestOpenAIResponsesRequest::sendsImagesAndPdfsAsInputParts()
{
    ToolResultContent shot = result(u"call_1"_s, u"screenshot"_s, u"Captured."_s);
    shot.media.append(file(u"image/png"_s, "PNG"));
    ProviderRequest r = request(WireProtocol::OpenAIResponses,
                                {ModelMessage{ModelRole::User, {file(u"image/png"_s, "PNG"), file(u"application/pdf"_s, "%PDF", u"a.pdf"_s)}, {}},
                                 assistant({call(u"call_1"_s, u"screenshot"_s, {})}), toolResults({shot})});
    const QJsonArray input = bodyOf(build(r)).value("input"_L1).toArray();
    {
        const QJsonValue expected = json(R"({"role":"user","content":[
        {"type":"input_image","image_url":"data:image/png;base64,UE5H"},
        {"type":"input_file","filename":"a.pdf","file_data":"data:application/pdf;base64,JVBERg=="}]})");
        QCOMPARE_JSON(input.at(0), expected);
    }
    {
        const QJsonValue expected = json(R"({"type":"function_call_output","call_id":"call_1","output":[
        {"type":"input_text","text":"Captured."},{"type":"input_image","image_url":"data:image/png;base64,UE5H"}]})");
        QCOMPARE_JSON(input.at(2), expected);
    }
}

void TestOpenAIResponsesRequest::keepsSamplingAndTheSystemRoleForNonReasoningModels()
{
    ProviderRequest r = request(WireProtocol::OpenAIResponses, {userText(u"q"_s)}, {u"sys"_s});
    r.endpoint.modelId = u"gpt-4.1"_s;
    r.options.temperature = 0.2;
    const QJsonObject body = bodyOf(build(r));
    QCOMPARE(body.value("temperature"_L1).toDouble(), 0.2);
    QVERIFY(!body.contains("reasoning"_L1));
    QVERIFY(!body.contains("include"_L1));
    QCOMPARE(body.value("input"_L1).toArray().at(0).toObject().value("role"_L1).toString(), u"system"_s);
}

void TestOpenAIResponsesRequest::mapsAiSdkReasoningOptions()
{
    ProviderRequest r = request(WireProtocol::OpenAIResponses, {userText(u"q"_s)});
    r.options.providerOptions = json(R"({"reasoningEffort":"high","reasoningSummary":"detailed","textVerbosity":"low",
        "promptCacheKey":"ses_1","include":["reasoning.encrypted_content","message.output_text.logprobs"]})").toObject();
    const QJsonObject body = bodyOf(build(r));
    QCOMPARE_JSON(body.value("reasoning"_L1), json(R"({"effort":"high","summary":"detailed"})"));
    QCOMPARE_JSON(body.value("text"_L1), json(R"({"verbosity":"low"})"));
    QCOMPARE(body.value("prompt_cache_key"_L1).toString(), u"ses_1"_s);
    QCOMPARE_JSON(body.value("include"_L1), json(R"(["reasoning.encrypted_content","message.output_text.logprobs"])"));
}

#endif // Q_MOC_RUN

QTEST_GUILESS_MAIN(TestOpenAIResponsesRequest)
#include "tst_openai_responses_request.moc"
