#include "GeminiRequestBuilder.h"

#include "ProviderTransform.h"
#include "RequestLogging.h"
#include "RequestSupport.h"

#include <QJsonArray>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QJsonValue openApiValue(const QJsonValue &value);

QJsonObject openApiSchema(const QJsonObject &schema)
{
    QJsonObject out;
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        const QString key = it.key();
        if (key == "$schema"_L1 || key == "additionalProperties"_L1)
            continue;
        if (key == "const"_L1) {
            out.insert("enum"_L1, QJsonArray{it.value()});
            continue;
        }
        if (key == "type"_L1 && it.value().isArray()) {
            QJsonArray types = it.value().toArray();
            const bool nullable = types.contains(QJsonValue(u"null"_s));
            QJsonArray rest;
            for (const QJsonValue &t : std::as_const(types)) {
                if (t.toString() != "null"_L1)
                    rest.append(t);
            }
            if (nullable)
                out.insert("nullable"_L1, true);
            if (rest.size() == 1)
                out.insert("type"_L1, rest.first());
            else if (!rest.isEmpty())
                out.insert("anyOf"_L1, [&rest] {
                    QJsonArray anyOf;
                    for (const QJsonValue &t : rest)
                        anyOf.append(QJsonObject{{"type"_L1, t}});
                    return anyOf;
                }());
            continue;
        }
        // Property names are user data, not schema keywords.
        if (key == "properties"_L1 && it.value().isObject()) {
            QJsonObject properties;
            const QJsonObject source = it.value().toObject();
            for (auto p = source.begin(); p != source.end(); ++p)
                properties.insert(p.key(), openApiValue(p.value()));
            out.insert(key, properties);
            continue;
        }
        out.insert(key, openApiValue(it.value()));
    }
    return out;
}

QJsonValue openApiValue(const QJsonValue &value)
{
    if (value.isObject())
        return openApiSchema(value.toObject());
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(openApiValue(item));
        return out;
    }
    return value;
}

QJsonObject filePart(const FileContent &file)
{
    if (file.data.isEmpty() && !file.url.isEmpty())
        return QJsonObject{{"fileData"_L1, QJsonObject{{"mimeType"_L1, file.mediaType}, {"fileUri"_L1, file.url.toString()}}}};
    return QJsonObject{{"inlineData"_L1, QJsonObject{{"mimeType"_L1, file.mediaType},
                                                     {"data"_L1, QString::fromLatin1(file.data.toBase64())}}}};
}

QString signatureOf(const QJsonObject &metadata)
{
    return metadata.value("google"_L1).toObject().value("thoughtSignature"_L1).toString();
}

void appendSigned(QJsonArray &parts, QJsonObject part, const QString &signature)
{
    if (!signature.isEmpty())
        part.insert("thoughtSignature"_L1, signature);
    parts.append(part);
}

QJsonArray partsOf(const ModelMessage &message)
{
    QJsonArray parts;
    for (const ContentPart &part : message.content) {
        if (const auto *text = std::get_if<TextContent>(&part)) {
            const QString signature = signatureOf(text->providerOptions);
            // Gemini rejects empty text, except the empty part that only
            // carries a signature.
            if (!text->text.isEmpty() || !signature.isEmpty())
                appendSigned(parts, QJsonObject{{"text"_L1, text->text}}, signature);
        } else if (const auto *file = std::get_if<FileContent>(&part)) {
            parts.append(filePart(*file));
        } else if (const auto *reasoning = std::get_if<ReasoningContent>(&part)) {
            const QString signature = signatureOf(reasoning->providerMetadata);
            if (!reasoning->text.isEmpty() || !signature.isEmpty())
                appendSigned(parts, QJsonObject{{"text"_L1, reasoning->text}, {"thought"_L1, true}}, signature);
        } else if (const auto *call = std::get_if<ToolCallContent>(&part)) {
            appendSigned(parts, QJsonObject{{"functionCall"_L1, QJsonObject{{"name"_L1, call->toolName}, {"args"_L1, call->input}}}},
                         signatureOf(call->providerMetadata));
        } else {
            const auto &result = std::get<ToolResultContent>(part);
            parts.append(QJsonObject{
                {"functionResponse"_L1,
                 QJsonObject{{"name"_L1, result.toolName},
                             {"response"_L1, QJsonObject{{"name"_L1, result.toolName}, {"content"_L1, result.text}}}}}});
            for (const FileContent &media : result.media)
                parts.append(filePart(media));
        }
    }
    return parts;
}

