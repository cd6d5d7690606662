#include "Engine.h"

#include <QCoro/QCoroSignal>
#include <QCoro/QCoroTask>
#include <QDir>
#include <QFileInfo>
#include <QFuture>
#include <QNetworkAccessManager>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <QSet>

#include <map>

#include "engine/agent/PermissionRules.h"
#include "engine/config/DataPaths.h"
#include "engine/message/FileReader.h"
#include "engine/message/UserMessageBuilder.h"
#include "engine/session/ModelRequest.h"
#include "engine/session/ProjectInstance.h"
#include "engine/session/PromptLoop.h"
#include "engine/session/QuestionCenter.h"
#include "engine/session/SessionLogging.h"
#include "engine/session/SessionCompaction.h"
#include "engine/session/SessionRevert.h"
#include "engine/session/SessionSlug.h"
#include "engine/session/TitleGenerator.h"
#include "engine/tool/BuiltinTools.h"
#include "engine/tool/FileTimes.h"
#include "engine/tool/OutputTruncation.h"
#include "engine/tool/ToolServices.h"
#include "model/Identifier.h"
#include "model/Overloaded.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

NamedError unknownError(const QString &message)
{
    return NamedError{u"UnknownError"_s, QJsonObject{{u"message"_s, message}}};
}

} // namespace

class Engine::Private : public SessionEventSink
{
public:
    Private(Engine *q, EngineOptions options)
        : q(q)
        , options(std::move(options))
    {
        if (this->options.dataDirectory.isEmpty())
            this->options.dataDirectory = DataPaths::dataDirectory();
        if (this->options.databasePath.isEmpty())
            this->options.databasePath = DataPaths::databaseFile();
        if (!this->options.locations)
            this->options.locations = [](const QString &directory, const QString &worktree) {
                return ConfigLocations::forSystem(directory, worktree);
            };
        if (!this->options.clock)
            this->options.clock = [] { return QDateTime::currentDateTimeUtc(); };
    }

    void publish(const SessionEvent &event) override;

    qint64 now() const { return options.clock().toMSecsSinceEpoch(); }
    bool ready() const { return store != nullptr; }
    ProjectInstance *project(const QString &directory);
    std::shared_ptr<ToolRunner> toolsFor(ProjectInstance &project);
    LoopServices loopServices();

    void createSession(NewSession spec);
    QCoro::Task<> runPrompt(PromptInput input);
    QCoro::Task<Result<MessageWithParts>> storeUserMessage(PromptInput input, ProjectInstance &project);
    QCoro::Task<LoopResult> runLoop(QString sessionID, ProjectInstance &project);
    QCoro::Task<Result<ChildResult>> runChild(ChildRequest request);
    QCoro::Task<std::optional<QList<QStringList>>> askQuestion(QuestionRequest request, QPointer<AbortSignal> abort);
    void startTitle(const QString &sessionID);
    void finish(const QString &sessionID, const LoopResult &result, int callers);
    void abort(const QString &sessionID);
    void fork(const QString &sessionID, const QString &messageID, const QString &newID);
    void remove(const QString &sessionID);
    void rename(const QString &sessionID, const QString &title);
    void housekeep();
    QCoro::Task<> revert(SessionRevert::Target target, bool undo);

    Engine *q;
    EngineOptions options;
    std::unique_ptr<Store> store;
    QNetworkAccessManager *network = nullptr;
    std::unique_ptr<PermissionCenter> permissions;
    std::unique_ptr<QuestionCenter> questions;
    FileTimes fileTimes;
    std::map<QString, std::unique_ptr<ProjectInstance>> projects; // by folder
    QHash<ProjectInstance *, std::shared_ptr<ToolRunner>> tools;
    QHash<QString, PromptLoop *> loops;   // running, by session
    QHash<QString, int> queuedCallers;    // prompt() calls waiting on a running loop
    QTimer *housekeeping = nullptr; // made in open(), in the engine's thread
    QSet<QString> reverting;              // sessions whose revert or unrevert runs
};

void Engine::Private::housekeep()
{
    // A folder scan: off the engine thread, so no stream waits on it.
    const QString dataDirectory = options.dataDirectory;
    QFuture<int> removing = QtConcurrent::run([dataDirectory] { return OutputTruncation(dataDirectory).removeExpired(); });
    removing.then(q, [](int removed) {
        if (removed > 0)
            qCInfo(lcSession) << "housekeeping removed" << removed << "saved tool outputs older than"
                              << OutputTruncation::RetentionDays << "days";
    });
}

