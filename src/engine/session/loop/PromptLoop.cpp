#include "PromptLoop.h"

#include <algorithm>

#include "engine/session/compaction/CompactionRules.h"
#include "ModelMessages.h"
#include "ModelRequest.h"
#include "engine/session/project/ProjectInstance.h"
#include "engine/session/compaction/SessionCompaction.h"
#include "engine/session/SessionLogging.h"
#include "SessionProcessor.h"
#include "engine/session/ChildRunner.h"
#include "engine/agent/PermissionRules.h"
#include "engine/agent/PromptLibrary.h"
#include "engine/agent/Reminders.h"
#include "engine/agent/SystemPrompt.h"
#include "engine/glob/Wildcard.h"
#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// The tools of one step: the project's tools, told where the project is,
// which rules to ask with and whether the person named the subagent.
class StepToolRunner : public ToolRunner
{
public:
    StepToolRunner(std::shared_ptr<ToolRunner> tools, const ProjectInstance &project, PermissionAsker *permissions,
                   bool bypassAgentCheck)
        : m_tools(std::move(tools))
        , m_directory(project.directory())
        , m_worktree(project.worktree())
        , m_permissions(permissions)
        , m_bypassAgentCheck(bypassAgentCheck)
    {
    }

    QCoro::Task<ToolResult> run(ToolCall call, ToolContext context) override
    {
        context.directory = m_directory;
        context.worktree = m_worktree;
        context.permissions = m_permissions;
        context.bypassAgentCheck = m_bypassAgentCheck;
        // Held for the call: the step may end (abort) while the tool winds down.
        std::shared_ptr<ToolRunner> tools = m_tools;
        QCoro::Task<ToolResult> running = tools->run(std::move(call), std::move(context));
        ToolResult result = co_await running;
        co_return result;
    }
    QList<ToolDefinition> definitions(const ToolScope &scope) const override { return m_tools->definitions(scope); }

private:
    std::shared_ptr<ToolRunner> m_tools;
    QString m_directory;
    QString m_worktree;
    PermissionAsker *m_permissions;
    bool m_bypassAgentCheck;
};

// The compaction summary is written without tools.
class NoTools : public ToolRunner
{
public:
    QCoro::Task<ToolResult> run(ToolCall call, ToolContext) override
    {
        co_return ToolFailure{u"No tool is available while the conversation is summarised (%1 was called)."_s.arg(call.tool)};
    }
    QList<ToolDefinition> definitions(const ToolScope &) const override { return {}; }
};

// OpenCode's PermissionNext.disabled: a tool whose permission's last
// matching rule denies every pattern is not offered at all. The file tools
// share the `edit` permission.
QStringList disabledTools(const QList<ToolDefinition> &tools, const PermissionRuleset &rules)
{
    static const QStringList editTools{u"edit"_s, u"write"_s, u"apply_patch"_s, u"multiedit"_s, u"patch"_s};
    QStringList disabled;
    for (const ToolDefinition &tool : tools) {
        const QString permission = editTools.contains(tool.name) ? u"edit"_s : tool.name;
        for (qsizetype i = rules.size() - 1; i >= 0; --i) {
            const PermissionRule &rule = rules.at(i);
            if (!Wildcard::match(permission, rule.permission))
                continue;
            if (rule.pattern == u"*"_s && rule.action == PermissionAction::Deny)
                disabled.append(tool.name);
            break;
        }
    }
    return disabled;
}

bool finishedAnswer(const AssistantMessage &assistant)
{
    return assistant.finish && *assistant.finish != u"tool-calls"_s && *assistant.finish != u"unknown"_s;
}

PermissionRuleset sessionRules(const std::optional<QJsonArray> &permission)
{
    return permission ? rulesetFromJson(*permission) : PermissionRuleset();
}

} // namespace

// What one look at the history found (reference §2.3 step 3).
struct PromptLoop::Scan {
    const UserMessage *lastUser = nullptr;
    const AssistantMessage *lastAssistant = nullptr;
    const AssistantMessage *lastFinished = nullptr;
    // compaction and subtask parts newer than lastFinished, newest first
    QList<Part> tasks;

    bool compactionPending() const
    {
        return std::any_of(tasks.cbegin(), tasks.cend(),
                           [](const Part &task) { return task.as<CompactionPart>() != nullptr; });
    }

