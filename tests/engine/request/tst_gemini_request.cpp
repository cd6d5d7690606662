// Gemini request bodies (wire formats §6.1): URL with alt=sse and the key in
// a header, user/model contents, function parts, thought signatures,
// generationConfig, schemas in Gemini's subset.

#include <QTest>

#include "RequestFixtures.h"
#include "engine/request/GeminiRequestBuilder.h"
#include "engine/request/RequestBuilder.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QJsonObject google(const char *signature)
{
    return QJsonObject{{"google"_L1, QJsonObject{{"thoughtSignature"_L1, QLatin1StringView(signature)}}}};
}

} // namespace

class TestGeminiRequest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void postsToStreamGenerateContentWithAltSseAndTheKeyInAHeader();
    void keepsAFullModelResourceName();
    void sendsUserAndModelContentsWithFunctionPartsAndSignatures();
    void sendsAttachmentsAsInlineDataAndUrlsAsFileData();
    void sendsGenerationConfigWithAThinkingBudgetOrLevel();
    void convertsToolSchemasToGeminisSubset();
    void mergesAiSdkThinkingConfigIntoGenerationConfig();
    void rejectsASystemMessageInsideTheConversation();
};

// moc cannot read multi-line raw string literals; it only needs the
// declarations above.
#ifndef Q_MOC_RUN

void TestGeminiRequest::postsToStreamGenerateContentWithAltSseAndTheKeyInAHeader()
{
    const HttpRequestSpec spec = build(request(WireProtocol::Gemini, {userText(u"hi"_s)}, {u"Be brief."_s}));
    QCOMPARE(spec.url, QUrl(u"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"_s));
    QCOMPARE(header(spec, "x-goog-api-key"), QByteArray("goog-secret"));
    QVERIFY(!spec.url.toString().contains(u"goog-secret"_s));
    const QJsonValue expected = json(R"({"systemInstruction":{"parts":[{"text":"Be brief."}]},
        "contents":[{"role":"user","parts":[{"text":"hi"}]}]})");
    QCOMPARE_JSON(bodyOf(spec), expected);
}

void TestGeminiRequest::keepsAFullModelResourceName()
{
    ProviderRequest r = request(WireProtocol::Gemini, {userText(u"hi"_s)});
    r.endpoint.modelId = u"tunedModels/my-model"_s;
    QCOMPARE(build(r).url.path(), u"/v1beta/tunedModels/my-model:streamGenerateContent"_s);
}

void TestGeminiRequest::sendsUserAndModelContentsWithFunctionPartsAndSignatures()
{
    ProviderRequest r = request(WireProtocol::Gemini,
                                {userText(u"check both"_s),
                                 assistant({ReasoningContent{u"Plan."_s, google("sig-thought")},
                                            call(u"c1"_s, u"read"_s, {{"path"_L1, "a"_L1}}, google("sig-call")),
                                            call(u"c2"_s, u"read"_s, {{"path"_L1, "b"_L1}})}),
                                 toolResults({result(u"c1"_s, u"read"_s, u"A"_s)}),
                                 toolResults({result(u"c2"_s, u"read"_s, u"missing"_s, true)}),
                                 assistant({TextContent{u"Done."_s, google("sig-text")}}),
                                 userText(u"thanks"_s)});
    const QJsonValue expected = json(R"([
        {"role":"user","parts":[{"text":"check both"}]},
        {"role":"model","parts":[
            {"text":"Plan.","thought":true,"thoughtSignature":"sig-thought"},
            {"functionCall":{"name":"read","args":{"path":"a"}},"thoughtSignature":"sig-call"},
            {"functionCall":{"name":"read","args":{"path":"b"}}}]},
        {"role":"user","parts":[
            {"functionResponse":{"name":"read","response":{"name":"read","content":"A"}}},
            {"functionResponse":{"name":"read","response":{"name":"read","content":"missing"}}}]},
        {"role":"model","parts":[{"text":"Done.","thoughtSignature":"sig-text"}]},
        {"role":"user","parts":[{"text":"thanks"}]}])");
    QCOMPARE_JSON(bodyOf(build(r)).value("contents"_L1), expected);
}