void Engine::Private::publish(const SessionEvent &event)
{
    std::visit(Overloaded{
                   [this](const SessionCreated &e) { Q_EMIT q->sessionCreated(e.info); },
                   [this](const SessionUpdated &e) { Q_EMIT q->sessionUpdated(e.info); },
                   [this](const SessionDeleted &e) { Q_EMIT q->sessionDeleted(e.info); },
                   [this](const SessionStatusChanged &e) { Q_EMIT q->sessionStatus(e.sessionID, e.status); },
                   [this](const MessageUpdated &e) { Q_EMIT q->messageUpdated(e.info); },
                   [this](const MessageRemoved &e) { Q_EMIT q->messageRemoved(e.sessionID, e.messageID); },
                   [this](const PartUpdated &e) { Q_EMIT q->partUpdated(e.part); },
                   [this](const PartRemoved &e) { Q_EMIT q->partRemoved(e.sessionID, e.messageID, e.partID); },
                   [this](const PartDelta &e) { Q_EMIT q->partDelta(e); },
                   [this](const PermissionAsked &e) { Q_EMIT q->permissionAsked(e.request); },
                   [this](const PermissionReplied &e) {
                       Q_EMIT q->permissionReplied(e.sessionID, e.requestID, e.reply);
                   },
                   [this](const TodoUpdated &e) { Q_EMIT q->todoUpdated(e.sessionID, e.todos); },
                   [this](const SessionCompacted &e) { Q_EMIT q->sessionCompacted(e.sessionID); },
                   [this](const SessionError &e) { Q_EMIT q->sessionError(e.sessionID, e.error); },
                   [this](const QuestionAsked &e) { Q_EMIT q->questionAsked(e.request); },
                   [this](const QuestionReplied &e) { Q_EMIT q->questionReplied(e.sessionID, e.requestID, e.answers); },
                   [this](const QuestionRejected &e) { Q_EMIT q->questionRejected(e.sessionID, e.requestID); },
               },
               event);
    Q_EMIT q->event(event);
}

ProjectInstance *Engine::Private::project(const QString &directory)
{
    const QString folder = QDir::cleanPath(QFileInfo(directory).absoluteFilePath());
    auto found = projects.find(folder);
    if (found != projects.end())
        return found->second.get();
    const QString worktree = ProjectInstance::findWorktree(folder);
    std::unique_ptr<ProjectInstance> loaded =
        ProjectInstance::load(folder, options.locations(folder, worktree), options.dataDirectory);
    for (const QString &problem : loaded->problems())
        qCWarning(lcSession) << "config:" << problem;
    if (Result<void> saved = store->upsertProject(loaded->project()); !saved)
        qCWarning(lcSession) << "project" << folder << "not saved:" << saved.errorMessage();
    ProjectInstance *instance = loaded.get();
    projects.emplace(folder, std::move(loaded));
    return instance;
}

std::shared_ptr<ToolRunner> Engine::Private::toolsFor(ProjectInstance &project)
{
    if (auto found = tools.constFind(&project); found != tools.constEnd())
        return *found;
    std::shared_ptr<ToolRunner> runner;
    if (options.tools) {
        runner = options.tools(project);
    } else {
        ToolServices services{store.get(), this, options.dataDirectory, &fileTimes, network, &project.agents(), {}, {}};
        services.runChild = [this](ChildRequest request) { return runChild(std::move(request)); };
        services.askQuestion = [this](QuestionRequest request, QPointer<AbortSignal> abort) {
            return askQuestion(std::move(request), std::move(abort));
        };
        const AgentRegistry agents = project.agents();
        runner = makeBuiltinToolRegistry(services, [agents](const QString &agent) {
            const Agent *found = agents.find(agent);
            return found
                   && PermissionRules::evaluate(u"task"_s, u"*"_s, found->permission).action != PermissionAction::Deny;
        });
    }
    tools.insert(&project, runner);
    return runner;
}

LoopServices Engine::Private::loopServices()
{
    LoopServices services;
    services.store = store.get();
    services.sink = this;
    services.permissions = permissions.get();
    services.network = network;
    services.retry = options.retry;
    services.clock = options.clock;
    services.maxCompactions = options.maxCompactionsPerPrompt;
    if (options.generateTitles)
        services.startTitle = [this](const QString &sessionID) { startTitle(sessionID); };
    services.runChild = [this](ChildRequest request) { return runChild(std::move(request)); };
    return services;
}

