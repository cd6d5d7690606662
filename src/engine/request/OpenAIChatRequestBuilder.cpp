#include "OpenAIChatRequestBuilder.h"

#include "RequestLogging.h"
#include "RequestSupport.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Fields a compatible server reads on a message or part, as the AI SDK's
// openaiCompatible options put them there (cache_control,
// reasoning_content).
QJsonObject compatibleFields(const QJsonObject &options)
{
    return options.value("openaiCompatible"_L1).toObject();
}

void addFields(QJsonObject &target, const QJsonObject &fields)
{
    for (auto it = fields.begin(); it != fields.end(); ++it)
        target.insert(it.key(), it.value());
}

Result<QJsonObject> filePart(const FileContent &file)
{
    const QString url = file.data.isEmpty() && !file.url.isEmpty() ? file.url.toString() : RequestSupport::dataUrl(file);
    if (file.mediaType.startsWith("image/"_L1)) {
        QJsonObject image{{"url"_L1, url}};
        const QJsonValue detail = file.providerOptions.value("openai"_L1).toObject().value("imageDetail"_L1);
        if (detail.isString())
            image.insert("detail"_L1, detail);
        return QJsonObject{{"type"_L1, "image_url"_L1}, {"image_url"_L1, image}};
    }
    if (file.mediaType == "application/pdf"_L1 && !file.data.isEmpty()) {
        const QString name = file.filename.isEmpty() ? u"document.pdf"_s : file.filename;
        return QJsonObject{{"type"_L1, "file"_L1}, {"file"_L1, QJsonObject{{"filename"_L1, name}, {"file_data"_L1, url}}}};
    }
    if ((file.mediaType == "audio/wav"_L1 || file.mediaType == "audio/mpeg"_L1 || file.mediaType == "audio/mp3"_L1)
        && !file.data.isEmpty()) {
        const QString format = file.mediaType == "audio/wav"_L1 ? u"wav"_s : u"mp3"_s;
        return QJsonObject{{"type"_L1, "input_audio"_L1},
                           {"input_audio"_L1, QJsonObject{{"data"_L1, QString::fromLatin1(file.data.toBase64())}, {"format"_L1, format}}}};
    }
    return Error{OpenAIChatRequestBuilder::tr("The Chat Completions API cannot take \"%1\" (%2); attach an image or a PDF.")
                     .arg(file.filename, file.mediaType)};
}

// A user or system message: a plain string when it is one unmarked text,
// otherwise parts, so a cache marker has a part to sit on.
Result<QJsonValue> userContent(const ModelMessage &message)
{
    if (message.content.size() == 1) {
        const auto *text = std::get_if<TextContent>(&message.content.first());
        if (text && compatibleFields(text->providerOptions).isEmpty())
            return QJsonValue(text->text);
    }
    QJsonArray parts;
    for (const ContentPart &part : message.content) {
        QJsonObject json;
        QJsonObject options;
        if (const auto *text = std::get_if<TextContent>(&part)) {
            json = QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, text->text}};
            options = text->providerOptions;
        } else {
            const auto &file = std::get<FileContent>(part);
            Result<QJsonObject> converted = filePart(file);
            if (!converted)
                return converted.error();
            json = *converted;
            options = file.providerOptions;
        }
        addFields(json, compatibleFields(options));
        parts.append(json);
    }
    return QJsonValue(parts);
}

QJsonObject assistantMessage(const ModelMessage &message)
{
    QStringList texts;
    QJsonArray textParts;
    bool markedText = false;
    QJsonArray toolCalls;
    for (const ContentPart &part : message.content) {
        if (const auto *text = std::get_if<TextContent>(&part)) {
            texts.append(text->text);
            QJsonObject json{{"type"_L1, "text"_L1}, {"text"_L1, text->text}};
            const QJsonObject fields = compatibleFields(text->providerOptions);
            markedText = markedText || !fields.isEmpty();
            addFields(json, fields);
            textParts.append(json);
        } else if (const auto *call = std::get_if<ToolCallContent>(&part)) {
            toolCalls.append(QJsonObject{
                {"id"_L1, call->toolCallId},
                {"type"_L1, "function"_L1},
                {"function"_L1, QJsonObject{{"name"_L1, call->toolName}, {"arguments"_L1, RequestSupport::argumentsText(call->input)}}}});
        } else if (std::holds_alternative<ReasoningContent>(part)) {
            // The API has no field for it; servers that want it back read
            // reasoning_content, which moveReasoningToField fills.
            qCDebug(lcProviderRequest) << "dropping a reasoning part the Chat Completions API cannot take";
        }
    }
    QJsonObject json{{"role"_L1, "assistant"_L1}};
    if (markedText)
        json.insert("content"_L1, textParts);
    else if (texts.isEmpty() && !toolCalls.isEmpty())
        json.insert("content"_L1, QJsonValue::Null);
    else
        json.insert("content"_L1, texts.join(QString()));
    if (!toolCalls.isEmpty())
        json.insert("tool_calls"_L1, toolCalls);
    addFields(json, compatibleFields(message.providerOptions));
    return json;
}

