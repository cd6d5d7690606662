#include "ModelRequest.h"

#include "engine/request/ProviderTransform.h"
#include "engine/config/JsonMerge.h"

using namespace Qt::StringLiterals;

namespace qcode {

ModelTarget ResolvedModel::target() const
{
    return {provider.id, model.id, ModelTarget::mediaInToolResultsFor(protocol, model.apiId)};
}

ProviderEndpoint ModelRequest::endpoint(const ResolvedModel &model)
{
    ProviderEndpoint endpoint;
    endpoint.protocol = model.protocol;
    endpoint.providerId = model.provider.id;
    endpoint.modelId = model.model.apiId.isEmpty() ? model.model.id : model.model.apiId;
    endpoint.baseUrl = model.provider.baseUrl;
    endpoint.apiKey = model.provider.key.reveal();
    endpoint.headers = model.provider.headers;
    for (auto it = model.model.headers.begin(); it != model.model.headers.end(); ++it)
        endpoint.headers.append({it.key().toUtf8(), it.value().toString().toUtf8()});
    return endpoint;
}

ProviderRequest ModelRequest::build(const ModelCallInput &input)
{
    const ModelInfo &model = input.model.model;
    ProviderRequest request;
    request.endpoint = endpoint(input.model);
    request.system = input.system;
    request.messages = input.messages;
    request.tools = input.tools;
    if (request.endpoint.protocol == WireProtocol::Gemini) {
        for (ToolDefinition &tool : request.tools)
            tool.inputSchema = ProviderTransform::sanitizeGeminiSchema(tool.inputSchema);
    }

    // Sampling: the agent's choice, else OpenCode's per-family default,
    // and none at all for models that reject a temperature.
    const SamplingDefaults defaults = ProviderTransform::samplingDefaults(request.endpoint.modelId);
    if (model.capabilities.temperature) {
        request.options.temperature = input.agent && input.agent->temperature ? input.agent->temperature
                                                                               : defaults.temperature;
    }
    request.options.topP = input.agent && input.agent->topP ? input.agent->topP : defaults.topP;
    request.options.topK = defaults.topK;
    request.options.maxOutputTokens = ProviderTransform::maxOutputTokens(
        model.limits.output > 0 ? std::optional<int>(int(qMin<qint64>(model.limits.output, INT_MAX))) : std::nullopt);

    // Options: the model's, then the agent's, then the chosen variant's.
    QJsonObject options = model.options;
    if (input.agent)
        options = JsonMerge::deepMerge(options, input.agent->options);
    if (input.variant) {
        const QJsonValue variant = model.variants.value(*input.variant);
        if (variant.isObject())
            options = JsonMerge::deepMerge(options, variant.toObject());
    }
    request.options.providerOptions = options;

    ProviderTransform::replaceUnsupportedMedia(request,
                                               InputModalities{model.capabilities.imageInput,
                                                               false, false, model.capabilities.pdfInput});
    return request;
}

} // namespace qcode