    explicit Scan(const QList<MessageWithParts> &history)
    {
        for (qsizetype i = history.size() - 1; i >= 0; --i) {
            const MessageWithParts &message = history.at(i);
            if (!lastUser && message.info.isUser())
                lastUser = message.info.user();
            if (!lastAssistant && message.info.isAssistant())
                lastAssistant = message.info.assistant();
            if (!lastFinished && message.info.isAssistant() && message.info.assistant()->finish)
                lastFinished = message.info.assistant();
            if (lastUser && lastFinished)
                break;
            if (lastFinished)
                continue;
            for (const Part &part : message.parts) {
                if (part.as<CompactionPart>() || part.as<SubtaskPart>())
                    tasks.append(part);
            }
        }
    }
};

PromptLoop::PromptLoop(LoopServices services, ProjectInstance &project, std::shared_ptr<ToolRunner> tools,
                       QString sessionID, QObject *parent)
    : QObject(parent)
    , m_services(std::move(services))
    , m_project(project)
    , m_tools(std::move(tools))
    , m_sessionID(std::move(sessionID))
{
    if (!m_services.clock)
        m_services.clock = [] { return QDateTime::currentDateTimeUtc(); };
}

PromptLoop::~PromptLoop() = default;

qint64 PromptLoop::now() const
{
    return m_services.clock().toMSecsSinceEpoch();
}

QString PromptLoop::queuedReminder(const QString &text)
{
    return QStringList{u"<system-reminder>"_s, u"The user sent the following message:"_s, text, QString(),
                       u"Please address this message and continue with your tasks."_s, u"</system-reminder>"_s}
        .join(u'\n');
}

SessionProcessor::Setup PromptLoop::processorSetup(const ResolvedModel &model, ToolRunner *tools,
                                                   PermissionAsker *permissions) const
{
    SessionProcessor::Setup setup;
    setup.store = m_services.store;
    setup.sink = m_services.sink;
    setup.tools = tools;
    setup.permissions = permissions;
    setup.model = model.model;
    setup.npm = model.npm();
    setup.compaction = {m_project.autoCompact(), m_project.prune(), m_project.reservedTokens()};
    setup.retry = m_services.retry;
    setup.clock = m_services.clock;
    return setup;
}

PromptLoop::Next PromptLoop::fail(LoopResult &result, const QString &name, const QString &message)
{
    const NamedError error{name, QJsonObject{{u"message"_s, message}}};
    qCWarning(lcSession) << m_sessionID << message;
    result.error = error;
    m_services.sink->publish(SessionError{m_sessionID, error});
    return Next::Stop;
}

QCoro::Task<LoopResult> PromptLoop::run()
{
    QPointer<PromptLoop> self(this);
    LoopResult result;
    int compactions = 0;
    for (int step = 1;; ++step) {
        m_services.sink->publish(SessionStatusChanged{m_sessionID, SessionStatus::busy()});
        if (m_abort.isAborted()) {
            result.aborted = true;
            break;
        }
        QCoro::Task<Next> stepping = this->step(step, compactions, result);
        const Next next = co_await stepping;
        if (!self)
            co_return result;
        if (next == Next::Stop)
            break;
    }
    if (m_abort.isAborted())
        result.aborted = true;

    if (m_project.prune()) {
        if (Result<QList<Part>> pruned = SessionCompaction::prune(*m_services.store, *m_services.sink, m_sessionID, now());
            !pruned)
            qCWarning(lcSession) << "pruning" << m_sessionID << "failed:" << pruned.errorMessage();
    }
    if (const Result<QList<MessageWithParts>> messages = m_services.store->history(m_sessionID); messages) {
        for (qsizetype i = messages->size() - 1; i >= 0; --i) {
            if (messages->at(i).info.isAssistant()) {
                result.lastAssistantID = messages->at(i).info.id();
                break;
            }
        }
    }
    co_return result;
}

QCoro::Task<bool> PromptLoop::storeQueued(const QList<MessageWithParts> &history)
{
    if (!m_services.takeQueued)
        co_return false;
    const Scan scan(history);
    // Prompts sent while a compaction request waits are stored after its
    // summary: stored before it, they would be summarised instead of
    // answered, and a manual compaction's summary would look like their
    // answer.
    if (scan.compactionPending())
        co_return false;
    const QString lastUser = scan.lastUser ? scan.lastUser->id : QString();
    QPointer<PromptLoop> self(this);
    QCoro::Task<> taking = m_services.takeQueued(m_sessionID);
    co_await taking;
    if (!self)
        co_return false;
    const Result<std::optional<Message>> newest = m_services.store->lastUserMessage(m_sessionID);
    co_return !newest || !*newest || (*newest)->id() != lastUser;
}