void Engine::Private::createSession(NewSession spec)
{
    if (!ready()) {
        publish(SessionError{std::nullopt, unknownError(tr("The database is not open."))});
        return;
    }
    const Result<QString> id = spec.id.isEmpty() ? Result<QString>(Identifier::descending(Identifier::Prefix::Session))
                                                 : Identifier::descending(Identifier::Prefix::Session, spec.id);
    if (!id) {
        publish(SessionError{std::nullopt, unknownError(id.errorMessage())});
        return;
    }
    ProjectInstance *instance = project(spec.directory);
    Session session;
    session.id = *id;
    session.slug = SessionSlug::create();
    session.projectID = instance->project().id;
    session.directory = instance->directory();
    session.parentID = spec.parentID;
    session.version = QStringLiteral(QCODE_VERSION);
    session.time.created = now();
    session.time.updated = session.time.created;
    session.title = spec.title.isEmpty() ? TitleGenerator::defaultTitle(session.time.created, spec.parentID.has_value())
                                         : spec.title;
    if (Result<void> saved = store->upsertSession(session); !saved) {
        publish(SessionError{session.id, unknownError(saved.errorMessage())});
        return;
    }
    publish(SessionCreated{session});
}

QCoro::Task<Result<MessageWithParts>> Engine::Private::storeUserMessage(PromptInput input, ProjectInstance &project)
{
    const Result<std::optional<Session>> session = store->session(input.sessionID);
    if (!session)
        co_return Error(session.errorMessage());
    if (!*session)
        co_return Error(tr("Session %1 does not exist.").arg(input.sessionID));

    PromptDefaults defaults;
    const Result<QString> defaultAgent = project.agents().defaultAgent();
    defaults.defaultAgent = defaultAgent ? *defaultAgent : u"build"_s;
    const Agent *agent = project.agents().find(input.agent.value_or(defaults.defaultAgent));
    if (input.agent && !agent)
        co_return Error(tr("Agent not found: \"%1\".").arg(*input.agent));
    if (agent) {
        defaults.agentModel = agent->model;
        defaults.agentVariant = agent->variant;
    }
    if (const Result<QList<MessageWithParts>> history = store->history(input.sessionID); history) {
        for (qsizetype i = history->size() - 1; i >= 0; --i) {
            if (const UserMessage *user = history->at(i).info.user()) {
                defaults.lastUserModel = user->model;
                break;
            }
        }
    }
    if (const Result<ModelRef> model = project.defaultModel(); model)
        defaults.defaultModel = *model;
    defaults.modelVariants = [&project](const ModelRef &ref) {
        const Result<ResolvedModel> model = project.resolveModel(ref);
        return model ? model->model.variants.keys() : QStringList();
    };
    const PermissionRuleset agentRules = agent ? agent->permission : PermissionRuleset();
    defaults.taskDenied = [agentRules](const QString &subagent) {
        return PermissionRules::evaluate(u"task"_s, subagent, agentRules).action == PermissionAction::Deny;
    };
    defaults.now = now();

    const UserMessageBuilder builder(FileReader(project.directory(), project.worktree()));
    const Result<BuiltUserMessage> built = builder.build(input, defaults);
    if (!built)
        co_return Error(built.errorMessage());
    for (const NamedError &error : built->errors)
        publish(SessionError{input.sessionID, error});
    for (const QString &path : built->readFiles)
        fileTimes.recordRead(input.sessionID, path);

    const MessageWithParts &message = built->message;
    if (Result<void> saved = store->updateMessage(message.info); !saved)
        co_return Error(saved.errorMessage());
    publish(MessageUpdated{message.info});
    for (const Part &part : message.parts) {
        if (Result<void> saved = store->updatePart(part); !saved)
            co_return Error(saved.errorMessage());
        publish(PartUpdated{part});
    }

    Session touched = **session;
    touched.time.updated = now();
    // Legacy {tool: enabled} maps replace the session's rules (reference §2.1).
    if (input.tools && !input.tools->isEmpty()) {
        QJsonArray rules;
        for (auto it = input.tools->begin(); it != input.tools->end(); ++it)
            rules.append(PermissionRule{it.key(), u"*"_s,
                                        it.value().toBool() ? PermissionAction::Allow : PermissionAction::Deny}
                             .toJson());
        touched.permission = rules;
    }
    if (Result<void> saved = store->upsertSession(touched); saved)
        publish(SessionUpdated{touched});
    co_return message;
}

