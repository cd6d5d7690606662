#include "ProjectChoices.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QString groupOf(ModelSource source)
{
    switch (source) {
    case ModelSource::Catalogue:
        return ProjectChoices::tr("Catalogue");
    case ModelSource::Config:
        return ProjectChoices::tr("Configured");
    case ModelSource::Local:
        return ProjectChoices::tr("Local servers");
    }
    return {};
}

ModelChoice choiceOf(const ModelSummary &model)
{
    const QString name = model.modelName.isEmpty() ? model.modelID : model.modelName;
    const QString provider = model.providerName.isEmpty() ? model.providerID : model.providerName;
    return ModelChoice{model.providerID, model.modelID, u"%1 · %2"_s.arg(provider, name), groupOf(model.source)};
}

} // namespace

QList<AgentChoice> ProjectChoices::agents(const ProjectSummary &project)
{
    QList<AgentChoice> choices;
    for (const AgentSummary &agent : project.agents) {
        if (!agent.hidden)
            choices.append(AgentChoice{agent.name, agent.description, agent.mode != AgentMode::Subagent});
    }
    return choices;
}

QList<ModelChoice> ProjectChoices::models(const ProjectSummary &project)
{
    QList<ModelChoice> choices;
    choices.reserve(project.models.size());
    for (const ModelSummary &model : project.models)
        choices.append(choiceOf(model));
    return choices;
}

QList<SlashCommand> ProjectChoices::commands(const ProjectSummary &project)
{
    QList<SlashCommand> choices;
    for (const CommandSummary &command : project.commands)
        choices.append(SlashCommand{command.name, command.description, false});
    return choices;
}

std::optional<ModelChoice> ProjectChoices::defaultModel(const ProjectSummary &project)
{
    if (!project.defaultModel)
        return std::nullopt;
    return model(project, *project.defaultModel);
}

ModelChoice ProjectChoices::model(const ProjectSummary &project, const ModelRef &ref)
{
    for (const ModelSummary &model : project.models) {
        if (model.providerID == ref.providerID && model.modelID == ref.modelID)
            return choiceOf(model);
    }
    return ModelChoice{ref.providerID, ref.modelID, u"%1 · %2"_s.arg(ref.providerID, ref.modelID), {}};
}

qint64 ProjectChoices::contextLimit(const ProjectSummary &project, const std::optional<ModelChoice> &model)
{
    const std::optional<ModelChoice> chosen = model ? model : defaultModel(project);
    if (!chosen)
        return 0;
    for (const ModelSummary &summary : project.models) {
        if (summary.providerID == chosen->providerID && summary.modelID == chosen->modelID)
            return summary.contextLimit;
    }
    return 0;
}

} // namespace qcode