QCoro::Task<PromptLoop::Next> PromptLoop::step(int step, int &compactions, LoopResult &result)
{
    QPointer<PromptLoop> self(this);
    Result<QList<MessageWithParts>> read = m_services.store->history(m_sessionID);
    if (!read)
        co_return fail(result, u"UnknownError"_s, read.errorMessage());
    QCoro::Task<bool> storing = storeQueued(*read);
    const bool stored = co_await storing;
    if (!self)
        co_return Next::Stop;
    if (stored) {
        read = m_services.store->history(m_sessionID);
        if (!read)
            co_return fail(result, u"UnknownError"_s, read.errorMessage());
    }
    const QList<MessageWithParts> history = *read;
    const Scan scan(history);
    if (!scan.lastUser)
        co_return fail(result, u"UnknownError"_s, u"No user message found in stream. This should never happen."_s);
    // The exit condition: the newest assistant answered the newest user
    // message with a reason other than "call my tools" or "unknown".
    if (scan.lastAssistant && finishedAnswer(*scan.lastAssistant) && scan.lastUser->id < scan.lastAssistant->id) {
        qCDebug(lcSession) << m_sessionID << "exiting loop";
        co_return Next::Stop;
    }
    if (step == 1 && m_services.startTitle)
        m_services.startTitle(m_sessionID);

    if (!scan.tasks.isEmpty()) {
        // The oldest pending task first: tasks were collected newest first
        // and OpenCode pops the last one.
        const Part task = scan.tasks.last();
        if (const auto *subtask = task.as<SubtaskPart>()) {
            QCoro::Task<Next> running = subtaskStep(scan, *subtask, result);
            co_return co_await running;
        }
        QCoro::Task<Next> compacting = compactionStep(scan, history, task, compactions, result);
        co_return co_await compacting;
    }

    if (scan.lastFinished && !scan.lastFinished->isSummary()) {
        const Result<ResolvedModel> model = m_project.resolveModel(scan.lastUser->model);
        if (model) {
            const CompactionRules::ContextLimits limits{model->model.limits.context, model->model.limits.input,
                                                        model->model.limits.output > 0
                                                            ? std::optional(model->model.limits.output)
                                                            : std::nullopt};
            const CompactionRules::CompactionSettings settings{m_project.autoCompact(), m_project.prune(),
                                                               m_project.reservedTokens()};
            if (CompactionRules::isOverflow(scan.lastFinished->tokens, limits, settings))
                co_return requestCompaction(scan, std::nullopt, compactions, result);
        }
    }
    QCoro::Task<Next> processing = normalStep(step, scan, history, compactions, result);
    co_return co_await processing;
}

PromptLoop::Next PromptLoop::requestCompaction(const Scan &scan, std::optional<bool> overflow, int &compactions,
                                               LoopResult &result)
{
    // OpenCode compacts forever when the system prompt and tools alone
    // overflow the context; qcode gives up after a few tries in a row and
    // says why.
    if (compactions >= m_services.maxConsecutiveCompactions) {
        return fail(result, u"ContextOverflowError"_s,
                    tr("The conversation still does not fit the model's context after %n compaction(s): the system "
                       "prompt, instructions and tools alone may be too large for this model. Choose a model with a "
                       "larger context, or remove instruction files or tools.",
                       nullptr, compactions));
    }
    SessionCompaction::Request request;
    request.sessionID = m_sessionID;
    request.agent = scan.lastUser->agent;
    request.model = scan.lastUser->model;
    request.autoCompact = true;
    request.overflow = overflow;
    request.now = now();
    if (const Result<MessageWithParts> created = SessionCompaction::create(*m_services.store, *m_services.sink, request);
        !created)
        return fail(result, u"UnknownError"_s, created.errorMessage());
    return Next::Continue;
}