QCoro::Task<> Engine::Private::runPrompt(PromptInput input)
{
    QPointer<Engine> guard(q);
    const QString sessionID = input.sessionID;
    const Result<std::optional<Session>> session = ready() ? store->session(sessionID)
                                                           : Result<std::optional<Session>>(Error(tr("The database is not open.")));
    if (!session || !*session) {
        const NamedError error = unknownError(session ? tr("Session %1 does not exist.").arg(sessionID)
                                                      : session.errorMessage());
        publish(SessionError{sessionID, error});
        Q_EMIT q->promptFinished(PromptOutcome{sessionID, {}, error, false});
        co_return;
    }
    if (reverting.contains(sessionID)) {
        const NamedError error = unknownError(tr("Session %1 is being reverted; send the prompt again when it is done.").arg(sessionID));
        publish(SessionError{sessionID, error});
        Q_EMIT q->promptFinished(PromptOutcome{sessionID, {}, error, false});
        co_return;
    }
    // A pending revert's hidden messages go before the new one comes
    // (reference §2.1).
    if (const Result<Session> cleaned = SessionRevert::cleanup(*store, *this, **session); !cleaned) {
        const NamedError error = unknownError(cleaned.errorMessage());
        publish(SessionError{sessionID, error});
        Q_EMIT q->promptFinished(PromptOutcome{sessionID, {}, error, false});
        co_return;
    }
    ProjectInstance *instance = project((*session)->directory);
    QCoro::Task<Result<MessageWithParts>> storing = storeUserMessage(input, *instance);
    const Result<MessageWithParts> stored = co_await storing;
    if (!guard)
        co_return;
    if (!stored) {
        const NamedError error = unknownError(stored.errorMessage());
        publish(SessionError{sessionID, error});
        Q_EMIT q->promptFinished(PromptOutcome{sessionID, {}, error, false});
        co_return;
    }
    // Busy: the running loop reads the new message on its next step and
    // answers this caller when it ends (reference §2.2).
    if (loops.contains(sessionID)) {
        ++queuedCallers[sessionID];
        qCInfo(lcSession) << sessionID << "is busy; prompt queued";
        co_return;
    }
    QCoro::Task<LoopResult> running = runLoop(sessionID, *instance);
    const LoopResult result = co_await running;
    if (!guard)
        co_return;
    finish(sessionID, result, 1 + queuedCallers.take(sessionID));
}

QCoro::Task<LoopResult> Engine::Private::runLoop(QString sessionID, ProjectInstance &project)
{
    QPointer<Engine> guard(q);
    auto *loop = new PromptLoop(loopServices(), project, toolsFor(project), sessionID, q);
    loops.insert(sessionID, loop);
    QCoro::Task<LoopResult> running = loop->run();
    const LoopResult result = co_await running;
    if (!guard)
        co_return result;
    loops.remove(sessionID);
    permissions->cancelSession(sessionID);
    questions->cancelSession(sessionID);
    loop->deleteLater();
    publish(SessionStatusChanged{sessionID, SessionStatus::idle()});
    // The snapshot store is pruned now and then, never in the middle of a
    // step (at most hourly, SnapshotStore::maybePrune).
    if (SnapshotStore *snapshots = project.snapshots())
        QCoro::connect(snapshots->maybePrune(), snapshots, [](bool) {});
    co_return result;
}

void Engine::Private::finish(const QString &sessionID, const LoopResult &result, int callers)
{
    const PromptOutcome outcome{sessionID, result.lastAssistantID, result.error, result.aborted};
    for (int i = 0; i < callers; ++i)
        Q_EMIT q->promptFinished(outcome);
}