void TestGeminiRequest::sendsAttachmentsAsInlineDataAndUrlsAsFileData()
{
    ToolResultContent shot = result(u"c1"_s, u"screenshot"_s, u"Captured."_s);
    shot.media.append(file(u"image/png"_s, "PNG"));
    FileContent video{u"video/mp4"_s, {}, QUrl(u"https://example.com/v.mp4"_s), {}, {}};
    ProviderRequest r = request(WireProtocol::Gemini,
                                {ModelMessage{ModelRole::User, {file(u"application/pdf"_s, "%PDF"), video}, {}},
                                 assistant({call(u"c1"_s, u"screenshot"_s, {})}), toolResults({shot})});
    const QJsonValue expected = json(R"([
        {"role":"user","parts":[{"inlineData":{"mimeType":"application/pdf","data":"JVBERg=="}},
                                {"fileData":{"mimeType":"video/mp4","fileUri":"https://example.com/v.mp4"}}]},
        {"role":"model","parts":[{"functionCall":{"name":"screenshot","args":{}}}]},
        {"role":"user","parts":[{"functionResponse":{"name":"screenshot","response":{"name":"screenshot","content":"Captured."}}},
                                {"inlineData":{"mimeType":"image/png","data":"UE5H"}}]}])");
    QCOMPARE_JSON(bodyOf(build(r)).value("contents"_L1), expected);
}

void TestGeminiRequest::sendsGenerationConfigWithAThinkingBudgetOrLevel()
{
    ProviderRequest r = request(WireProtocol::Gemini, {userText(u"q"_s)});
    r.options.maxOutputTokens = 32000;
    r.options.temperature = 1.0;
    r.options.topP = 0.95;
    r.options.topK = 64;
    r.options.reasoningBudgetTokens = 16000;
    const QJsonValue expected = json(R"({"maxOutputTokens":32000,"temperature":1.0,"topP":0.95,"topK":64,
        "thinkingConfig":{"includeThoughts":true,"thinkingBudget":16000}})");
    QCOMPARE_JSON(bodyOf(build(r)).value("generationConfig"_L1), expected);

    r.options.reasoningBudgetTokens.reset();
    r.options.reasoningEffort = u"high"_s;
    QCOMPARE_JSON(bodyOf(build(r)).value("generationConfig"_L1).toObject().value("thinkingConfig"_L1),
                  QJsonObject({{"includeThoughts"_L1, true}, {"thinkingLevel"_L1, "high"_L1}}));
}

void TestGeminiRequest::convertsToolSchemasToGeminisSubset()
{
    ProviderRequest r = request(WireProtocol::Gemini, {userText(u"q"_s)});
    r.tools = {ToolDefinition{u"edit"_s, u"Edit a file"_s, json(R"({"$schema":"http://json-schema.org/draft-07/schema#",
                   "type":"object","additionalProperties":false,
                   "properties":{"path":{"type":"string"},"mode":{"type":"integer","enum":[1,2]},
                                 "note":{"type":["string","null"]},"kind":{"const":"replace"},"lines":{"type":"array"}},
                   "required":["path","ghost"]})").toObject()},
               ToolDefinition{u"todo_read"_s, u"Read todos"_s, json(R"({"type":"object","properties":{}})").toObject()}};
    const QJsonValue expected = json(R"([{"functionDeclarations":[
        {"name":"edit","description":"Edit a file","parameters":{
            "type":"object",
            "properties":{"path":{"type":"string"},"mode":{"type":"string","enum":["1","2"]},
                          "note":{"type":"string","nullable":true},"kind":{"enum":["replace"]},
                          "lines":{"type":"array","items":{"type":"string"}}},
            "required":["path"]}},
        {"name":"todo_read","description":"Read todos"}]}])");
    QCOMPARE_JSON(bodyOf(build(r)).value("tools"_L1), expected);
}

void TestGeminiRequest::mergesAiSdkThinkingConfigIntoGenerationConfig()
{
    ProviderRequest r = request(WireProtocol::Gemini, {userText(u"q"_s)});
    r.options.maxOutputTokens = 1000;
    r.options.providerOptions = json(R"({"thinkingConfig":{"includeThoughts":true,"thinkingLevel":"low"},
        "safetySettings":[{"category":"HARM_CATEGORY_HARASSMENT","threshold":"BLOCK_NONE"}]})").toObject();
    const QJsonObject body = bodyOf(build(r));
    const QJsonValue expected = json(R"({"maxOutputTokens":1000,"thinkingConfig":{"includeThoughts":true,"thinkingLevel":"low"}})");
    QCOMPARE_JSON(body.value("generationConfig"_L1), expected);
    QCOMPARE(body.value("safetySettings"_L1).toArray().size(), 1);
}

void TestGeminiRequest::rejectsASystemMessageInsideTheConversation()
{
    ProviderRequest r = request(WireProtocol::Gemini,
                                {userText(u"q"_s), ModelMessage{ModelRole::System, {TextContent{u"late"_s, {}}}, {}}});
    const Result<HttpRequestSpec> spec = buildHttpRequest(r);
    QVERIFY(!spec);
    QVERIFY(!spec.errorMessage().isEmpty());
}

#endif // Q_MOC_RUN

QTEST_GUILESS_MAIN(TestGeminiRequest)
#include "tst_gemini_request.moc"