QCoro::Task<PromptLoop::Next> PromptLoop::normalStep(int step, const Scan &scan,
                                                     const QList<MessageWithParts> &history, int &compactions,
                                                     LoopResult &result)
{
    QPointer<PromptLoop> self(this);
    const UserMessage lastUser = *scan.lastUser;
    const Result<ResolvedModel> resolved = m_project.resolveModel(lastUser.model);
    if (!resolved)
        co_return fail(result, u"ProviderModelNotFoundError"_s, resolved.errorMessage());
    const ResolvedModel model = *resolved;
    const std::optional<Agent> agent = m_project.agents().get(lastUser.agent);
    if (!agent)
        co_return fail(result, u"UnknownError"_s, tr("Agent not found: \"%1\".").arg(lastUser.agent));
    const bool isLastStep = agent->steps && step >= *agent->steps;

    // History for the model: reminders and queued prompts, in memory only.
    QList<MessageWithParts> messages = Reminders::withReminders(history, agent->name);
    if (step > 1 && scan.lastFinished) {
        for (MessageWithParts &message : messages) {
            if (!message.info.isUser() || message.info.id() <= scan.lastFinished->id)
                continue;
            for (Part &part : message.parts) {
                TextPart *text = part.as<TextPart>();
                if (text && !text->synthetic.value_or(false) && !text->ignored.value_or(false)
                    && !text->text.trimmed().isEmpty())
                    text->text = queuedReminder(text->text);
            }
        }
    }

    AssistantMessage assistant;
    assistant.id = Identifier::ascending(Identifier::Prefix::Message);
    assistant.sessionID = m_sessionID;
    assistant.created = now();
    assistant.parentID = lastUser.id;
    assistant.mode = agent->name;
    assistant.agent = agent->name;
    assistant.variant = lastUser.variant;
    assistant.cwd = m_project.directory();
    assistant.root = m_project.worktree().isEmpty() ? m_project.directory() : m_project.worktree();
    assistant.providerID = model.provider.id;
    assistant.modelID = model.model.id;
    if (Result<void> saved = m_services.store->updateMessage(Message(assistant)); !saved)
        co_return fail(result, u"UnknownError"_s, saved.errorMessage());
    m_services.sink->publish(MessageUpdated{Message(assistant)});

    // Permissions: the agent's rules, then the session's.
    const Result<std::optional<Session>> session = m_services.store->session(m_sessionID);
    const PermissionRuleset rules = PermissionRules::merge(
        {agent->permission, session && *session ? sessionRules((*session)->permission) : PermissionRuleset()});
    RuledPermissionAsker asker(*m_services.permissions, rules, m_sessionID, m_project.project().id);
    RuledPermissionAsker doomLoopAsker(*m_services.permissions, agent->permission, m_sessionID,
                                       m_project.project().id);
    bool mentionsAgent = false;
    for (const MessageWithParts &message : history) {
        if (message.info.id() == lastUser.id) {
            for (const Part &part : message.parts)
                mentionsAgent = mentionsAgent || part.as<AgentPart>() != nullptr;
        }
    }
    StepToolRunner tools(m_tools, m_project, &asker, mentionsAgent);

    ToolScope scope{model.provider.id, model.model.apiId.isEmpty() ? model.model.id : model.model.apiId, agent->name, {}};
    QList<ToolDefinition> definitions = tools.definitions(scope);
    const QStringList disabled = disabledTools(definitions, rules);
    definitions.removeIf([&disabled](const ToolDefinition &tool) { return disabled.contains(tool.name); });

    QCoro::Task<QStringList> reading = m_project.instructions().system(m_services.network);
    const QStringList instructions = co_await reading;
    if (!self)
        co_return Next::Stop;
    SystemPrompt::Input system;
    system.providerID = model.provider.id;
    system.apiModelID = scope.modelID;
    system.agentPrompt = agent->prompt;
    system.environment = m_project.environment();
    system.instructions = instructions;
    system.userSystem = lastUser.system;

    ModelCallInput call;
    call.model = model;
    call.agent = agent;
    call.system = SystemPrompt::build(system);
    call.messages = toModelMessages(messages, model.target());
    if (isLastStep)
        call.messages.append(ModelMessage{ModelRole::Assistant, {TextContent{PromptLibrary::text(PromptText::MaxSteps), {}}}, {}});
    call.tools = definitions;
    call.variant = lastUser.variant;
    const ProviderRequest request = ModelRequest::build(call);

    SessionProcessor::Setup setup = processorSetup(model, &tools, &asker);
    setup.doomLoopPermissions = &doomLoopAsker;
    setup.snapshots = m_project.snapshots();
    setup.continueLoopOnDeny = m_project.continueLoopOnDeny();
    SessionProcessor processor(setup, assistant, QPointer<AbortSignal>(&m_abort));
    const ProviderClient client(m_services.network, m_services.limits);
    QCoro::Task<SessionProcessor::Outcome> processing =
        processor.process([client, request](QObject *owner) { return client.stream(request, owner); });
    const SessionProcessor::Outcome outcome = co_await processing;
    if (!self)
        co_return Next::Stop;

    switch (outcome) {
    case SessionProcessor::Outcome::Stop:
        if (processor.message().error && !m_abort.isAborted())
            result.error = processor.message().error;
        co_return Next::Stop;
    case SessionProcessor::Outcome::Compact:
        co_return requestCompaction(scan, !processor.message().finish.has_value(), compactions, result);
    case SessionProcessor::Outcome::Continue:
        // A step that fit the context: the compactions before it helped.
        compactions = 0;
        break;
    }
    co_return Next::Continue;
}