QCoro::Task<Result<ChildResult>> Engine::Private::runChild(ChildRequest request)
{
    QPointer<Engine> guard(q);
    const Result<std::optional<Session>> parent = store->session(request.parentSessionID);
    if (!parent || !*parent)
        co_return Error(tr("The parent session %1 is gone.").arg(request.parentSessionID));
    ProjectInstance *instance = project((*parent)->directory);
    const Agent *agent = instance->agents().find(request.agent);
    if (!agent)
        co_return Error(tr("Unknown agent type: %1 is not a valid agent type").arg(request.agent));

    QString childID;
    if (request.taskID) {
        const Result<std::optional<Session>> existing = store->session(*request.taskID);
        if (existing && *existing && (*existing)->parentID == request.parentSessionID)
            childID = *request.taskID;
    }
    if (childID.isEmpty()) {
        NewSession spec;
        spec.id = Identifier::descending(Identifier::Prefix::Session);
        spec.directory = instance->directory();
        spec.parentID = request.parentSessionID;
        spec.title = u"%1 (@%2 subagent)"_s.arg(request.description, request.agent);
        createSession(spec);
        childID = spec.id;
    }
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
    QCoro::Task<Result<MessageWithParts>> storing = storeUserMessage(input, *instance);
    const Result<MessageWithParts> stored = co_await storing;
    if (!guard)
        co_return Error(tr("The engine stopped."));
    if (!stored)
        co_return Error(stored.error());

    QMetaObject::Connection stop;
    if (request.abort) {
        stop = QObject::connect(request.abort.data(), &AbortSignal::aborted, q,
                                [this, childID] { abort(childID); });
    }
    QCoro::Task<LoopResult> running = runLoop(childID, *instance);
    const LoopResult result = co_await running;
    QObject::disconnect(stop);
    if (!guard)
        co_return Error(tr("The engine stopped."));
    finish(childID, result, queuedCallers.take(childID));
    if (result.aborted)
        co_return Error(tr("The subagent was stopped."));
    if (result.error)
        co_return Error(result.error->message().isEmpty() ? result.error->name : result.error->message());

    ChildResult child{childID, {}};
    if (const Result<std::optional<MessageWithParts>> last = store->message(result.lastAssistantID); last && *last) {
        for (const Part &part : (*last)->parts) {
            if (const TextPart *text = part.as<TextPart>())
                child.text = text->text;
        }
    }
    co_return child;
}

QCoro::Task<std::optional<QList<QStringList>>> Engine::Private::askQuestion(QuestionRequest request,
                                                                           QPointer<AbortSignal> abort)
{
    // The desk is made by open(), before any tool can run; a tool that
    // outlives the engine is answered "dismissed".
    QPointer<QuestionCenter> desk = questions.get();
    if (!desk)
        co_return std::nullopt;
    QCoro::Task<std::optional<QList<QStringList>>> asking = desk->ask(std::move(request), std::move(abort));
    const std::optional<QList<QStringList>> answers = co_await asking;
    co_return answers;
}

void Engine::Private::startTitle(const QString &sessionID)
{
    const Result<std::optional<Session>> session = store->session(sessionID);
    const Result<QList<MessageWithParts>> messages = store->messages(sessionID);
    if (!session || !*session || !messages || !TitleGenerator::needsTitle(**session, *messages))
        return;
    ModelRef current;
    for (const MessageWithParts &message : *messages) {
        if (const UserMessage *user = message.info.user())
            current = user->model;
    }
    ProjectInstance *instance = project((*session)->directory);
    const std::optional<Agent> agent = instance->agents().get(u"title"_s);
    const Result<ResolvedModel> model =
        instance->resolveModel(agent && agent->model ? *agent->model : instance->smallModel(current));
    if (!model)
        return;
    const ProviderClient client(network);
    auto startCall = [client, model = *model, agent](QObject *owner, QList<ModelMessage> messages) {
        ModelCallInput call;
        call.model = model;
        call.agent = agent;
        call.system = agent && agent->prompt ? QStringList{*agent->prompt} : QStringList{};
        call.messages = std::move(messages);
        return client.stream(ModelRequest::build(call), owner);
    };
    QCoro::Task<Result<QString>> titling = TitleGenerator::generate(*store, *this, sessionID, startCall, model->target());
    QCoro::connect(std::move(titling), q, [sessionID](const Result<QString> &title) {
        if (!title)
            qCInfo(lcSession) << "no title for" << sessionID << ":" << title.errorMessage();
    });
}

void Engine::Private::abort(const QString &sessionID)
{
    permissions->cancelSession(sessionID);
    questions->cancelSession(sessionID);
    if (PromptLoop *loop = loops.value(sessionID))
        loop->abortSignal()->abort();
}

