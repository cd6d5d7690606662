#include "OpenAIResponsesRequestBuilder.h"

#include "RequestLogging.h"
#include "RequestSupport.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QString EncryptedReasoning = u"reasoning.encrypted_content"_s;

Result<QJsonObject> filePart(const FileContent &file)
{
    const bool byUrl = file.data.isEmpty() && !file.url.isEmpty();
    if (file.mediaType.startsWith("image/"_L1)) {
        QJsonObject image{{"type"_L1, "input_image"_L1},
                          {"image_url"_L1, byUrl ? file.url.toString() : RequestSupport::dataUrl(file)}};
        const QJsonValue detail = file.providerOptions.value("openai"_L1).toObject().value("imageDetail"_L1);
        if (detail.isString())
            image.insert("detail"_L1, detail);
        return image;
    }
    if (file.mediaType == "application/pdf"_L1) {
        if (byUrl)
            return QJsonObject{{"type"_L1, "input_file"_L1}, {"file_url"_L1, file.url.toString()}};
        return QJsonObject{{"type"_L1, "input_file"_L1},
                           {"filename"_L1, file.filename.isEmpty() ? u"document.pdf"_s : file.filename},
                           {"file_data"_L1, RequestSupport::dataUrl(file)}};
    }
    return Error{OpenAIResponsesRequestBuilder::tr("The Responses API cannot take \"%1\" (%2); attach an image or a PDF.")
                     .arg(file.filename, file.mediaType)};
}

Result<QJsonArray> userContent(const ModelMessage &message)
{
    QJsonArray parts;
    for (const ContentPart &part : message.content) {
        if (const auto *text = std::get_if<TextContent>(&part)) {
            parts.append(QJsonObject{{"type"_L1, "input_text"_L1}, {"text"_L1, text->text}});
        } else {
            Result<QJsonObject> file = filePart(std::get<FileContent>(part));
            if (!file)
                return file.error();
            parts.append(*file);
        }
    }
    return parts;
}

Result<QJsonValue> toolOutput(const ToolResultContent &result)
{
    if (result.media.isEmpty())
        return QJsonValue(result.text);
    QJsonArray parts;
    if (!result.text.isEmpty())
        parts.append(QJsonObject{{"type"_L1, "input_text"_L1}, {"text"_L1, result.text}});
    for (const FileContent &file : result.media) {
        Result<QJsonObject> part = filePart(file);
        if (!part)
            return part.error();
        parts.append(*part);
    }
    return QJsonValue(parts);
}

// The items of one assistant message. Reasoning parts of one reasoning item
// (several summary parts share an item id) become one item again.
void appendAssistantItems(QJsonArray &input, const ModelMessage &message)
{
    QHash<QString, qsizetype> reasoningItems;
    for (const ContentPart &part : message.content) {
        if (const auto *text = std::get_if<TextContent>(&part)) {
            input.append(QJsonObject{
                {"role"_L1, "assistant"_L1},
                {"content"_L1, QJsonArray{QJsonObject{{"type"_L1, "output_text"_L1}, {"text"_L1, text->text}}}}});
        } else if (const auto *call = std::get_if<ToolCallContent>(&part)) {
            input.append(QJsonObject{{"type"_L1, "function_call"_L1},
                                     {"call_id"_L1, call->toolCallId},
                                     {"name"_L1, call->toolName},
                                     {"arguments"_L1, RequestSupport::argumentsText(call->input)}});
        } else if (const auto *reasoning = std::get_if<ReasoningContent>(&part)) {
            const QJsonObject openai = reasoning->providerMetadata.value("openai"_L1).toObject();
            const QString itemId = openai.value("itemId"_L1).toString();
            const QString encrypted = openai.value("reasoningEncryptedContent"_L1).toString();
            const auto existing = reasoningItems.constFind(itemId);
            if (existing == reasoningItems.constEnd() && (itemId.isEmpty() || encrypted.isEmpty())) {
                // Without store, an item the server never kept can only
                // come back whole; reasoning of another model cannot at all.
                qCDebug(lcProviderRequest) << "dropping reasoning without encrypted content";
                continue;
            }
            const QJsonObject summary{{"type"_L1, "summary_text"_L1}, {"text"_L1, reasoning->text}};
            if (existing != reasoningItems.constEnd()) {
                QJsonObject item = input.at(*existing).toObject();
                QJsonArray summaries = item.value("summary"_L1).toArray();
                if (!reasoning->text.isEmpty())
                    summaries.append(summary);
                item.insert("summary"_L1, summaries);
                input.replace(*existing, item);
                continue;
            }
            QJsonArray summaries;
            if (!reasoning->text.isEmpty())
                summaries.append(summary);
            reasoningItems.insert(itemId, input.size());
            input.append(QJsonObject{{"type"_L1, "reasoning"_L1},
                                     {"id"_L1, itemId},
                                     {"encrypted_content"_L1, encrypted},
                                     {"summary"_L1, summaries}});
        }
    }
}

