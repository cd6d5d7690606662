#pragma once

#include <QCoreApplication>
#include <QStringList>

#include <optional>

#include "engine/agent/Agent.h"
#include "engine/catalogue/ModelInfo.h"
#include "engine/config/ProviderInfo.h"
#include "engine/provider/ProviderRequest.h"
#include "engine/session/loop/ModelMessages.h"

namespace qcode {

// A model ready to call: its provider (endpoint, key) and what the
// catalogue and config say about it.
struct ResolvedModel {
    ProviderInfo provider;
    ModelInfo model;
    WireProtocol protocol = WireProtocol::OpenAIChat;

    ModelRef ref() const { return {provider.id, model.id}; }
    // The SDK package that prices usage: the model's own, else its provider's.
    QString npm() const { return model.npm.isEmpty() ? provider.npm : model.npm; }
    ModelTarget target() const;
};

// One call's content, before it is a request (OpenCode's LLM.stream input,
// reference §6).
struct ModelCallInput {
    ResolvedModel model;
    std::optional<Agent> agent;     // sampling, options and the base prompt
    QStringList system;             // the system prompt, already assembled
    QList<ModelMessage> messages;
    QList<ToolDefinition> tools;
    std::optional<QString> variant; // a key of the model's `variants`
};

// OpenCode's LLM layer (reference §6.3–§6.5): the sampling defaults, the
// output ceiling, options merged model → agent → variant, media the model
// cannot read replaced by a note, Gemini's schema rules. The endpoint's own
// transforms are RequestBuilder's.
class ModelRequest
{
    Q_DECLARE_TR_FUNCTIONS(ModelRequest)

public:
    static ProviderRequest build(const ModelCallInput &input);
    static ProviderEndpoint endpoint(const ResolvedModel &model);
};

} // namespace qcode
