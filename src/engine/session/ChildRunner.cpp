#include "ChildRunner.h"

#include "engine/session/project/ProjectCache.h"
#include "engine/session/SessionScheduler.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

ChildRunner::ChildRunner(Services services, QObject *context)
    : m_services(std::move(services))
    , m_context(context)
{
}

QString ChildRunner::output(const ChildResult &child)
{
    return u"task_id: %1 (for resuming to continue this task if needed)\n\n<task_result>\n%2\n</task_result>"_s.arg(
        child.sessionID, child.text);
}

QJsonObject ChildRunner::metadata(const QString &childSessionID, const ModelRef &model)
{
    return QJsonObject{{u"sessionId"_s, childSessionID},
                       {u"model"_s, QJsonObject{{u"providerID"_s, model.providerID}, {u"modelID"_s, model.modelID}}}};
}

// Every error here reaches the model through the task tool: English.
QCoro::Task<Result<ChildResult>> ChildRunner::run(ChildRequest request)
{
    QPointer<QObject> guard = m_context;
    Store &store = *m_services.store;
    SessionScheduler &scheduler = *m_services.scheduler;
    const Result<std::optional<Session>> parent = store.session(request.parentSessionID);
    if (!parent || !*parent)
        co_return Error(u"The parent session %1 is gone."_s.arg(request.parentSessionID));
    std::shared_ptr<LoadedProject> project = m_services.projects->loaded((*parent)->directory);
    ProjectInstance *instance = project->instance.get();
    const Agent *agent = instance->agents().find(request.agent);
    if (!agent)
        co_return Error(u"Unknown agent type: %1 is not a valid agent type"_s.arg(request.agent));

    QString childID;
    if (request.taskID) {
        const Result<std::optional<Session>> existing = store.session(*request.taskID);
        if (existing && *existing && (*existing)->parentID == request.parentSessionID)
            childID = *request.taskID;
    }
    // Told to the model, which may try again later: never translated.
    if (!childID.isEmpty() && scheduler.busy(childID))
        co_return Error(u"Task %1 is still running; wait for it to finish, then resume it with the same task_id."_s.arg(
            childID));
    if (childID.isEmpty()) {
        childID = m_services.createSession(instance->directory(), request.parentSessionID,
                                           u"%1 (@%2 subagent)"_s.arg(request.description, request.agent));
        if (childID.isEmpty())
            co_return Error(u"The subagent's session could not be created."_s);
    }
    // Another qcode may run the child right now. The scheduler's refusal
    // is translated for people; the model gets English.
    if (const Result<void> claimed = scheduler.claim(childID); !claimed)
        co_return Error(u"Task %1 is running in another qcode; try again when it has finished there."_s.arg(childID));
    if (request.started)
        request.started(childID);
    PromptInput input;
    input.sessionID = childID;
    input.agent = request.agent;
    input.model = agent->model.value_or(request.model);
    input.parts = {PromptPart::text(request.prompt)};
    // The child may not plan for the parent or start its own subagents
    // unless its rules ask for that (reference §8.9).
    QJsonObject tools{{u"todowrite"_s, false}, {u"todoread"_s, false}};
    bool mentionsTask = false;
    for (const PermissionRule &rule : agent->permission)
        mentionsTask = mentionsTask || rule.permission == u"task"_s;
    if (!mentionsTask)
        tools.insert(u"task"_s, false);
    input.tools = tools;
    QCoro::Task<Result<MessageWithParts>> storing = m_services.storePrompt(input);
    const Result<MessageWithParts> stored = co_await storing;
    if (!guard)
        co_return Error(u"The engine stopped."_s);
    if (!stored) {
        scheduler.releaseIfIdle(childID);
        co_return Error(stored.error());
    }

    QMetaObject::Connection stop;
    if (request.abort) {
        stop = QObject::connect(request.abort.data(), &AbortSignal::aborted, &scheduler,
                                [&scheduler, childID] { scheduler.abort(childID); });
    }
    QCoro::Task<LoopResult> running = scheduler.runLoop(childID, project);
    const LoopResult result = co_await running;
    QObject::disconnect(stop);
    if (!guard)
        co_return Error(u"The engine stopped."_s);
    if (result.aborted)
        co_return Error(u"The subagent was stopped."_s);
    if (result.error)
        co_return Error(result.error->message().isEmpty() ? result.error->name : result.error->message());

    ChildResult child{childID, {}};
    if (const Result<std::optional<MessageWithParts>> last = store.message(result.lastAssistantID); last && *last) {
        for (const Part &part : (*last)->parts) {
            if (const TextPart *text = part.as<TextPart>())
                child.text = text->text;
        }
    }
    co_return child;
}

} // namespace qcode