QJsonObject wireOptions(const QJsonObject &options)
{
    return RequestSupport::renameOptions(options, {{u"thinkingConfig"_s, u"generationConfig.thinkingConfig"_s},
                                                   {u"responseModalities"_s, u"generationConfig.responseModalities"_s},
                                                   {u"mediaResolution"_s, u"generationConfig.mediaResolution"_s},
                                                   {u"stopSequences"_s, u"generationConfig.stopSequences"_s},
                                                   {u"seed"_s, u"generationConfig.seed"_s}});
}

} // namespace

QJsonObject GeminiRequestBuilder::parametersSchema(const QJsonObject &schema)
{
    if (schema.isEmpty() || (schema.value("type"_L1) == "object"_L1 && schema.value("properties"_L1).toObject().isEmpty()))
        return QJsonObject();
    return ProviderTransform::sanitizeGeminiSchema(openApiSchema(schema));
}

Result<HttpRequestSpec> GeminiRequestBuilder::build(const ProviderRequest &request)
{
    const ProviderEndpoint &endpoint = request.endpoint;
    const RequestOptions &options = request.options;

    QJsonArray system;
    QJsonArray contents;
    QString role;
    QJsonArray turn;
    const auto flush = [&]() {
        if (!turn.isEmpty())
            contents.append(QJsonObject{{"role"_L1, role}, {"parts"_L1, turn}});
        turn = QJsonArray();
    };
    for (const ModelMessage &message : request.messages) {
        const QJsonArray parts = partsOf(message);
        if (message.role == ModelRole::System) {
            if (!contents.isEmpty() || !turn.isEmpty())
                return Error{tr("Gemini takes system instructions only before the conversation; a system message arrived after it.")};
            for (const QJsonValue &part : parts)
                system.append(part);
            continue;
        }
        const QString messageRole = message.role == ModelRole::Assistant ? u"model"_s : u"user"_s;
        if (messageRole != role)
            flush();
        role = messageRole;
        for (const QJsonValue &part : parts)
            turn.append(part);
    }
    flush();
    if (contents.isEmpty())
        return Error{tr("There is no message left to send to Gemini once empty text is removed.")};

    QJsonObject body{{"contents"_L1, contents}};
    if (!system.isEmpty())
        body.insert("systemInstruction"_L1, QJsonObject{{"parts"_L1, system}});

    if (!request.tools.isEmpty()) {
        QJsonArray declarations;
        for (const ToolDefinition &tool : request.tools) {
            QJsonObject declaration{{"name"_L1, tool.name}};
            if (!tool.description.isEmpty())
                declaration.insert("description"_L1, tool.description);
            const QJsonObject parameters = parametersSchema(tool.inputSchema);
            if (!parameters.isEmpty())
                declaration.insert("parameters"_L1, parameters);
            declarations.append(declaration);
        }
        body.insert("tools"_L1, QJsonArray{QJsonObject{{"functionDeclarations"_L1, declarations}}});
    }

    QJsonObject generation;
    if (options.maxOutputTokens)
        generation.insert("maxOutputTokens"_L1, *options.maxOutputTokens);
    if (options.temperature)
        generation.insert("temperature"_L1, *options.temperature);
    if (options.topP)
        generation.insert("topP"_L1, *options.topP);
    if (options.topK)
        generation.insert("topK"_L1, *options.topK);
    // Gemini 2.5 takes a budget, Gemini 3 a level; includeThoughts makes
    // the thoughts (and their signatures) come back at all.
    if (options.reasoningBudgetTokens)
        generation.insert("thinkingConfig"_L1, QJsonObject{{"includeThoughts"_L1, true}, {"thinkingBudget"_L1, *options.reasoningBudgetTokens}});
    else if (options.reasoningEffort)
        generation.insert("thinkingConfig"_L1, QJsonObject{{"includeThoughts"_L1, true}, {"thinkingLevel"_L1, *options.reasoningEffort}});
    if (!generation.isEmpty())
        body.insert("generationConfig"_L1, generation);

    RequestSupport::mergeOptions(body, wireOptions(options.providerOptions), {u"contents"_s});

    // A bare model name lives under models/; a full resource name
    // (tunedModels/…) is used as given.
    const QString modelPath = endpoint.modelId.contains(u'/') ? endpoint.modelId : u"models/"_s + endpoint.modelId;
    HttpRequestSpec spec;
    spec.url = RequestSupport::appendPath(endpoint.baseUrl, modelPath + u":streamGenerateContent"_s);
    QUrlQuery query(spec.url);
    query.addQueryItem(u"alt"_s, u"sse"_s);
    spec.url.setQuery(query);
    spec.headers = {{"content-type", "application/json"}, {"accept", "text/event-stream"}};
    if (!endpoint.apiKey.isEmpty())
        spec.headers.append({"x-goog-api-key", endpoint.apiKey.toUtf8()});
    spec.body = RequestSupport::jsonBody(body);
    return spec;
}

} // namespace qcode
