// OpenCode's ProviderTransform (reference §6.3–§6.5) as pure functions, with
// the cases of upstream test/provider/transform.test.ts (§12.11).

#include <QTest>

#include "RequestFixtures.h"
#include "engine/request/ProviderTransform.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QJsonObject Ephemeral{{"type"_L1, "ephemeral"_L1}};

QJsonValue anthropicCache(const QJsonObject &options)
{
    return options.value("anthropic"_L1).toObject().value("cacheControl"_L1);
}

QJsonObject optionsOfLastPart(const ModelMessage &message)
{
    return std::visit(
        [](const auto &p) -> QJsonObject {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, ReasoningContent> || std::is_same_v<T, ToolCallContent>)
                return p.providerMetadata;
            else
                return p.providerOptions;
        },
        message.content.last());
}

// 1 system + 5 messages, as upstream's caching case.
ProviderRequest claudeConversation(const QString &providerId)
{
    ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                {userText(u"one"_s), assistant({TextContent{u"two"_s, {}}}), userText(u"three"_s),
                                 assistant({TextContent{u"four"_s, {}}}), userText(u"five"_s)},
                                {u"You are a helpful assistant"_s});
    r.endpoint.providerId = providerId;
    return r;
}

QString textOf(const ContentPart &part)
{
    if (const auto *t = std::get_if<TextContent>(&part))
        return t->text;
    if (const auto *r = std::get_if<ReasoningContent>(&part))
        return r->text;
    return {};
}

QJsonObject gemini(const char *schema)
{
    return ProviderTransform::sanitizeGeminiSchema(json(schema).toObject());
}

} // namespace

