#include "AnthropicRequestBuilder.h"

#include "ProviderTransform.h"
#include "RequestLogging.h"
#include "RequestSupport.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

constexpr int MinimumThinkingBudget = 1024;

// The AI SDK spells it cacheControl; a hand-written config may use the
// wire's cache_control.
QJsonValue cacheControl(const QJsonObject &options)
{
    const QJsonObject anthropic = options.value("anthropic"_L1).toObject();
    if (anthropic.value("cacheControl"_L1).isObject())
        return anthropic.value("cacheControl"_L1);
    if (anthropic.value("cache_control"_L1).isObject())
        return anthropic.value("cache_control"_L1);
    return QJsonValue::Undefined;
}

Result<QJsonObject> fileBlock(const FileContent &file)
{
    static const QStringList images{u"image/jpeg"_s, u"image/png"_s, u"image/gif"_s, u"image/webp"_s};
    QJsonObject source;
    if (!file.data.isEmpty() || file.url.isEmpty())
        source = QJsonObject{{"type"_L1, "base64"_L1}, {"media_type"_L1, file.mediaType},
                             {"data"_L1, QString::fromLatin1(file.data.toBase64())}};
    else
        source = QJsonObject{{"type"_L1, "url"_L1}, {"url"_L1, file.url.toString()}};

    if (file.mediaType.startsWith("image/"_L1)) {
        if (!images.contains(file.mediaType))
            return Error{AnthropicRequestBuilder::tr("Anthropic models read JPEG, PNG, GIF and WebP images; \"%1\" is %2.")
                             .arg(file.filename, file.mediaType)};
        return QJsonObject{{"type"_L1, "image"_L1}, {"source"_L1, source}};
    }
    QJsonObject document{{"type"_L1, "document"_L1}};
    if (file.mediaType == "application/pdf"_L1) {
        document.insert("source"_L1, source);
    } else if (file.mediaType.startsWith("text/"_L1) && !file.data.isEmpty()) {
        document.insert("source"_L1, QJsonObject{{"type"_L1, "text"_L1}, {"media_type"_L1, "text/plain"_L1},
                                                 {"data"_L1, QString::fromUtf8(file.data)}});
    } else {
        return Error{AnthropicRequestBuilder::tr("Anthropic models cannot read \"%1\" (%2); attach an image, a PDF or text.")
                         .arg(file.filename, file.mediaType)};
    }
    if (!file.filename.isEmpty())
        document.insert("title"_L1, file.filename);
    return document;
}

Result<QJsonValue> toolResultContent(const ToolResultContent &result)
{
    if (result.media.isEmpty())
        return QJsonValue(result.text);
    QJsonArray blocks;
    if (!result.text.isEmpty())
        blocks.append(QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, result.text}});
    for (const FileContent &file : result.media) {
        Result<QJsonObject> block = fileBlock(file);
        if (!block)
            return block.error();
        blocks.append(*block);
    }
    return QJsonValue(blocks);
}

