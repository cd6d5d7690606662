#include "ProjectSummary.h"

#include "ProjectInstance.h"
#include "engine/catalogue/ModelCatalogue.h"
#include "engine/command/CommandRegistry.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

ModelSource sourceOf(const ProviderInfo &provider, const ModelInfo &model, const Config &config,
                     const ModelCatalogue &bundled)
{
    if (provider.local)
        return ModelSource::Local;
    const ProviderConfig *configured = config.provider(provider.id);
    if (configured && configured->models.contains(model.id) && !bundled.model(provider.id, model.id))
        return ModelSource::Config;
    return ModelSource::Catalogue;
}

} // namespace

QString modelSourceName(ModelSource source)
{
    switch (source) {
    case ModelSource::Catalogue: return u"catalogue"_s;
    case ModelSource::Config: return u"config"_s;
    case ModelSource::Local: return u"local"_s;
    }
    return u"catalogue"_s;
}

ProjectSummary ProjectSummary::describe(const ProjectInstance &project, const CommandRegistry &commands,
                                        const ModelCatalogue &bundled)
{
    ProjectSummary summary;
    summary.directory = project.directory();
    summary.projectID = project.project().id;
    summary.worktree = project.worktree();
    summary.problems = project.problems() + commands.problems();
    summary.configErrors = project.configErrors();

    const AgentRegistry &agents = project.agents();
    for (const Agent &agent : agents.list())
        summary.agents.append({agent.name, agent.description.value_or(QString()), agent.mode, agent.isHidden(), agent.model,
                               agent.color});
    if (const Result<QString> defaultAgent = agents.defaultAgent(); defaultAgent)
        summary.defaultAgent = *defaultAgent;

    for (const ProviderInfo &provider : project.providers().providers()) {
        for (const ModelInfo &model : provider.models) {
            summary.models.append({provider.id, model.id, provider.name.isEmpty() ? provider.id : provider.name,
                                   model.name.isEmpty() ? model.id : model.name, model.limits.context,
                                   model.limits.output, model.cost.base.input, model.cost.base.output,
                                   sourceOf(provider, model, project.config(), bundled)});
        }
    }
    if (const Result<ModelRef> model = project.defaultModel(); model)
        summary.defaultModel = *model;
    else if (summary.configErrors.isEmpty()) // a model in the broken file is the likelier cause
        summary.problems.append(model.errorMessage());

    for (const CommandDefinition &command : commands.list()) {
        const Agent *agent = agents.find(command.agent.value_or(summary.defaultAgent));
        const bool subtask = command.subtask.value_or(agent && agent->isSubagent());
        summary.commands.append({command.name, command.description.value_or(QString()), command.agent, subtask});
    }
    return summary;
}

} // namespace qcode