QJsonObject wireOptions(const QJsonObject &options)
{
    return RequestSupport::renameOptions(options, {{u"reasoningEffort"_s, u"reasoning.effort"_s},
                                                   {u"reasoningSummary"_s, u"reasoning.summary"_s},
                                                   {u"textVerbosity"_s, u"text.verbosity"_s},
                                                   {u"promptCacheKey"_s, u"prompt_cache_key"_s},
                                                   {u"parallelToolCalls"_s, u"parallel_tool_calls"_s},
                                                   {u"previousResponseId"_s, u"previous_response_id"_s},
                                                   {u"serviceTier"_s, u"service_tier"_s},
                                                   {u"safetyIdentifier"_s, u"safety_identifier"_s},
                                                   {u"maxToolCalls"_s, u"max_tool_calls"_s}});
}

} // namespace

Result<HttpRequestSpec> OpenAIResponsesRequestBuilder::build(const ProviderRequest &request)
{
    const ProviderEndpoint &endpoint = request.endpoint;
    const RequestOptions &options = request.options;
    const bool reasoningModel = RequestSupport::isOpenAIReasoningModel(endpoint.modelId);
    const bool developer = reasoningModel && RequestSupport::isOpenAIService(endpoint);

    QJsonArray input;
    for (const ModelMessage &message : request.messages) {
        switch (message.role) {
        case ModelRole::System:
            input.append(QJsonObject{{"role"_L1, developer ? "developer"_L1 : "system"_L1},
                                     {"content"_L1, RequestSupport::joinedText(message, u"\n"_s)}});
            break;
        case ModelRole::User: {
            Result<QJsonArray> content = userContent(message);
            if (!content)
                return content.error();
            input.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, *content}});
            break;
        }
        case ModelRole::Assistant:
            appendAssistantItems(input, message);
            break;
        case ModelRole::Tool:
            for (const ContentPart &part : message.content) {
                const auto &result = std::get<ToolResultContent>(part);
                Result<QJsonValue> output = toolOutput(result);
                if (!output)
                    return output.error();
                input.append(QJsonObject{{"type"_L1, "function_call_output"_L1},
                                         {"call_id"_L1, result.toolCallId},
                                         {"output"_L1, *output}});
            }
            break;
        }
    }

    QJsonObject body{{"model"_L1, endpoint.modelId}, {"input"_L1, input}, {"stream"_L1, true}, {"store"_L1, false}};

    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolDefinition &tool : request.tools) {
            QJsonObject t{{"type"_L1, "function"_L1},
                          {"name"_L1, tool.name},
                          {"parameters"_L1, RequestSupport::objectSchema(tool.inputSchema)},
                          {"strict"_L1, false}};
            if (!tool.description.isEmpty())
                t.insert("description"_L1, tool.description);
            tools.append(t);
        }
        body.insert("tools"_L1, tools);
    }

    if (options.maxOutputTokens)
        body.insert("max_output_tokens"_L1, *options.maxOutputTokens);
    if (reasoningModel && (options.temperature || options.topP)) {
        qCDebug(lcProviderRequest) << "dropping temperature and top_p: OpenAI reasoning models reject them";
    } else {
        if (options.temperature)
            body.insert("temperature"_L1, *options.temperature);
        if (options.topP)
            body.insert("top_p"_L1, *options.topP);
    }

    QJsonObject extra = wireOptions(options.providerOptions);
    // Reasoning is asked for with an effort or implied by the model; its
    // encrypted content is what lets the next, stateless request continue
    // the same chain of thought.
    if (options.reasoningEffort || reasoningModel || extra.contains("reasoning"_L1)) {
        QJsonObject reasoning{{"summary"_L1, "auto"_L1}};
        if (options.reasoningEffort)
            reasoning.insert("effort"_L1, *options.reasoningEffort);
        body.insert("reasoning"_L1, reasoning);
        QJsonArray include = extra.take("include"_L1).toArray();
        if (!include.contains(QJsonValue(EncryptedReasoning)))
            include.append(EncryptedReasoning);
        body.insert("include"_L1, include);
    }
    RequestSupport::mergeOptions(body, extra, {u"model"_s, u"stream"_s, u"input"_s});

    HttpRequestSpec spec;
    spec.url = RequestSupport::appendPath(endpoint.baseUrl, u"responses"_s);
    spec.headers = {{"content-type", "application/json"}, {"accept", "text/event-stream"}};
    if (!endpoint.apiKey.isEmpty())
        spec.headers.append({"authorization", "Bearer " + endpoint.apiKey.toUtf8()});
    spec.body = RequestSupport::jsonBody(body);
    return spec;
}

} // namespace qcode