// One content part as a block; an empty object when the part has nothing
// Anthropic can take (reasoning from another provider).
Result<QJsonObject> block(const ContentPart &part)
{
    if (const auto *text = std::get_if<TextContent>(&part))
        return QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, text->text}};
    if (const auto *file = std::get_if<FileContent>(&part))
        return fileBlock(*file);
    if (const auto *reasoning = std::get_if<ReasoningContent>(&part)) {
        const QJsonObject anthropic = reasoning->providerMetadata.value("anthropic"_L1).toObject();
        if (anthropic.contains("redactedData"_L1))
            return QJsonObject{{"type"_L1, "redacted_thinking"_L1}, {"data"_L1, anthropic.value("redactedData"_L1)}};
        if (anthropic.contains("signature"_L1))
            return QJsonObject{{"type"_L1, "thinking"_L1}, {"thinking"_L1, reasoning->text},
                               {"signature"_L1, anthropic.value("signature"_L1)}};
        // Unsigned thinking (another model's, or metadata stripped) would be
        // rejected; the text answer that followed it still goes.
        qCDebug(lcProviderRequest) << "dropping reasoning without an Anthropic signature";
        return QJsonObject();
    }
    if (const auto *call = std::get_if<ToolCallContent>(&part))
        return QJsonObject{{"type"_L1, "tool_use"_L1}, {"id"_L1, call->toolCallId}, {"name"_L1, call->toolName},
                           {"input"_L1, call->input}};
    const auto &result = std::get<ToolResultContent>(part);
    Result<QJsonValue> content = toolResultContent(result);
    if (!content)
        return content.error();
    QJsonObject out{{"type"_L1, "tool_result"_L1}, {"tool_use_id"_L1, result.toolCallId}, {"content"_L1, *content}};
    if (result.isError)
        out.insert("is_error"_L1, true);
    return out;
}

QJsonObject partOptions(const ContentPart &part)
{
    return std::visit(
        [](const auto &p) -> QJsonObject {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, ReasoningContent> || std::is_same_v<T, ToolCallContent>)
                return p.providerMetadata;
            else
                return p.providerOptions;
        },
        part);
}

// Blocks of one message; a message-level marker lands on its last block,
// which is what caching "up to and including this message" means.
Result<QJsonArray> blocks(const ModelMessage &message)
{
    QJsonArray out;
    const QJsonValue messageCache = cacheControl(message.providerOptions);
    for (qsizetype i = 0; i < message.content.size(); ++i) {
        Result<QJsonObject> b = block(message.content.at(i));
        if (!b)
            return b.error();
        if (b->isEmpty())
            continue;
        QJsonValue cache = cacheControl(partOptions(message.content.at(i)));
        if (cache.isUndefined() && i == message.content.size() - 1)
            cache = messageCache;
        if (!cache.isUndefined() && b->value("type"_L1) != "thinking"_L1 && b->value("type"_L1) != "redacted_thinking"_L1)
            b->insert("cache_control"_L1, cache);
        out.append(*b);
    }
    return out;
}

QString trimmedEnd(QString text)
{
    while (!text.isEmpty() && text.back().isSpace())
        text.chop(1);
    return text;
}

// opencode.json spells options as the AI SDK does.
QJsonObject wireOptions(QJsonObject options)
{
    QJsonObject thinking = options.value("thinking"_L1).toObject();
    if (thinking.contains("budgetTokens"_L1)) {
        thinking.insert("budget_tokens"_L1, thinking.take("budgetTokens"_L1));
        options.insert("thinking"_L1, thinking);
    }
    return RequestSupport::renameOptions(options, {{u"cacheControl"_s, u"cache_control"_s},
                                                   {u"effort"_s, u"output_config.effort"_s},
                                                   {u"disableParallelToolUse"_s, u"tool_choice.disable_parallel_tool_use"_s}});
}

} // namespace

