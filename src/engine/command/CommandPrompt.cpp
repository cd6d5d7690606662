#include "CommandPrompt.h"

#include <QDir>
#include <QFileInfo>

#include "CommandTemplate.h"
#include "engine/agent/AgentRegistry.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString agentNotFound(const QString &name, const AgentRegistry &agents)
{
    QStringList visible;
    for (const Agent &agent : agents.list()) {
        if (!agent.isHidden())
            visible.append(agent.name);
    }
    QString message = CommandPrompt::tr("Agent not found: \"%1\".").arg(name);
    if (!visible.isEmpty())
        message += u' ' + CommandPrompt::tr("Available agents: %1").arg(visible.join(u", "_s));
    return message;
}

// The parts an @reference adds: the file or folder it names, else the
// agent of that name, else nothing (an e-mail address, a decorator …).
std::optional<PromptPart> referencePart(const QString &name, const CommandDefaults &defaults)
{
    const QString path = name.startsWith(u"~/"_s) ? QDir(defaults.homeDirectory).filePath(name.mid(2))
                                                  : QDir(defaults.referenceRoot).absoluteFilePath(name);
    if (QFileInfo::exists(path)) {
        PromptPart part = PromptPart::droppedFile(path);
        std::get<FilePart>(part.body).filename = name;
        return part;
    }
    if (defaults.agents && defaults.agents->find(name))
        return PromptPart{std::nullopt, AgentPart{name, std::nullopt}};
    return std::nullopt;
}

} // namespace

QString CommandPrompt::notFound(const QString &name, const QStringList &available)
{
    QString message = tr("Command not found: \"%1\".").arg(name);
    if (!available.isEmpty())
        message += u' ' + tr("Available commands: %1").arg(available.join(u", "_s));
    return message;
}

Result<CommandPlan> CommandPrompt::plan(const CommandDefinition &command, const CommandInput &input,
                                        const CommandDefaults &defaults)
{
    Q_ASSERT(defaults.agents);
    const AgentRegistry &agents = *defaults.agents;
    CommandPlan plan;
    plan.agent = command.agent.value_or(input.agent.value_or(defaults.defaultAgent));
    const Agent *agent = agents.find(plan.agent);
    if (!agent)
        return Error(agentNotFound(plan.agent, agents));

    if (command.model) {
        plan.taskModel = *command.model;
    } else if (const Agent *own = command.agent ? agents.find(*command.agent) : nullptr; own && own->model) {
        plan.taskModel = *own->model;
    } else {
        plan.taskModel = input.model.value_or(defaults.currentModel);
    }
    if (defaults.checkModel) {
        if (const Result<void> usable = defaults.checkModel(plan.taskModel); !usable)
            return Error(usable.errorMessage());
    }

    plan.subtask = (agent->isSubagent() && command.subtask.value_or(true)) || command.subtask.value_or(false);
    plan.userAgent = plan.subtask ? input.agent.value_or(defaults.defaultAgent) : agent->name;
    plan.userModel = plan.subtask ? input.model.value_or(defaults.currentModel) : plan.taskModel;
    return plan;
}

PromptInput CommandPrompt::build(const CommandDefinition &command, const CommandInput &input, const CommandPlan &plan,
                                 const QString &text, const CommandDefaults &defaults)
{
    PromptInput prompt;
    prompt.sessionID = input.sessionID;
    prompt.agent = plan.userAgent;
    prompt.model = plan.userModel;
    if (plan.subtask) {
        prompt.parts = {PromptPart{std::nullopt, SubtaskPart{text, command.description.value_or(QString()), plan.agent,
                                                             plan.taskModel, input.command}}};
        return prompt;
    }
    prompt.parts = {PromptPart::text(text)};
    for (const QString &name : CommandTemplate::references(text)) {
        if (std::optional<PromptPart> part = referencePart(name, defaults))
            prompt.parts.append(*part);
    }
    prompt.parts += input.files;
    return prompt;
}

} // namespace qcode