void Engine::Private::fork(const QString &sessionID, const QString &messageID, const QString &newID)
{
    const Result<std::optional<Session>> session = store->session(sessionID);
    const Result<QList<MessageWithParts>> messages = store->messages(sessionID);
    if (!session || !*session || !messages) {
        publish(SessionError{sessionID, unknownError(tr("Session %1 cannot be forked: it does not exist.").arg(sessionID))});
        return;
    }
    const Result<QString> id = newID.isEmpty() ? Result<QString>(Identifier::descending(Identifier::Prefix::Session))
                                               : Identifier::descending(Identifier::Prefix::Session, newID);
    if (!id) {
        publish(SessionError{sessionID, unknownError(id.errorMessage())});
        return;
    }
    Session copy = **session;
    copy.id = *id;
    copy.slug = SessionSlug::create();
    copy.parentID.reset();
    copy.revert.reset();
    copy.time.created = now();
    copy.time.updated = copy.time.created;
    copy.title = tr("%1 (fork)").arg((*session)->title);
    const Result<void> written = store->transaction([&]() -> Result<void> {
        if (Result<void> saved = store->upsertSession(copy); !saved)
            return saved;
        // New ids, ascending in the original order, with parent links
        // rewritten so answers still point at their questions.
        QHash<QString, QString> renamed;
        for (const MessageWithParts &message : *messages) {
            Message info = message.info;
            const QString newMessageID = Identifier::ascending(Identifier::Prefix::Message);
            renamed.insert(info.id(), newMessageID);
            if (UserMessage *user = info.user()) {
                user->id = newMessageID;
                user->sessionID = copy.id;
            } else if (AssistantMessage *assistant = info.assistant()) {
                assistant->id = newMessageID;
                assistant->sessionID = copy.id;
                assistant->parentID = renamed.value(assistant->parentID, assistant->parentID);
            }
            if (Result<void> saved = store->updateMessage(info); !saved)
                return saved;
            for (Part part : message.parts) {
                part.id = Identifier::ascending(Identifier::Prefix::Part);
                part.sessionID = copy.id;
                part.messageID = newMessageID;
                if (Result<void> saved = store->updatePart(part); !saved)
                    return saved;
            }
            if (!messageID.isEmpty() && message.info.id() == messageID)
                break;
        }
        return {};
    });
    if (!written) {
        publish(SessionError{sessionID, unknownError(written.errorMessage())});
        return;
    }
    publish(SessionCreated{copy});
}

void Engine::Private::remove(const QString &sessionID)
{
    const Result<std::optional<Session>> session = store->session(sessionID);
    if (!session || !*session) {
        publish(SessionError{sessionID, unknownError(tr("Session %1 does not exist.").arg(sessionID))});
        return;
    }
    const Result<QList<Session>> children = store->children(sessionID);
    abort(sessionID);
    if (children) {
        for (const Session &child : *children)
            abort(child.id);
    }
    const Result<QStringList> removed = store->removeSession(sessionID);
    if (!removed) {
        publish(SessionError{sessionID, unknownError(removed.errorMessage())});
        return;
    }
    if (children) {
        for (const Session &child : *children) {
            permissions->forgetSession(child.id);
            publish(SessionDeleted{child});
        }
    }
    permissions->forgetSession(sessionID);
    publish(SessionDeleted{**session});
}

void Engine::Private::rename(const QString &sessionID, const QString &title)
{
    const QString trimmed = title.simplified();
    if (trimmed.isEmpty()) {
        publish(SessionError{sessionID, unknownError(tr("A session's title cannot be empty."))});
        return;
    }
    const Result<std::optional<Session>> session = ready() ? store->session(sessionID)
                                                           : Result<std::optional<Session>>(Error(tr("The database is not open.")));
    if (!session || !*session) {
        publish(SessionError{sessionID, unknownError(session ? tr("Session %1 does not exist.").arg(sessionID)
                                                             : session.errorMessage())});
        return;
    }
    Session renamed = **session;
    renamed.title = trimmed;
    renamed.time.updated = now();
    const Result<void> saved = store->upsertSession(renamed);
    if (!saved) {
        publish(SessionError{sessionID, unknownError(saved.errorMessage())});
        return;
    }
    publish(SessionUpdated{renamed});
}