QJsonObject wireOptions(const QJsonObject &options)
{
    return RequestSupport::renameOptions(options, {{u"reasoningEffort"_s, u"reasoning_effort"_s},
                                                   {u"promptCacheKey"_s, u"prompt_cache_key"_s},
                                                   {u"parallelToolCalls"_s, u"parallel_tool_calls"_s},
                                                   {u"textVerbosity"_s, u"verbosity"_s},
                                                   {u"serviceTier"_s, u"service_tier"_s},
                                                   {u"safetyIdentifier"_s, u"safety_identifier"_s},
                                                   {u"maxCompletionTokens"_s, u"max_completion_tokens"_s}});
}

} // namespace

Result<HttpRequestSpec> OpenAIChatRequestBuilder::build(const ProviderRequest &request)
{
    const ProviderEndpoint &endpoint = request.endpoint;
    const RequestOptions &options = request.options;
    const bool openAI = RequestSupport::isOpenAIService(endpoint);
    const bool reasoningModel = openAI && RequestSupport::isOpenAIReasoningModel(endpoint.modelId);

    QJsonArray messages;
    QJsonArray pendingMedia; // images returned by the tools of the current run of tool messages
    const auto flushMedia = [&]() {
        if (pendingMedia.isEmpty())
            return;
        QJsonArray content{QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, "Attached image(s) from tool result:"_L1}}};
        for (const QJsonValue &part : std::as_const(pendingMedia))
            content.append(part);
        messages.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, content}});
        pendingMedia = QJsonArray();
    };

    for (const ModelMessage &message : request.messages) {
        if (message.role != ModelRole::Tool)
            flushMedia();
        switch (message.role) {
        case ModelRole::System:
        case ModelRole::User: {
            Result<QJsonValue> content = userContent(message);
            if (!content)
                return content.error();
            QString role = u"user"_s;
            if (message.role == ModelRole::System)
                role = reasoningModel ? u"developer"_s : u"system"_s;
            QJsonObject json{{"role"_L1, role}, {"content"_L1, *content}};
            addFields(json, compatibleFields(message.providerOptions));
            messages.append(json);
            break;
        }
        case ModelRole::Assistant:
            messages.append(assistantMessage(message));
            break;
        case ModelRole::Tool:
            for (const ContentPart &part : message.content) {
                const auto &result = std::get<ToolResultContent>(part);
                QJsonObject json{{"role"_L1, "tool"_L1}, {"tool_call_id"_L1, result.toolCallId}, {"content"_L1, result.text}};
                addFields(json, compatibleFields(result.providerOptions));
                messages.append(json);
                for (const FileContent &file : result.media) {
                    Result<QJsonObject> media = filePart(file);
                    if (!media)
                        return media.error();
                    pendingMedia.append(*media);
                }
            }
            break;
        }
    }
    flushMedia();

    QJsonObject body{{"model"_L1, endpoint.modelId},
                     {"messages"_L1, messages},
                     {"stream"_L1, true},
                     {"stream_options"_L1, QJsonObject{{"include_usage"_L1, true}}}};

    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolDefinition &tool : request.tools) {
            QJsonObject function{{"name"_L1, tool.name}, {"parameters"_L1, RequestSupport::objectSchema(tool.inputSchema)}};
            if (!tool.description.isEmpty())
                function.insert("description"_L1, tool.description);
            tools.append(QJsonObject{{"type"_L1, "function"_L1}, {"function"_L1, function}});
        }
        body.insert("tools"_L1, tools);
    }

    // OpenAI documents max_completion_tokens (reasoning models reject
    // max_tokens); compatible servers still read max_tokens.
    if (options.maxOutputTokens)
        body.insert(openAI ? "max_completion_tokens"_L1 : "max_tokens"_L1, *options.maxOutputTokens);
    if (reasoningModel && (options.temperature || options.topP)) {
        qCDebug(lcProviderRequest) << "dropping temperature and top_p: OpenAI reasoning models reject them";
    } else {
        if (options.temperature)
            body.insert("temperature"_L1, *options.temperature);
        if (options.topP)
            body.insert("top_p"_L1, *options.topP);
    }
    if (options.reasoningEffort) {
        // OpenRouter normalises reasoning across its upstreams in its own
        // object.
        if (endpoint.providerId == "openrouter"_L1)
            body.insert("reasoning"_L1, QJsonObject{{"effort"_L1, *options.reasoningEffort}});
        else
            body.insert("reasoning_effort"_L1, *options.reasoningEffort);
    }

    RequestSupport::mergeOptions(body, wireOptions(options.providerOptions), {u"model"_s, u"stream"_s, u"messages"_s});

    HttpRequestSpec spec;
    spec.url = RequestSupport::appendPath(endpoint.baseUrl, u"chat/completions"_s);
    spec.headers = {{"content-type", "application/json"}, {"accept", "text/event-stream"}};
    if (!endpoint.apiKey.isEmpty())
        spec.headers.append({"authorization", "Bearer " + endpoint.apiKey.toUtf8()});
    spec.body = RequestSupport::jsonBody(body);
    return spec;
}

} // namespace qcode