QCoro::Task<PromptLoop::Next> PromptLoop::compactionStep(const Scan &scan, const QList<MessageWithParts> &history,
                                                         const Part &task, int &compactions, LoopResult &result)
{
    QPointer<PromptLoop> self(this);
    ++compactions;
    // The summary answers the message that asked for it, not the newest
    // user message: the history is cut there (filterCompacted), and a
    // prompt stored after the request still waits for its answer.
    const auto request = std::find_if(history.cbegin(), history.cend(), [&task](const MessageWithParts &message) {
        return message.info.id() == task.messageID;
    });
    const UserMessage *requester = request != history.cend() ? request->info.user() : nullptr;
    const Result<ResolvedModel> userModel = m_project.resolveModel(requester ? requester->model : scan.lastUser->model);
    if (!userModel)
        co_return fail(result, u"ProviderModelNotFoundError"_s, userModel.errorMessage());
    // The compaction agent's own model when it names one.
    const std::optional<Agent> agent = m_project.agents().get(u"compaction"_s);
    ResolvedModel model = *userModel;
    if (agent && agent->model) {
        if (const Result<ResolvedModel> own = m_project.resolveModel(*agent->model))
            model = *own;
    }

    NoTools noTools;
    RuledPermissionAsker asker(*m_services.permissions, agent ? agent->permission : PermissionRuleset(), m_sessionID,
                               m_project.project().id);
    const SessionProcessor::Setup setup = processorSetup(model, &noTools, &asker);

    CompactionRun::Input input;
    input.messages = history;
    input.parentID = task.messageID;
    input.sessionID = m_sessionID;
    input.abort = QPointer<AbortSignal>(&m_abort);
    input.autoCompact = task.as<CompactionPart>()->automatic;
    input.overflow = task.as<CompactionPart>()->overflow.value_or(false);
    input.setup = setup;
    input.model = model.ref();
    input.variant = scan.lastUser->variant.value_or(QString());
    input.target = model.target();
    input.directory = m_project.directory();
    input.worktree = m_project.worktree().isEmpty() ? m_project.directory() : m_project.worktree();
    const ProviderClient client(m_services.network, m_services.limits);
    input.summaryCall = [client, model, agent](QList<ModelMessage> messages) -> SessionProcessor::CallFactory {
        ModelCallInput call;
        call.model = model;
        call.agent = agent;
        call.system = agent && agent->prompt ? QStringList{*agent->prompt} : QStringList{};
        call.messages = std::move(messages);
        const ProviderRequest request = ModelRequest::build(call);
        return [client, request](QObject *owner) { return client.stream(request, owner); };
    };
    CompactionRun run;
    QCoro::Task<CompactionRun::Outcome> running = run.process(input);
    const CompactionRun::Outcome outcome = co_await running;
    if (!self)
        co_return Next::Stop;
    if (outcome == CompactionRun::Outcome::Stop) {
        if (!m_abort.isAborted() && !result.error)
            result.error = run.error();
        co_return Next::Stop;
    }
    co_return Next::Continue;
}