QCoro::Task<> Engine::Private::revert(SessionRevert::Target target, bool undo)
{
    QPointer<Engine> guard(q);
    const QString sessionID = target.sessionID;
    const Result<std::optional<Session>> session = ready() ? store->session(sessionID)
                                                           : Result<std::optional<Session>>(Error(tr("The database is not open.")));
    if (!session || !*session) {
        publish(SessionError{sessionID, unknownError(session ? tr("Session %1 does not exist.").arg(sessionID)
                                                             : session.errorMessage())});
        co_return;
    }
    if (loops.contains(sessionID) || reverting.contains(sessionID)) {
        publish(SessionError{sessionID, unknownError(tr("Session %1 is busy: stop it or wait for it to finish, then undo again.")
                                                         .arg(sessionID))});
        co_return;
    }
    reverting.insert(sessionID);
    QPointer<SnapshotStore> snapshots = project((*session)->directory)->snapshots();
    QCoro::Task<Result<Session>> running = undo ? SessionRevert::unrevert(*store, *this, snapshots, sessionID, now())
                                                : SessionRevert::revert(*store, *this, snapshots, target, now());
    const Result<Session> done = co_await running;
    if (!guard)
        co_return;
    reverting.remove(sessionID);
    if (!done)
        publish(SessionError{sessionID, unknownError(done.errorMessage())});
}

Engine::Engine(EngineOptions options, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, std::move(options)))
{
    qRegisterMetaType<SessionEvent>();
    qRegisterMetaType<Session>();
    qRegisterMetaType<Message>();
    qRegisterMetaType<Part>();
    qRegisterMetaType<PartDelta>();
    qRegisterMetaType<SessionStatus>();
    qRegisterMetaType<PermissionRequest>();
    qRegisterMetaType<QuestionRequest>();
    qRegisterMetaType<PromptOutcome>();
    qRegisterMetaType<NamedError>();
}

Engine::~Engine()
{
    // Loops are children of this object; stop them before the store goes.
    for (PromptLoop *loop : std::as_const(d->loops))
        loop->abortSignal()->abort();
    d->permissions.reset();
    d->questions.reset();
    qDeleteAll(d->loops);
    d->loops.clear();
}

void Engine::open()
{
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (d->ready()) {
                Q_EMIT opened(true);
                return;
            }
            Result<std::unique_ptr<Store>> store = Store::open(d->options.databasePath);
            if (!store) {
                d->publish(SessionError{std::nullopt, unknownError(store.errorMessage())});
                Q_EMIT opened(false);
                return;
            }
            d->store = std::move(*store);
            d->network = new QNetworkAccessManager(this);
            d->permissions = std::make_unique<PermissionCenter>(*d, d->options.askPolicy);
            d->permissions->setApprovalStore(d->store.get());
            connect(d->permissions.get(), &PermissionCenter::projectApprovalsChanged, this,
                    &Engine::projectApprovalsChanged);
            d->housekeeping = new QTimer(this);
            connect(d->housekeeping, &QTimer::timeout, this, [this] { d->housekeep(); });
            d->housekeeping->start(d->options.housekeepingInterval);
            d->housekeep();
            d->questions = std::make_unique<QuestionCenter>(*d, d->options.askPolicy);
            Q_EMIT opened(true);
        },
        Qt::QueuedConnection);
}

void Engine::createSession(NewSession session)
{
    QMetaObject::invokeMethod(this, [this, session] { d->createSession(session); }, Qt::QueuedConnection);
}

void Engine::prompt(PromptInput input)
{
    QMetaObject::invokeMethod(
        this, [this, input] { QCoro::connect(d->runPrompt(input), this, [] {}); }, Qt::QueuedConnection);
}

void Engine::abort(const QString &sessionID)
{
    QMetaObject::invokeMethod(this, [this, sessionID] { d->abort(sessionID); }, Qt::QueuedConnection);
}