class TestProviderTransform : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void maxOutputTokensIsTheModelLimitCappedAt32000_data()
    {
        QTest::addColumn<int>("limit");
        QTest::addColumn<int>("expected");
        QTest::newRow("8192") << 8192 << 8192;
        QTest::newRow("64000") << 64000 << 32000;
        QTest::newRow("0 means unknown") << 0 << 32000;
    }

    void maxOutputTokensIsTheModelLimitCappedAt32000()
    {
        QFETCH(int, limit);
        QFETCH(int, expected);
        QCOMPARE(ProviderTransform::maxOutputTokens(limit), expected);
    }

    void maxOutputTokensWithoutAModelLimitIs32000()
    {
        QCOMPARE(ProviderTransform::maxOutputTokens(std::nullopt), 32000);
        QCOMPARE(ProviderTransform::maxOutputTokens(std::nullopt, 16000), 16000);
    }

    void maxOutputTokensWithThinkingLeavesRoomForTheBudget()
    {
        QCOMPARE(ProviderTransform::maxOutputTokensWithThinking(64000, 16000), 32000);
        QCOMPARE(ProviderTransform::maxOutputTokensWithThinking(40000, 16000), 24000);
        QCOMPARE(ProviderTransform::maxOutputTokensWithThinking(8192, 0), 8192);
    }

    void samplingDefaultsFollowTheModelId_data()
    {
        QTest::addColumn<QString>("modelId");
        QTest::addColumn<double>("temperature"); // -1: unset
        QTest::addColumn<double>("topP");
        QTest::addColumn<int>("topK");           // -1: unset
        QTest::newRow("qwen") << u"qwen3-coder"_s << 0.55 << 1.0 << -1;
        QTest::newRow("claude") << u"claude-sonnet-4-5"_s << -1.0 << -1.0 << -1;
        QTest::newRow("gemini") << u"gemini-2.5-pro"_s << 1.0 << 0.95 << 64;
        QTest::newRow("kimi-k2-thinking") << u"kimi-k2-thinking"_s << 1.0 << -1.0 << -1;
        QTest::newRow("kimi-k2") << u"kimi-k2"_s << 0.6 << -1.0 << -1;
        QTest::newRow("glm-4.6") << u"GLM-4.6"_s << 1.0 << -1.0 << -1;
        QTest::newRow("minimax-m2") << u"minimax-m2"_s << 1.0 << 0.95 << 20;
        QTest::newRow("minimax-m2.1") << u"minimax-m2.1"_s << 1.0 << 0.95 << 40;
        QTest::newRow("gpt") << u"gpt-4.1"_s << -1.0 << -1.0 << -1;
    }

    void samplingDefaultsFollowTheModelId()
    {
        QFETCH(QString, modelId);
        QFETCH(double, temperature);
        QFETCH(double, topP);
        QFETCH(int, topK);
        const SamplingDefaults defaults = ProviderTransform::samplingDefaults(modelId);
        QCOMPARE(defaults.temperature, temperature < 0 ? std::nullopt : std::optional<double>(temperature));
        QCOMPARE(defaults.topP, topP < 0 ? std::nullopt : std::optional<double>(topP));
        QCOMPARE(defaults.topK, topK < 0 ? std::nullopt : std::optional<int>(topK));
    }

    void cachesTheSystemAndTheLastTwoMessagesOnTheMessageForAnthropic()
    {
        ProviderRequest r = claudeConversation(u"anthropic"_s);
        ProviderTransform::applyPromptCaching(r);
        QVERIFY(r.system.isEmpty());
        QCOMPARE(r.messages.size(), 6);
        QCOMPARE(r.messages.at(0).role, ModelRole::System);
        for (int i : {0, 4, 5}) {
            QCOMPARE_JSON(anthropicCache(r.messages.at(i).providerOptions), Ephemeral);
            QVERIFY(optionsOfLastPart(r.messages.at(i)).isEmpty());
        }
        for (int i : {1, 2, 3})
            QVERIFY(r.messages.at(i).providerOptions.isEmpty());
        QCOMPARE_JSON(r.messages.at(5).providerOptions.value("openaiCompatible"_L1),
                      QJsonObject({{"cache_control"_L1, Ephemeral}}));
    }

    void cachesOnTheLastContentPartForOtherProviders()
    {
        ProviderRequest r = claudeConversation(u"openrouter"_s);
        ProviderTransform::applyPromptCaching(r);
        for (int i : {0, 4, 5}) {
            QVERIFY(r.messages.at(i).providerOptions.isEmpty());
            QCOMPARE_JSON(anthropicCache(optionsOfLastPart(r.messages.at(i))), Ephemeral);
            QCOMPARE_JSON(optionsOfLastPart(r.messages.at(i)).value("openrouter"_L1), QJsonObject({{"cacheControl"_L1, Ephemeral}}));
        }
        for (int i : {1, 2, 3})
            QVERIFY(optionsOfLastPart(r.messages.at(i)).isEmpty());
    }

    void cachesOnlyTheFirstTwoSystemMessages()
    {
        ProviderRequest r = request(WireProtocol::AnthropicMessages, {userText(u"hi"_s)}, {u"a"_s, u"b"_s, u"c"_s});
        ProviderTransform::applyPromptCaching(r);
        QVERIFY(!r.messages.at(0).providerOptions.isEmpty());
        QVERIFY(!r.messages.at(1).providerOptions.isEmpty());
        QVERIFY(r.messages.at(2).providerOptions.isEmpty());
        QVERIFY(!r.messages.at(3).providerOptions.isEmpty());
    }

    void cacheMarkersJoinOtherOptionsOfTheSameProvider()
    {
        ProviderRequest r = request(WireProtocol::OpenAIChat, {userText(u"hi"_s)});
        r.endpoint.providerId = u"anthropic"_s;
        r.messages[0].providerOptions = QJsonObject{{"openaiCompatible"_L1, QJsonObject{{"reasoning_content"_L1, "kept"_L1}}}};
        ProviderTransform::applyPromptCaching(r);
        const QJsonObject compatible = r.messages.at(0).providerOptions.value("openaiCompatible"_L1).toObject();
        QCOMPARE(compatible.value("reasoning_content"_L1).toString(), u"kept"_s);
        QCOMPARE_JSON(compatible.value("cache_control"_L1), Ephemeral);
    }

    void cachingAppliesOnlyToAnthropicFamilyModels()
    {
        QVERIFY(ProviderTransform::usesAnthropicCaching(endpoint(WireProtocol::AnthropicMessages)));
        ProviderEndpoint routed = endpoint(WireProtocol::OpenAIChat);
        routed.providerId = u"openrouter"_s;
        routed.modelId = u"anthropic/claude-sonnet-4"_s;
        QVERIFY(ProviderTransform::usesAnthropicCaching(routed));
        QVERIFY(!ProviderTransform::usesAnthropicCaching(endpoint(WireProtocol::OpenAIChat)));
        QVERIFY(!ProviderTransform::usesAnthropicCaching(endpoint(WireProtocol::Gemini)));

        ProviderRequest r = request(WireProtocol::OpenAIChat, {userText(u"hi"_s)}, {u"sys"_s});
        ProviderTransform::applyMessageTransforms(r);
        for (const ModelMessage &m : std::as_const(r.messages)) {
            QVERIFY(m.providerOptions.isEmpty());
            QVERIFY(optionsOfLastPart(m).isEmpty());
        }
    }

    void filtersOutEmptyTextParts()
    {
        ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                    {assistant({TextContent{{}, {}}, TextContent{u"Hello"_s, {}}, TextContent{{}, {}}})});
        ProviderTransform::removeEmptyContent(r);
        QCOMPARE(r.messages.size(), 1);
        QCOMPARE(r.messages.at(0).content.size(), 1);
        QCOMPARE(textOf(r.messages.at(0).content.at(0)), u"Hello"_s);
    }

    void filtersOutEmptyReasoningParts()
    {
        ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                    {assistant({ReasoningContent{{}, {}}, TextContent{u"Answer"_s, {}}, ReasoningContent{{}, {}}})});
        ProviderTransform::removeEmptyContent(r);
        QCOMPARE(r.messages.at(0).content.size(), 1);
        QVERIFY(std::holds_alternative<TextContent>(r.messages.at(0).content.at(0)));
    }

    void removesAMessageWhoseEveryPartIsEmpty()
    {
        ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                    {userText(u"Hello"_s), assistant({TextContent{{}, {}}, ReasoningContent{{}, {}}}), userText(u"World"_s)});
        ProviderTransform::removeEmptyContent(r);
        QCOMPARE(r.messages.size(), 2);
        QCOMPARE(textOf(r.messages.at(0).content.at(0)), u"Hello"_s);
        QCOMPARE(textOf(r.messages.at(1).content.at(0)), u"World"_s);
    }

    void keepsToolCallsWhenTheTextBesideThemIsEmpty()
    {
        ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                    {assistant({TextContent{{}, {}}, call(u"123"_s, u"bash"_s, {{"command"_L1, "ls"_L1}})})});
        ProviderTransform::removeEmptyContent(r);
        QCOMPARE(r.messages.at(0).content.size(), 1);
        QCOMPARE(std::get<ToolCallContent>(r.messages.at(0).content.at(0)).toolCallId, u"123"_s);
    }

    void keepsValidTextAlongsideEmptyParts()
    {
        ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                    {assistant({ReasoningContent{u"Thinking..."_s, {}}, TextContent{{}, {}}, TextContent{u"Result"_s, {}}})});
        ProviderTransform::removeEmptyContent(r);
        QCOMPARE(r.messages.at(0).content.size(), 2);
        QCOMPARE(textOf(r.messages.at(0).content.at(0)), u"Thinking..."_s);
        QCOMPARE(textOf(r.messages.at(0).content.at(1)), u"Result"_s);
    }

    void keepsRedactedThinkingThatHasNoText()
    {
        const QJsonObject redacted{{"anthropic"_L1, QJsonObject{{"redactedData"_L1, "opaque"_L1}}}};
        ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                    {assistant({ReasoningContent{{}, redacted}, TextContent{u"ok"_s, {}}})});
        ProviderTransform::removeEmptyContent(r);
        QCOMPARE(r.messages.at(0).content.size(), 2);
    }

    void doesNotFilterEmptyContentForOtherProtocols()
    {
        ProviderRequest r = request(WireProtocol::OpenAIChat, {userText(u"hi"_s), assistant({TextContent{{}, {}}})});
        ProviderTransform::applyMessageTransforms(r);
        QCOMPARE(r.messages.size(), 2);
        QCOMPARE(r.messages.at(1).content.size(), 1);
    }

    void sanitizesClaudeToolCallIdsOnCallsAndResults()
    {
        ProviderRequest r = request(WireProtocol::OpenAIChat,
                                    {userText(u"go"_s), assistant({call(u"call:1/ä.x"_s, u"bash"_s, {})}),
                                     toolResults({result(u"call:1/ä.x"_s, u"bash"_s, u"ok"_s)})});
        r.endpoint.modelId = u"anthropic/claude-sonnet-4"_s;
        ProviderTransform::applyMessageTransforms(r);
        QCOMPARE(std::get<ToolCallContent>(r.messages.at(1).content.at(0)).toolCallId, u"call_1___x"_s);
        QCOMPARE(std::get<ToolResultContent>(r.messages.at(2).content.at(0)).toolCallId, u"call_1___x"_s);
    }

    void normalizesMistralToolCallIdsAndAnswersToolResultsBeforeTheUser()
    {
        ProviderRequest r = request(WireProtocol::OpenAIChat,
                                    {userText(u"go"_s), assistant({call(u"call_ab-c"_s, u"bash"_s, {}), call(u"toolu_0123456789"_s, u"bash"_s, {})}),
                                     toolResults({result(u"call_ab-c"_s, u"bash"_s, u"a"_s), result(u"toolu_0123456789"_s, u"bash"_s, u"b"_s)}),
                                     userText(u"next"_s)});
        r.endpoint.providerId = u"mistral"_s;
        r.endpoint.modelId = u"devstral-medium"_s;
        ProviderTransform::applyMessageTransforms(r);
        QCOMPARE(std::get<ToolCallContent>(r.messages.at(1).content.at(0)).toolCallId, u"callabc00"_s);
        QCOMPARE(std::get<ToolCallContent>(r.messages.at(1).content.at(1)).toolCallId, u"toolu0123"_s);
        QCOMPARE(std::get<ToolResultContent>(r.messages.at(2).content.at(1)).toolCallId, u"toolu0123"_s);
        QCOMPARE(r.messages.size(), 5);
        QCOMPARE(r.messages.at(3).role, ModelRole::Assistant);
        QCOMPARE(textOf(r.messages.at(3).content.at(0)), u"Done."_s);
        QCOMPARE(r.messages.at(4).role, ModelRole::User);
    }

    void replacesAnEmptyImageWithAnErrorText()
    {
        ProviderRequest r = request(WireProtocol::AnthropicMessages,
                                    {ModelMessage{ModelRole::User,
                                                  {TextContent{u"Compare these images"_s, {}}, file(u"image/png"_s, QByteArray("\x89PNG", 4)),
                                                   file(u"image/jpeg"_s, {})},
                                                  {}}});
        ProviderTransform::replaceEmptyImages(r);
        const QList<ContentPart> &content = r.messages.at(0).content;
        QCOMPARE(content.size(), 3);
        QCOMPARE(textOf(content.at(0)), u"Compare these images"_s);
        QVERIFY(std::holds_alternative<FileContent>(content.at(1)));
        QCOMPARE(textOf(content.at(2)), u"ERROR: Image file is empty or corrupted. Please provide a valid image."_s);
    }

    void replacesMediaTheModelCannotReadWithAnErrorText()
    {
        ProviderRequest r = request(WireProtocol::OpenAIChat,
                                    {ModelMessage{ModelRole::User,
                                                  {file(u"application/pdf"_s, "%PDF", u"spec.pdf"_s), file(u"image/png"_s, "png"),
                                                   file(u"text/csv"_s, "a,b")},
                                                  {}}});
        InputModalities input;
        input.image = false;
        ProviderTransform::replaceUnsupportedMedia(r, input);
        const QList<ContentPart> &content = r.messages.at(0).content;
        QCOMPARE(textOf(content.at(0)), u"ERROR: Cannot read \"spec.pdf\" (this model does not support pdf input). Inform the user."_s);
        QCOMPARE(textOf(content.at(1)), u"ERROR: Cannot read image (this model does not support image input). Inform the user."_s);
        QVERIFY(std::holds_alternative<FileContent>(content.at(2)));
    }

    void movesReasoningIntoTheInterleavedFieldForDeepSeek()
    {
        ProviderRequest r = request(WireProtocol::OpenAIChat,
                                    {assistant({ReasoningContent{u"Let me think about this..."_s, {}},
                                                call(u"test"_s, u"bash"_s, {{"command"_L1, "echo hello"_L1}})})});
        ProviderTransform::moveReasoningToField(r, u"reasoning_content"_s);
        QCOMPARE(r.messages.at(0).content.size(), 1);
        QVERIFY(std::holds_alternative<ToolCallContent>(r.messages.at(0).content.at(0)));
        QCOMPARE(r.messages.at(0).providerOptions.value("openaiCompatible"_L1).toObject().value("reasoning_content"_L1).toString(),
                 u"Let me think about this..."_s);
    }

    void leavesReasoningAloneWithoutAnInterleavedField()
    {
        ProviderRequest r = request(WireProtocol::OpenAIChat,
                                    {assistant({ReasoningContent{u"Should not be processed"_s, {}}, TextContent{u"Answer"_s, {}}})});
        ProviderTransform::applyMessageTransforms(r);
        QCOMPARE(r.messages.at(0).content.size(), 2);
        QVERIFY(r.messages.at(0).providerOptions.isEmpty());
    }

    void messageTransformsAreIdempotent()
    {
        ProviderRequest r = claudeConversation(u"anthropic"_s);
        r.messages.append(assistant({call(u"a.b"_s, u"bash"_s, {})}));
        r.messages.append(toolResults({result(u"a.b"_s, u"bash"_s, u"ok"_s)}));
        ProviderTransform::applyMessageTransforms(r);
        ProviderRequest again = r;
        ProviderTransform::applyMessageTransforms(again);
        QCOMPARE(again.messages.size(), r.messages.size());
        for (qsizetype i = 0; i < r.messages.size(); ++i) {
            QCOMPARE_JSON(again.messages.at(i).providerOptions, r.messages.at(i).providerOptions);
            QCOMPARE_JSON(optionsOfLastPart(again.messages.at(i)), optionsOfLastPart(r.messages.at(i)));
        }
    }

    void geminiSchemaAddsMissingItemsForArrays()
    {
        const QJsonObject result = gemini(R"({"type":"object","properties":{"nodes":{"type":"array"},"edges":{"type":"array","items":{"type":"string"}}}})");
        const QJsonObject properties = result.value("properties"_L1).toObject();
        QVERIFY(properties.value("nodes"_L1).toObject().value("items"_L1).isObject());
        QCOMPARE(properties.value("edges"_L1).toObject().value("items"_L1).toObject().value("type"_L1).toString(), u"string"_s);
    }

    void geminiSchemaTypesEmptyAndMissingNestedItems_data()
    {
        QTest::addColumn<QString>("schema");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("type");
        QTest::newRow("2D with empty inner items")
            << uR"({"type":"object","properties":{"values":{"type":"array","items":{"type":"array","items":{}}}}})"_s
            << u"properties.values.items.items"_s << u"string"_s;
        QTest::newRow("2D with missing inner items")
            << uR"({"type":"object","properties":{"data":{"type":"array","items":{"type":"array"}}}})"_s
            << u"properties.data.items.items"_s << u"string"_s;
        QTest::newRow("3D") << uR"({"type":"object","properties":{"matrix":{"type":"array","items":{"type":"array","items":{"type":"array"}}}}})"_s
                            << u"properties.matrix.items.items.items"_s << u"string"_s;
        QTest::newRow("explicit inner type kept")
            << uR"({"type":"object","properties":{"numbers":{"type":"array","items":{"type":"array","items":{"type":"number"}}}}})"_s
            << u"properties.numbers.items.items"_s << u"number"_s;
        QTest::newRow("objects and arrays mixed")
            << uR"({"type":"object","properties":{"spreadsheetData":{"type":"object","properties":{"rows":{"type":"array","items":{"type":"array","items":{}}}}}}})"_s
            << u"properties.spreadsheetData.properties.rows.items.items"_s << u"string"_s;
    }

    void geminiSchemaTypesEmptyAndMissingNestedItems()
    {
        QFETCH(QString, schema);
        QFETCH(QString, path);
        QFETCH(QString, type);
        QJsonValue node = ProviderTransform::sanitizeGeminiSchema(QJsonDocument::fromJson(schema.toUtf8()).object());
        for (const QString &key : path.split(u'.'))
            node = node.toObject().value(key);
        QCOMPARE(node.toObject().value("type"_L1).toString(), type);
    }

    void geminiSchemaKeepsAnyOfItemsWithoutAddingAType()
    {
        const QJsonObject result = gemini(R"({"type":"object","properties":{"edits":{"type":"array","items":{"anyOf":[
            {"type":"object","properties":{"old_string":{"type":"string"},"new_string":{"type":"string"}},"required":["old_string","new_string"]},
            {"type":"object","properties":{"old_string":{"type":"string"},"new_string":{"type":"string"},"replace_all":{"type":"boolean"}},"required":["old_string","new_string"]}]}}},
            "required":["edits"]})");
        const QJsonObject items = result.value("properties"_L1).toObject().value("edits"_L1).toObject().value("items"_L1).toObject();
        QVERIFY(items.value("anyOf"_L1).isArray());
        QVERIFY(!items.contains("type"_L1));
    }

    void geminiSchemaAddsNoSiblingKeysToCombinerNodes()
    {
        const QJsonObject input = json(R"({"type":"object","properties":{
            "edits":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"}]}},
            "value":{"oneOf":[{"type":"string"},{"type":"boolean"}]},
            "meta":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"string"}}}]}}})")
                                      .toObject();
        const QJsonObject properties = ProviderTransform::sanitizeGeminiSchema(input).value("properties"_L1).toObject();
        const QJsonObject before = input.value("properties"_L1).toObject();
        QCOMPARE(properties.value("edits"_L1).toObject().value("items"_L1).toObject().keys(),
                 before.value("edits"_L1).toObject().value("items"_L1).toObject().keys());
        QCOMPARE(properties.value("value"_L1).toObject().keys(), before.value("value"_L1).toObject().keys());
        QCOMPARE(properties.value("meta"_L1).toObject().keys(), before.value("meta"_L1).toObject().keys());
    }

    void geminiSchemaRemovesPropertiesAndRequiredFromNonObjects()
    {
        const QJsonObject result = gemini(R"({"type":"object","properties":{
            "data":{"type":"string","properties":{"invalid":{"type":"string"}}},
            "list":{"type":"array","items":{"type":"string"},"required":["invalid"]},
            "outer":{"type":"object","properties":{"inner":{"type":"number","properties":{"bad":{"type":"string"}},"required":["bad"]}}}}})");
        const QJsonObject properties = result.value("properties"_L1).toObject();
        QCOMPARE_JSON(properties.value("data"_L1), json(R"({"type":"string"})"));
        QCOMPARE_JSON(properties.value("list"_L1), json(R"({"type":"array","items":{"type":"string"}})"));
        QCOMPARE_JSON(properties.value("outer"_L1).toObject().value("properties"_L1).toObject().value("inner"_L1), json(R"({"type":"number"})"));
    }

    void geminiSchemaKeepsPropertiesAndRequiredOnObjects()
    {
        const QJsonObject result = gemini(R"({"type":"object","properties":{"data":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}})");
        QCOMPARE_JSON(result.value("properties"_L1).toObject().value("data"_L1),
                      json(R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})"));
    }

    void geminiSchemaStringifiesEnumsAndFiltersRequired()
    {
        const QJsonObject result = gemini(R"({"type":"object","properties":{"level":{"type":"integer","enum":[1,2,3]}},"required":["level","ghost"]})");
        QCOMPARE_JSON(result, json(R"({"type":"object","properties":{"level":{"type":"string","enum":["1","2","3"]}},"required":["level"]})"));
    }
};

QTEST_GUILESS_MAIN(TestProviderTransform)
#include "tst_provider_transform.moc"