Result<HttpRequestSpec> AnthropicRequestBuilder::build(const ProviderRequest &request)
{
    const RequestOptions &options = request.options;
    QJsonObject extra = wireOptions(options.providerOptions);

    QJsonArray system;
    QJsonArray messages;
    QString role;
    QJsonArray turn;
    const auto flush = [&]() {
        if (!turn.isEmpty())
            messages.append(QJsonObject{{"role"_L1, role}, {"content"_L1, turn}});
        turn = QJsonArray();
    };

    for (const ModelMessage &message : request.messages) {
        Result<QJsonArray> content = blocks(message);
        if (!content)
            return content.error();
        if (message.role == ModelRole::System) {
            if (!messages.isEmpty() || !turn.isEmpty())
                return Error{tr("Anthropic takes system instructions only before the conversation; a system message arrived after it.")};
            for (const QJsonValue &b : std::as_const(*content))
                system.append(b);
            continue;
        }
        const QString messageRole = message.role == ModelRole::Assistant ? u"assistant"_s : u"user"_s;
        if (messageRole != role)
            flush();
        role = messageRole;
        for (const QJsonValue &b : std::as_const(*content))
            turn.append(b);
    }
    flush();

    // Anthropic rejects a final assistant turn (a prefill) that ends in
    // whitespace.
    if (!messages.isEmpty()) {
        QJsonObject last = messages.last().toObject();
        QJsonArray content = last.value("content"_L1).toArray();
        QJsonObject lastBlock = content.isEmpty() ? QJsonObject() : content.last().toObject();
        if (last.value("role"_L1) == "assistant"_L1 && lastBlock.value("type"_L1) == "text"_L1) {
            lastBlock.insert("text"_L1, trimmedEnd(lastBlock.value("text"_L1).toString()));
            content.replace(content.size() - 1, lastBlock);
            last.insert("content"_L1, content);
            messages.replace(messages.size() - 1, last);
        }
    }
    if (messages.isEmpty())
        return Error{tr("There is no message left to send to Anthropic once empty text is removed.")};

    QJsonObject body{{"model"_L1, request.endpoint.modelId}, {"stream"_L1, true}, {"messages"_L1, messages}};
    if (!system.isEmpty())
        body.insert("system"_L1, system);

    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolDefinition &tool : request.tools) {
            QJsonObject t{{"name"_L1, tool.name}, {"input_schema"_L1, RequestSupport::objectSchema(tool.inputSchema)}};
            if (!tool.description.isEmpty())
                t.insert("description"_L1, tool.description);
            tools.append(t);
        }
        body.insert("tools"_L1, tools);
    }

    // The budget comes from the request, or from a thinking option in the
    // AI SDK's form; either way max_tokens must leave room for the answer.
    std::optional<int> budget = options.reasoningBudgetTokens;
    QJsonObject thinking = extra.value("thinking"_L1).toObject();
    if (!budget && thinking.value("type"_L1) == "enabled"_L1 && thinking.contains("budget_tokens"_L1))
        budget = thinking.value("budget_tokens"_L1).toInt();
    const int maxTokens = options.maxOutputTokens.value_or(ProviderTransform::maxOutputTokens(std::nullopt));
    if (budget) {
        if (*budget < MinimumThinkingBudget)
            return Error{tr("Anthropic needs a thinking budget of at least %1 tokens; %2 was asked for.")
                             .arg(MinimumThinkingBudget)
                             .arg(*budget)};
        extra.remove("thinking"_L1);
        body.insert("thinking"_L1, QJsonObject{{"type"_L1, "enabled"_L1}, {"budget_tokens"_L1, *budget}});
        body.insert("max_tokens"_L1, maxTokens + *budget);
        if (options.temperature || options.topP || options.topK)
            qCDebug(lcProviderRequest) << "dropping temperature, top_p and top_k: Anthropic rejects them with thinking";
    } else {
        body.insert("max_tokens"_L1, maxTokens);
        if (options.temperature)
            body.insert("temperature"_L1, *options.temperature);
        if (options.topP)
            body.insert("top_p"_L1, *options.topP);
        if (options.topK)
            body.insert("top_k"_L1, *options.topK);
    }

    RequestSupport::mergeOptions(body, extra, {u"model"_s, u"stream"_s, u"messages"_s});

    HttpRequestSpec spec;
    spec.url = RequestSupport::appendPath(request.endpoint.baseUrl, u"messages"_s);
    spec.headers = {{"content-type", "application/json"},
                    {"accept", "text/event-stream"},
                    {"anthropic-version", "2023-06-01"}};
    if (!request.endpoint.apiKey.isEmpty())
        spec.headers.append({"x-api-key", request.endpoint.apiKey.toUtf8()});
    spec.body = RequestSupport::jsonBody(body);
    return spec;
}

} // namespace qcode
