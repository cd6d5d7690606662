#include "TaskTool.h"

#include <QJsonArray>

#include "ToolArguments.h"
#include "ToolPermission.h"
#include "engine/agent/AgentRegistry.h"
#include "engine/agent/PermissionRules.h"
#include "engine/session/ChildRunner.h"

using namespace Qt::StringLiterals;

namespace qcode {

TaskTool::TaskTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString TaskTool::name() const
{
    return u"task"_s;
}

QString TaskTool::description() const
{
    return descriptionFor(QString());
}

QString TaskTool::descriptionFor(const QString &agent) const
{
    // Instructions for the model, in qcode's words; not translated.
    return u"Starts a subagent that works on its own on a complex, multi-step task and reports back once.\n\n"
           "Available agent types:\n"_s
           + subagentList(agent)
           + u"\n\nWhen to use it:\n"
             "- A search or an investigation that will take many steps (several rounds of glob, grep and read).\n"
             "- Independent pieces of work that a specialised agent listed above does well.\n\n"
             "How to use it:\n"
             "- Set subagent_type to one of the agent types above, and give a short (3-5 words) description.\n"
             "- The subagent starts with none of this conversation: the prompt must say everything it needs, and "
             "exactly what it should report back.\n"
             "- Its report is not shown to the user: summarise what matters in your own answer.\n"
             "- To continue an earlier task with its context, pass the task_id it returned.\n"
             "- Several independent tasks may be started in one message.\n"
             "- Do not use it to read one known file or to find one known symbol: use read, glob or grep."_s;
}

QString TaskTool::subagentList(const QString &agent) const
{
    if (!m_services.agents)
        return {};
    const Agent *caller = agent.isEmpty() ? nullptr : m_services.agents->find(agent);
    QStringList lines;
    for (const Agent &candidate : m_services.agents->list()) {
        if (candidate.mode == AgentMode::Primary)
            continue;
        if (caller
            && PermissionRules::evaluate(u"task"_s, candidate.name, caller->permission).action == PermissionAction::Deny)
            continue;
        lines.append(u"- %1: %2"_s.arg(candidate.name,
                                        candidate.description.value_or(
                                            u"This subagent should only be called manually by the user."_s)));
    }
    return lines.join(u'\n');
}

QJsonObject TaskTool::parameters() const
{
    return QJsonObject{
        {u"type"_s, u"object"_s},
        {u"properties"_s,
         QJsonObject{
             {u"description"_s, ToolArguments::stringProperty(u"A short (3-5 words) description of the task"_s)},
             {u"prompt"_s, ToolArguments::stringProperty(u"The task for the agent to perform"_s)},
             {u"subagent_type"_s, ToolArguments::stringProperty(u"The type of specialized agent to use for this task"_s)},
             {u"task_id"_s, ToolArguments::stringProperty(u"Set this only to resume a previous task: the task_id it returned "
                                           "continues the same subagent session instead of starting a fresh one"_s)},
             {u"command"_s, ToolArguments::stringProperty(u"The command that triggered this task"_s)},
         }},
        {u"required"_s, QJsonArray{u"description"_s, u"prompt"_s, u"subagent_type"_s}},
    };
}

QCoro::Task<ToolResult> TaskTool::execute(QJsonObject arguments, ToolContext context)
{
    const QString description = arguments.value(u"description"_s).toString();
    const QString prompt = arguments.value(u"prompt"_s).toString();
    const QString subagent = arguments.value(u"subagent_type"_s).toString();
    const QString taskID = arguments.value(u"task_id"_s).toString();

    // An unknown agent is answered before anyone is asked about it.
    const Agent *agent = m_services.agents ? m_services.agents->find(subagent) : nullptr;
    if (!agent)
        co_return ToolFailure{u"Unknown agent type: %1 is not a valid agent type"_s.arg(subagent)};
    if (!m_services.runChild)
        co_return ToolFailure{QStringLiteral("Subagents cannot run here: there is no engine to run them.")};

    if (!context.bypassAgentCheck) {
        PermissionRequest ask;
        ask.permission = u"task"_s;
        ask.patterns = QStringList{subagent};
        ask.always = QStringList{u"*"_s};
        ask.metadata = QJsonObject{{u"description"_s, description}, {u"subagent_type"_s, subagent}};
        QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
        if (std::optional<ToolFailure> refused = co_await asking)
            co_return *refused;
    }
    if (context.abort.isNull() || context.abort->isAborted())
        co_return ToolFailure{QStringLiteral("The task was stopped before the subagent started.")};

    const ModelRef model = agent->model.value_or(context.model);
    ChildRequest request;
    request.parentSessionID = context.sessionID;
    request.agent = subagent;
    request.prompt = prompt;
    request.description = description;
    request.model = model;
    if (!taskID.isEmpty())
        request.taskID = taskID;
    request.abort = context.abort;
    const auto progress = context.progress;
    request.started = [progress, description, model](const QString &childID) {
        if (progress)
            progress(description, ChildRunner::metadata(childID, model));
    };
    QCoro::Task<Result<ChildResult>> running = m_services.runChild(request);
    const Result<ChildResult> child = co_await running;
    if (!child)
        co_return ToolFailure{child.errorMessage()};

    ToolOutput output;
    output.title = description;
    output.metadata = ChildRunner::metadata(child->sessionID, model);
    output.output = ChildRunner::output(*child);
    co_return output;
}

} // namespace qcode
