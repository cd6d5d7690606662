#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

#include "engine/agent/Agent.h"
#include "engine/config/ConfigError.h"
#include "model/Message.h"

namespace qcode {

class CommandRegistry;
class ModelCatalogue;
class ProjectInstance;

// An agent as a picker shows it.
struct AgentSummary {
    QString name;
    QString description;
    AgentMode mode = AgentMode::All;
    bool hidden = false;          // compaction, title, summary: never offered
    std::optional<ModelRef> model; // the agent's own model, when it names one
    std::optional<QString> color;  // "#RRGGBB" or a theme colour name ("accent"), when it sets one
};

// Where a model the project can use is defined.
enum class ModelSource {
    Catalogue, // the bundled models.dev catalogue (the config may change its settings)
    Config,    // only in the config's `provider.<id>.models`
    Local,     // a model server on this machine
};

// A model the project can call now: its provider has a key (config,
// keychain or environment), is defined in the config, or is a local server.
struct ModelSummary {
    QString providerID;
    QString modelID;
    QString providerName;
    QString modelName;
    qint64 contextLimit = 0; // tokens; 0: unknown
    qint64 outputLimit = 0;
    double costInput = 0;    // USD per million tokens
    double costOutput = 0;
    ModelSource source = ModelSource::Catalogue;

    bool isLocal() const { return source == ModelSource::Local; } // served on this machine
};

// A slash command as the prompt's completion list shows it.
struct CommandSummary {
    QString name;
    QString description;
    std::optional<QString> agent;
    bool subtask = false; // runs as a subagent's task (its own or its agent's setting)
};

// What the window shows of a project folder before anything is sent: who
// can answer (agents), with what (models), the slash commands, and what is
// wrong in its configuration.
struct ProjectSummary {
    QString directory;
    QString projectID;
    QString worktree; // empty outside git
    QList<AgentSummary> agents; // the default one first
    QString defaultAgent;       // empty when the config's default_agent is unusable (see problems)
    QList<ModelSummary> models; // by provider, in the provider list's order
    std::optional<ModelRef> defaultModel;
    QList<CommandSummary> commands; // sorted by name
    QStringList problems;           // notes on config, agents, providers and commands, one sentence each
    // Files the project must not run without; while any is here, the
    // engine refuses its prompts (ProjectInstance::configErrors).
    ConfigErrors configErrors;

    // `bundled` tells catalogue models from those only the config defines.
    static ProjectSummary describe(const ProjectInstance &project, const CommandRegistry &commands,
                                   const ModelCatalogue &bundled);
};

QString modelSourceName(ModelSource source); // "catalogue", "config", "local"

} // namespace qcode

Q_DECLARE_METATYPE(qcode::ProjectSummary)