void Engine::compact(const QString &sessionID)
{
    QMetaObject::invokeMethod(
        this,
        [this, sessionID] {
            // Manual compaction: a user message with one compaction part
            // (auto false), answered by the loop (reference §5.3).
            // A pending revert is settled first, as a prompt settles it:
            // the summary must not cover what the person took back.
            if (d->ready()) {
                if (const Result<std::optional<Session>> session = d->store->session(sessionID); session && *session) {
                    if (const Result<Session> cleaned = SessionRevert::cleanup(*d->store, *d, **session); !cleaned)
                        qCWarning(lcSession) << "revert cleanup of" << sessionID << "failed:" << cleaned.errorMessage();
                }
            }
            const Result<QList<MessageWithParts>> history = d->ready() ? d->store->history(sessionID)
                                                                       : Result<QList<MessageWithParts>>(Error(tr("The database is not open.")));
            const UserMessage *last = nullptr;
            if (history) {
                for (qsizetype i = history->size() - 1; i >= 0 && !last; --i)
                    last = history->at(i).info.user();
            }
            if (!last) {
                const NamedError error = unknownError(tr("There is nothing to compact in session %1.").arg(sessionID));
                d->publish(SessionError{sessionID, error});
                Q_EMIT promptFinished(PromptOutcome{sessionID, {}, error, false});
                return;
            }
            SessionCompaction::Request request{sessionID, last->agent, last->model, false, std::nullopt, d->now()};
            if (Result<MessageWithParts> created = SessionCompaction::create(*d->store, *d, request); !created) {
                const NamedError error = unknownError(created.errorMessage());
                d->publish(SessionError{sessionID, error});
                Q_EMIT promptFinished(PromptOutcome{sessionID, {}, error, false});
                return;
            }
            if (d->loops.contains(sessionID)) {
                ++d->queuedCallers[sessionID];
                return;
            }
            const Result<std::optional<Session>> session = d->store->session(sessionID);
            ProjectInstance *instance = d->project((*session)->directory);
            QCoro::connect(d->runLoop(sessionID, *instance), this,
                           [this, sessionID](const LoopResult &result) {
                               d->finish(sessionID, result, 1 + d->queuedCallers.take(sessionID));
                           });
        },
        Qt::QueuedConnection);
}

void Engine::replyPermission(const QString &requestID, PermissionReply reply, const QString &message,
                             ApprovalScope scope)
{
    QMetaObject::invokeMethod(
        this,
        [this, requestID, reply, message, scope] {
            if (d->permissions && !d->permissions->reply(requestID, reply, message, scope))
                qCInfo(lcSession) << "permission" << requestID << "was already answered";
        },
        Qt::QueuedConnection);
}

void Engine::setProjectApprovals(const QString &projectID, const PermissionRuleset &rules)
{
    QMetaObject::invokeMethod(
        this,
        [this, projectID, rules] {
            if (!d->permissions)
                return;
            if (Result<void> saved = d->permissions->setProjectApprovals(projectID, rules); !saved)
                d->publish(SessionError{std::nullopt, unknownError(saved.errorMessage())});
        },
        Qt::QueuedConnection);
}

void Engine::replyQuestion(const QString &requestID, const QList<QStringList> &answers)
{
    QMetaObject::invokeMethod(
        this,
        [this, requestID, answers] {
            if (d->questions && !d->questions->reply(requestID, answers))
                qCInfo(lcSession) << "question" << requestID << "was already answered";
        },
        Qt::QueuedConnection);
}

void Engine::rejectQuestion(const QString &requestID)
{
    QMetaObject::invokeMethod(
        this,
        [this, requestID] {
            if (d->questions && !d->questions->reject(requestID))
                qCInfo(lcSession) << "question" << requestID << "was already answered";
        },
        Qt::QueuedConnection);
}

void Engine::fork(const QString &sessionID, const QString &messageID, const QString &newID)
{
    QMetaObject::invokeMethod(this, [this, sessionID, messageID, newID] { d->fork(sessionID, messageID, newID); },
                              Qt::QueuedConnection);
}

void Engine::deleteSession(const QString &sessionID)
{
    QMetaObject::invokeMethod(this, [this, sessionID] { d->remove(sessionID); }, Qt::QueuedConnection);
}

void Engine::renameSession(const QString &sessionID, const QString &title)
{
    QMetaObject::invokeMethod(this, [this, sessionID, title] { d->rename(sessionID, title); }, Qt::QueuedConnection);
}

void Engine::revert(const QString &sessionID, const QString &messageID, const std::optional<QString> &partID)
{
    QMetaObject::invokeMethod(
        this,
        [this, target = SessionRevert::Target{sessionID, messageID, partID}] {
            QCoro::connect(d->revert(target, false), this, [] {});
        },
        Qt::QueuedConnection);
}

void Engine::unrevert(const QString &sessionID)
{
    QMetaObject::invokeMethod(
        this,
        [this, target = SessionRevert::Target{sessionID, {}, std::nullopt}] {
            QCoro::connect(d->revert(target, true), this, [] {});
        },
        Qt::QueuedConnection);
}

bool Engine::isBusy(const QString &sessionID) const
{
    return d->loops.contains(sessionID);
}

} // namespace qcode
