#pragma once

#include <QCoreApplication>
#include <QList>

#include <optional>

#include "engine/session/project/ProjectSummary.h"
#include "ui/prompt/PromptChoices.h"

namespace qcode {

// The prompt box's pickers, filled from what the engine says the project
// has: agents people may pick (hidden ones never), models grouped by where
// they come from, and the project's own slash commands.
class ProjectChoices
{
    Q_DECLARE_TR_FUNCTIONS(ProjectChoices)

public:
    static QList<AgentChoice> agents(const ProjectSummary &project);
    static QList<ModelChoice> models(const ProjectSummary &project);
    static QList<SlashCommand> commands(const ProjectSummary &project);
    static std::optional<ModelChoice> defaultModel(const ProjectSummary &project);
    // The project's model `ref` names; one it cannot call now (no key yet,
    // a server that is down) is still named, so the person sees what a
    // prompt will use and why it fails.
    static ModelChoice model(const ProjectSummary &project, const ModelRef &ref);
    // Tokens the model can hold; 0 when it is unknown.
    static qint64 contextLimit(const ProjectSummary &project, const std::optional<ModelChoice> &model);
};

} // namespace qcode
