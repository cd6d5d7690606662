#include "ProviderTransform.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode::ProviderTransform {

namespace {

// Where a part keeps what goes back to the provider: providerOptions on
// user-side parts, the replayed providerMetadata on reasoning and tool calls
// (the AI SDK reads both as the part's provider options).
QJsonObject &partOptions(ContentPart &part)
{
    return std::visit(
        [](auto &p) -> QJsonObject & {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, ReasoningContent> || std::is_same_v<T, ToolCallContent>)
                return p.providerMetadata;
            else
                return p.providerOptions;
        },
        part);
}

// Merges `addition` into `target` one namespace deep, so a cache marker
// joins whatever else a namespace holds (e.g. openaiCompatible's
// reasoning_content) instead of replacing it.
void mergeNamespaces(QJsonObject &target, const QJsonObject &addition)
{
    for (auto it = addition.begin(); it != addition.end(); ++it) {
        QJsonObject merged = target.value(it.key()).toObject();
        const QJsonObject values = it.value().toObject();
        for (auto v = values.begin(); v != values.end(); ++v)
            merged.insert(v.key(), v.value());
        target.insert(it.key(), merged);
    }
}

QJsonObject ephemeralMarker()
{
    const QJsonObject ephemeral{{"type"_L1, "ephemeral"_L1}};
    return QJsonObject{
        {"anthropic"_L1, QJsonObject{{"cacheControl"_L1, ephemeral}}},
        {"openrouter"_L1, QJsonObject{{"cacheControl"_L1, ephemeral}}},
        {"bedrock"_L1, QJsonObject{{"cachePoint"_L1, QJsonObject{{"type"_L1, "default"_L1}}}}},
        {"openaiCompatible"_L1, QJsonObject{{"cache_control"_L1, ephemeral}}},
    };
}

std::optional<QString> modalityOf(const QString &mediaType)
{
    if (mediaType.startsWith("image/"_L1))
        return u"image"_s;
    if (mediaType.startsWith("audio/"_L1))
        return u"audio"_s;
    if (mediaType.startsWith("video/"_L1))
        return u"video"_s;
    if (mediaType == "application/pdf"_L1)
        return u"pdf"_s;
    return std::nullopt;
}

bool accepts(const InputModalities &input, const QString &modality)
{
    if (modality == "image"_L1)
        return input.image;
    if (modality == "audio"_L1)
        return input.audio;
    if (modality == "video"_L1)
        return input.video;
    return input.pdf;
}

bool hasReplayData(const ReasoningContent &reasoning)
{
    const QJsonObject anthropic = reasoning.providerMetadata.value("anthropic"_L1).toObject();
    return anthropic.contains("signature"_L1) || anthropic.contains("redactedData"_L1)
        || reasoning.providerMetadata.value("openai"_L1).toObject().contains("reasoningEncryptedContent"_L1)
        || reasoning.providerMetadata.value("google"_L1).toObject().contains("thoughtSignature"_L1);
}

template <typename F>
void rewriteToolCallIds(ProviderRequest &request, F rewrite)
{
    for (ModelMessage &message : request.messages) {
        if (message.role != ModelRole::Assistant && message.role != ModelRole::Tool)
            continue;
        for (ContentPart &part : message.content) {
            if (auto *call = std::get_if<ToolCallContent>(&part))
                call->toolCallId = rewrite(call->toolCallId);
            else if (auto *result = std::get_if<ToolResultContent>(&part))
                result->toolCallId = rewrite(result->toolCallId);
        }
    }
}

QJsonValue sanitizeGeminiValue(const QJsonValue &value);

QJsonArray sanitizeGeminiArray(const QJsonArray &array)
{
    QJsonArray out;
    for (const QJsonValue &item : array)
        out.append(sanitizeGeminiValue(item));
    return out;
}

QJsonValue sanitizeGeminiValue(const QJsonValue &value)
{
    if (value.isObject())
        return sanitizeGeminiSchema(value.toObject());
    if (value.isArray())
        return sanitizeGeminiArray(value.toArray());
    return value;
}

bool isCombiner(const QJsonObject &node)
{
    return node.contains("anyOf"_L1) || node.contains("oneOf"_L1) || node.contains("allOf"_L1) || node.contains("$ref"_L1);
}

} // namespace

int maxOutputTokens(std::optional<int> modelOutputLimit, int ceiling)
{
    const int cap = modelOutputLimit.value_or(0) > 0 ? *modelOutputLimit : ceiling;
    return std::min(cap, ceiling);
}

int maxOutputTokensWithThinking(std::optional<int> modelOutputLimit, int thinkingBudget, int ceiling)
{
    const int cap = modelOutputLimit.value_or(0) > 0 ? *modelOutputLimit : ceiling;
    const int standard = std::min(cap, ceiling);
    if (thinkingBudget <= 0 || thinkingBudget + standard <= cap)
        return standard;
    return std::max(cap - thinkingBudget, 1);
}