QCoro::Task<PromptLoop::Next> PromptLoop::subtaskStep(const Scan &scan, const SubtaskPart &task, LoopResult &result)
{
    QPointer<PromptLoop> self(this);
    const UserMessage lastUser = *scan.lastUser;
    const ModelRef modelRef = task.model.value_or(lastUser.model);

    AssistantMessage assistant;
    assistant.id = Identifier::ascending(Identifier::Prefix::Message);
    assistant.sessionID = m_sessionID;
    assistant.created = now();
    assistant.parentID = lastUser.id;
    assistant.mode = task.agent;
    assistant.agent = task.agent;
    assistant.variant = lastUser.variant;
    assistant.cwd = m_project.directory();
    assistant.root = m_project.worktree().isEmpty() ? m_project.directory() : m_project.worktree();
    assistant.providerID = modelRef.providerID;
    assistant.modelID = modelRef.modelID;
    if (Result<void> saved = m_services.store->updateMessage(Message(assistant)); !saved)
        co_return fail(result, u"UnknownError"_s, saved.errorMessage());
    m_services.sink->publish(MessageUpdated{Message(assistant)});

    QJsonObject input{{u"prompt"_s, task.prompt}, {u"description"_s, task.description},
                      {u"subagent_type"_s, task.agent}};
    if (task.command)
        input.insert(u"command"_s, *task.command);
    Part part{Identifier::ascending(Identifier::Prefix::Part), m_sessionID, assistant.id,
              ToolPart{Identifier::ascending(Identifier::Prefix::Tool), u"task"_s, ToolPending{}, std::nullopt, {}}, {}};
    ToolPart *tool = part.as<ToolPart>();
    if (Result<void> started = tool->start(input, now()); !started)
        co_return fail(result, u"UnknownError"_s, started.errorMessage());
    // The title shows what the subagent works on while it runs.
    if (Result<void> titled = tool->updateRunning(task.description, std::nullopt); !titled)
        qCWarning(lcSession) << "subtask title:" << titled.errorMessage();
    if (Result<void> saved = m_services.store->updatePart(part); !saved)
        co_return fail(result, u"UnknownError"_s, saved.errorMessage());
    m_services.sink->publish(PartUpdated{part});

    Result<ChildResult> child = Error(QStringLiteral("Subtasks cannot run here."));
    if (m_services.runChild) {
        ChildRequest request{m_sessionID, task.agent, task.prompt, task.description, modelRef, std::nullopt,
                             QPointer<AbortSignal>(&m_abort), {}};
        // The child's id goes on the part as soon as it is known, so the
        // window can open the child while it works (as the task tool does).
        request.started = [this, &part, &task, modelRef](const QString &childID) {
            ToolPart *running = part.as<ToolPart>();
            if (Result<void> linked = running->updateRunning(task.description, ChildRunner::metadata(childID, modelRef));
                !linked) {
                qCWarning(lcSession) << "subtask link:" << linked.errorMessage();
                return;
            }
            if (Result<void> saved = m_services.store->updatePart(part); !saved) {
                qCWarning(lcSession) << "subtask link not saved:" << saved.errorMessage();
                return;
            }
            m_services.sink->publish(PartUpdated{part});
        };
        QCoro::Task<Result<ChildResult>> running = m_services.runChild(request);
        child = co_await running;
        if (!self)
            co_return Next::Stop;
    }

    assistant.finish = u"tool-calls"_s;
    assistant.completed = now();
    if (Result<void> saved = m_services.store->updateMessage(Message(assistant)); !saved)
        co_return fail(result, u"UnknownError"_s, saved.errorMessage());
    m_services.sink->publish(MessageUpdated{Message(assistant)});

    Result<void> moved;
    if (child) {
        moved = tool->complete(ChildRunner::output(*child), task.description,
                               ChildRunner::metadata(child->sessionID, modelRef), now());
    } else {
        const QString message = child.errorMessage();
        moved = tool->fail(message.isEmpty() ? u"Tool execution failed"_s : u"Tool execution failed: "_s + message, now());
    }
    if (!moved)
        co_return fail(result, u"UnknownError"_s, moved.errorMessage());
    if (Result<void> saved = m_services.store->updatePart(part); !saved)
        co_return fail(result, u"UnknownError"_s, saved.errorMessage());
    m_services.sink->publish(PartUpdated{part});
    if (m_abort.isAborted())
        co_return Next::Stop;

    // A command's subtask is followed by a user turn, so a reasoning model
    // never sees an assistant turn without one after it.
    if (task.command) {
        UserMessage user;
        user.id = Identifier::ascending(Identifier::Prefix::Message);
        user.sessionID = m_sessionID;
        user.created = now();
        user.agent = lastUser.agent;
        user.model = lastUser.model;
        const Part text{Identifier::ascending(Identifier::Prefix::Part), m_sessionID, user.id,
                        TextPart{u"Summarize the task tool output above and continue with your task."_s, true,
                                 std::nullopt, std::nullopt, std::nullopt},
                        {}};
        if (Result<void> saved = m_services.store->updateMessage(Message(user)); !saved)
            co_return fail(result, u"UnknownError"_s, saved.errorMessage());
        m_services.sink->publish(MessageUpdated{Message(user)});
        if (Result<void> saved = m_services.store->updatePart(text); !saved)
            co_return fail(result, u"UnknownError"_s, saved.errorMessage());
        m_services.sink->publish(PartUpdated{text});
    }
    co_return Next::Continue;
}

} // namespace qcode
