#include "RequestBuilder.h"

#include "AnthropicRequestBuilder.h"
#include "GeminiRequestBuilder.h"
#include "OpenAIChatRequestBuilder.h"
#include "OpenAIResponsesRequestBuilder.h"
#include "ProviderTransform.h"
#include "RequestLogging.h"
#include "RequestSupport.h"

#include <QSet>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString roleName(ModelRole role)
{
    switch (role) {
    case ModelRole::System:
        return RequestBuilder::tr("system");
    case ModelRole::User:
        return RequestBuilder::tr("user");
    case ModelRole::Assistant:
        return RequestBuilder::tr("assistant");
    case ModelRole::Tool:
        return RequestBuilder::tr("tool");
    }
    return QString();
}

bool allowedIn(ModelRole role, const ContentPart &part)
{
    switch (role) {
    case ModelRole::System:
        return std::holds_alternative<TextContent>(part);
    case ModelRole::User:
        return std::holds_alternative<TextContent>(part) || std::holds_alternative<FileContent>(part);
    case ModelRole::Assistant:
        return std::holds_alternative<TextContent>(part) || std::holds_alternative<ReasoningContent>(part)
            || std::holds_alternative<ToolCallContent>(part);
    case ModelRole::Tool:
        return std::holds_alternative<ToolResultContent>(part);
    }
    return false;
}

Result<void> validateEndpoint(const ProviderEndpoint &endpoint)
{
    if (endpoint.modelId.trimmed().isEmpty())
        return Error{RequestBuilder::tr("No model is selected for provider \"%1\". Choose a model and try again.")
                         .arg(endpoint.providerId)};
    const QString scheme = endpoint.baseUrl.scheme();
    if (!endpoint.baseUrl.isValid() || endpoint.baseUrl.host().isEmpty()
        || (scheme != "http"_L1 && scheme != "https"_L1))
        return Error{RequestBuilder::tr("The address \"%1\" of provider \"%2\" is not an http(s) URL. Fix its baseURL in the configuration.")
                         .arg(endpoint.baseUrl.toDisplayString(), endpoint.providerId)};
    switch (endpoint.protocol) {
    case WireProtocol::AnthropicMessages:
    case WireProtocol::OpenAIChat:
    case WireProtocol::OpenAIResponses:
    case WireProtocol::Gemini:
        return {};
    }
    return Error{RequestBuilder::tr("Provider \"%1\" uses a wire protocol qcode does not know (%2).")
                     .arg(endpoint.providerId)
                     .arg(static_cast<int>(endpoint.protocol))};
}

Result<void> validateTools(const QList<ToolDefinition> &tools)
{
    QSet<QString> names;
    for (const ToolDefinition &tool : tools) {
        if (tool.name.trimmed().isEmpty())
            return Error{RequestBuilder::tr("A tool without a name cannot be offered to the model.")};
        if (names.contains(tool.name))
            return Error{RequestBuilder::tr("The tool \"%1\" is offered twice; tool names must be unique.").arg(tool.name)};
        names.insert(tool.name);
    }
    return {};
}

// Every API pairs a call with its result: the results of one assistant
// turn's calls must arrive before the next assistant turn, each exactly once.
Result<void> validateConversation(const QList<ModelMessage> &messages)
{
    bool hasConversation = false;
    QSet<QString> pending;
    QString pendingExample;
    for (const ModelMessage &message : messages) {
        if (message.role != ModelRole::System)
            hasConversation = true;
        if (message.role == ModelRole::Assistant && !pending.isEmpty())
            return Error{RequestBuilder::tr("The tool call \"%1\" has no result before the next assistant turn; every tool call needs a result.")
                             .arg(pendingExample)};
        for (const ContentPart &part : message.content) {
            if (!allowedIn(message.role, part))
                return Error{RequestBuilder::tr("A %1 message holds content that only another role may send; the conversation cannot be sent as it is.")
                                 .arg(roleName(message.role))};
            if (const auto *call = std::get_if<ToolCallContent>(&part)) {
                if (call->toolCallId.isEmpty() || call->toolName.isEmpty())
                    return Error{RequestBuilder::tr("A tool call without an id or a tool name cannot be sent back to the model.")};
                pending.insert(call->toolCallId);
                pendingExample = call->toolName + u' ' + call->toolCallId;
            } else if (const auto *result = std::get_if<ToolResultContent>(&part)) {
                if (!pending.remove(result->toolCallId))
                    return Error{RequestBuilder::tr("The result of tool \"%1\" (call \"%2\") has no matching tool call in the assistant turn before it.")
                                     .arg(result->toolName, result->toolCallId)};
            }
        }
    }
    if (!pending.isEmpty())
        return Error{RequestBuilder::tr("The tool call \"%1\" has no result; every tool call needs a result before the conversation continues.")
                         .arg(pendingExample)};
    if (!hasConversation)
        return Error{RequestBuilder::tr("There is no message to send to the model.")};
    return {};
}

} // namespace

Result<void> RequestBuilder::validate(const ProviderRequest &request)
{
    if (Result<void> endpoint = validateEndpoint(request.endpoint); !endpoint)
        return endpoint;
    if (Result<void> tools = validateTools(request.tools); !tools)
        return tools;
    return validateConversation(request.messages);
}

Result<HttpRequestSpec> RequestBuilder::build(const ProviderRequest &request)
{
    if (Result<void> endpoint = validateEndpoint(request.endpoint); !endpoint)
        return endpoint.error();

    ProviderRequest prepared = request;
    ProviderTransform::applyMessageTransforms(prepared);
    if (Result<void> valid = validate(prepared); !valid)
        return valid.error();

    Result<HttpRequestSpec> spec = Error{};
    switch (prepared.endpoint.protocol) {
    case WireProtocol::AnthropicMessages:
        spec = AnthropicRequestBuilder::build(prepared);
        break;
    case WireProtocol::OpenAIChat:
        spec = OpenAIChatRequestBuilder::build(prepared);
        break;
    case WireProtocol::OpenAIResponses:
        spec = OpenAIResponsesRequestBuilder::build(prepared);
        break;
    case WireProtocol::Gemini:
        spec = GeminiRequestBuilder::build(prepared);
        break;
    }
    if (!spec)
        return spec;

    for (const auto &[name, value] : std::as_const(prepared.endpoint.headers))
        RequestSupport::setHeader(spec->headers, name, value);
    qCDebug(lcProviderRequest) << "built" << spec->url.toDisplayString(QUrl::RemoveQuery) << "with" << spec->body.size()
                               << "body bytes";
    return spec;
}

Result<HttpRequestSpec> buildHttpRequest(const ProviderRequest &request)
{
    return RequestBuilder::build(request);
}

} // namespace qcode