SamplingDefaults samplingDefaults(const QString &modelId)
{
    const QString id = modelId.toLower();
    const auto has = [&id](QLatin1StringView needle) { return id.contains(needle); };
    SamplingDefaults out;

    if (has("qwen"_L1))
        out.temperature = 0.55;
    else if (has("claude"_L1))
        out.temperature = std::nullopt;
    else if (has("gemini"_L1) || has("glm-4.6"_L1) || has("glm-4.7"_L1) || has("minimax-m2"_L1))
        out.temperature = 1.0;
    else if (has("kimi-k2"_L1))
        out.temperature = (has("thinking"_L1) || has("k2."_L1) || has("k2p"_L1) || has("k2-5"_L1)) ? 1.0 : 0.6;

    if (has("qwen"_L1))
        out.topP = 1.0;
    else if (has("minimax-m2"_L1) || has("gemini"_L1) || has("kimi-k2.5"_L1) || has("k2p5"_L1) || has("kimi-k2-5"_L1))
        out.topP = 0.95;

    if (has("minimax-m2"_L1))
        out.topK = (has("m2."_L1) || has("m25"_L1) || has("m21"_L1)) ? 40 : 20;
    else if (has("gemini"_L1))
        out.topK = 64;
    return out;
}

bool usesAnthropicCaching(const ProviderEndpoint &endpoint)
{
    return endpoint.protocol == WireProtocol::AnthropicMessages || endpoint.providerId == "anthropic"_L1
        || endpoint.modelId.contains("claude"_L1, Qt::CaseInsensitive)
        || endpoint.modelId.contains("anthropic"_L1, Qt::CaseInsensitive);
}

void hoistSystemPrompt(ProviderRequest &request)
{
    QList<ModelMessage> leading;
    for (const QString &text : std::as_const(request.system))
        leading.append(ModelMessage{ModelRole::System, {TextContent{text, {}}}, {}});
    request.system.clear();
    request.messages = leading + request.messages;
}

void applyPromptCaching(ProviderRequest &request)
{
    hoistSystemPrompt(request);
    QList<qsizetype> system;
    QList<qsizetype> others;
    for (qsizetype i = 0; i < request.messages.size(); ++i)
        (request.messages.at(i).role == ModelRole::System ? system : others).append(i);

    QSet<qsizetype> marked(system.begin(), system.begin() + std::min<qsizetype>(2, system.size()));
    for (qsizetype i = std::max<qsizetype>(0, others.size() - 2); i < others.size(); ++i)
        marked.insert(others.at(i));

    // Anthropic's own API (and Bedrock's) read the marker on the message and
    // place it on its last block; the others read it on the part only.
    const bool onMessage = request.endpoint.providerId == "anthropic"_L1 || request.endpoint.providerId.contains("bedrock"_L1);
    const QJsonObject marker = ephemeralMarker();
    for (const qsizetype index : std::as_const(marked)) {
        ModelMessage &message = request.messages[index];
        if (!onMessage && !message.content.isEmpty())
            mergeNamespaces(partOptions(message.content.last()), marker);
        else
            mergeNamespaces(message.providerOptions, marker);
    }
}

void removeEmptyContent(ProviderRequest &request)
{
    QList<ModelMessage> kept;
    for (ModelMessage &message : request.messages) {
        message.content.removeIf([](const ContentPart &part) {
            if (const auto *text = std::get_if<TextContent>(&part))
                return text->text.isEmpty();
            // Redacted or omitted thinking has no text but must still be
            // replayed with its signature.
            if (const auto *reasoning = std::get_if<ReasoningContent>(&part))
                return reasoning->text.isEmpty() && !hasReplayData(*reasoning);
            return false;
        });
        if (!message.content.isEmpty())
            kept.append(std::move(message));
    }
    request.messages = std::move(kept);
}

void sanitizeToolCallIds(ProviderRequest &request)
{
    rewriteToolCallIds(request, [](const QString &id) {
        QString out = id;
        for (QChar &c : out) {
            const bool allowed = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
                || c == u'_' || c == u'-';
            if (!allowed)
                c = u'_';
        }
        return out;
    });
}

void normalizeMistralToolCalls(ProviderRequest &request)
{
    rewriteToolCallIds(request, [](const QString &id) {
        QString out;
        for (const QChar c : id) {
            if (out.size() == 9)
                break;
            if ((c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9'))
                out.append(c);
        }
        return out.leftJustified(9, u'0');
    });

    QList<ModelMessage> out;
    for (qsizetype i = 0; i < request.messages.size(); ++i) {
        out.append(request.messages.at(i));
        const bool userFollows = i + 1 < request.messages.size() && request.messages.at(i + 1).role == ModelRole::User;
        if (request.messages.at(i).role == ModelRole::Tool && userFollows)
            out.append(ModelMessage{ModelRole::Assistant, {TextContent{u"Done."_s, {}}}, {}});
    }
    request.messages = std::move(out);
}

void replaceEmptyImages(ProviderRequest &request)
{
    for (ModelMessage &message : request.messages) {
        if (message.role != ModelRole::User)
            continue;
        for (ContentPart &part : message.content) {
            const auto *file = std::get_if<FileContent>(&part);
            if (file && file->mediaType.startsWith("image/"_L1) && file->data.isEmpty() && file->url.isEmpty())
                part = TextContent{u"ERROR: Image file is empty or corrupted. Please provide a valid image."_s, {}};
        }
    }
}

void replaceUnsupportedMedia(ProviderRequest &request, const InputModalities &input)
{
    for (ModelMessage &message : request.messages) {
        if (message.role != ModelRole::User)
            continue;
        for (ContentPart &part : message.content) {
            const auto *file = std::get_if<FileContent>(&part);
            if (!file)
                continue;
            const std::optional<QString> modality = modalityOf(file->mediaType);
            if (!modality || accepts(input, *modality))
                continue;
            const QString name = file->filename.isEmpty() ? *modality : u"\"%1\""_s.arg(file->filename);
            part = TextContent{u"ERROR: Cannot read %1 (this model does not support %2 input). Inform the user."_s.arg(name, *modality), {}};
        }
    }
}

void moveReasoningToField(ProviderRequest &request, const QString &field)
{
    for (ModelMessage &message : request.messages) {
        if (message.role != ModelRole::Assistant)
            continue;
        QString reasoning;
        message.content.removeIf([&reasoning](const ContentPart &part) {
            const auto *r = std::get_if<ReasoningContent>(&part);
            if (r)
                reasoning.append(r->text);
            return r != nullptr;
        });
        if (!reasoning.isEmpty())
            mergeNamespaces(message.providerOptions, QJsonObject{{"openaiCompatible"_L1, QJsonObject{{field, reasoning}}}});
    }
}

QJsonObject sanitizeGeminiSchema(const QJsonObject &schema)
{
    QJsonObject result;
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        if (it.key() == "enum"_L1 && it.value().isArray()) {
            // Gemini only takes string enums; a number enum becomes a
            // string field with the numbers spelled out.
            QJsonArray values;
            for (const QJsonValue &v : it.value().toArray()) {
                if (v.isString())
                    values.append(v);
                else if (v.isDouble())
                    values.append(QString::number(v.toDouble(), 'g', 17));
                else if (v.isBool())
                    values.append(v.toBool() ? u"true"_s : u"false"_s);
                else if (v.isNull())
                    values.append(u"null"_s);
                else
                    values.append(v);
            }
            result.insert(it.key(), values);
        } else {
            result.insert(it.key(), sanitizeGeminiValue(it.value()));
        }
    }

    const QString type = result.value("type"_L1).toString();
    if (result.contains("enum"_L1) && (type == "integer"_L1 || type == "number"_L1))
        result.insert("type"_L1, u"string"_s);

    if (type == "object"_L1 && result.value("properties"_L1).isObject() && result.value("required"_L1).isArray()) {
        const QJsonObject properties = result.value("properties"_L1).toObject();
        QJsonArray required;
        for (const QJsonValue &name : result.value("required"_L1).toArray()) {
            if (properties.contains(name.toString()))
                required.append(name);
        }
        result.insert("required"_L1, required);
    }

    if (type == "array"_L1) {
        QJsonObject items = result.value("items"_L1).toObject();
        if (!items.contains("type"_L1) && !isCombiner(items) && !items.contains("enum"_L1) && !items.contains("properties"_L1))
            items.insert("type"_L1, u"string"_s);
        if (!result.value("items"_L1).isArray())
            result.insert("items"_L1, items);
    }

    if (!type.isEmpty() && type != "object"_L1) {
        result.remove("properties"_L1);
        result.remove("required"_L1);
    }
    return result;
}

void applyMessageTransforms(ProviderRequest &request)
{
    const ProviderEndpoint &endpoint = request.endpoint;
    replaceEmptyImages(request);
    hoistSystemPrompt(request);
    if (endpoint.protocol == WireProtocol::AnthropicMessages)
        removeEmptyContent(request);
    if (endpoint.protocol == WireProtocol::AnthropicMessages || endpoint.modelId.contains("claude"_L1))
        sanitizeToolCallIds(request);
    if (endpoint.providerId == "mistral"_L1 || endpoint.modelId.contains("mistral"_L1, Qt::CaseInsensitive)
        || endpoint.modelId.contains("devstral"_L1, Qt::CaseInsensitive))
        normalizeMistralToolCalls(request);
    if (usesAnthropicCaching(endpoint))
        applyPromptCaching(request);
}

} // namespace qcode::ProviderTransform
