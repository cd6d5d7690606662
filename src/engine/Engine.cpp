#include "Engine.h"

#include <QCoro/QCoroSignal>
#include <QCoro/QCoroTask>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QNetworkAccessManager>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/agent/PermissionRules.h"
#include "engine/catalogue/ModelCatalogue.h"
#include "engine/command/CommandPrompt.h"
#include "engine/command/CommandRegistry.h"
#include "engine/command/CommandTemplate.h"
#include "engine/command/TemplateShell.h"
#include "engine/config/DataPaths.h"
#include "engine/message/FileReader.h"
#include "engine/message/UserMessageBuilder.h"
#include "engine/session/ChildRunner.h"
#include "engine/session/loop/ModelRequest.h"
#include "engine/session/project/ProjectCache.h"
#include "engine/session/project/ProjectInstance.h"
#include "engine/session/loop/PromptLoop.h"
#include "engine/session/PromptQueue.h"
#include "engine/session/asks/QuestionCenter.h"
#include "engine/session/SessionLogging.h"
#include "engine/session/compaction/SessionCompaction.h"
#include "engine/session/SessionRevert.h"
#include "engine/session/SessionScheduler.h"
#include "engine/session/shell/SessionShell.h"
#include "engine/session/SessionSlug.h"
#include "engine/session/loop/TitleGenerator.h"
#include "engine/session/shell/UserShell.h"
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

bool mayUseTask(const Agent &agent)
{
    return PermissionRules::evaluate(u"task"_s, u"*"_s, agent.permission).action != PermissionAction::Deny;
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
    bool busy(const QString &sessionID) const { return scheduler && scheduler->busy(sessionID); }
    std::shared_ptr<LoadedProject> loaded(const QString &directory) { return projects->loaded(directory); }
    ProjectInstance *project(const QString &directory) { return projects->project(directory); }
    // Made in open(), on the engine thread, once the store is there.
    void makeParts();
    std::shared_ptr<ToolRunner> makeTools(ProjectInstance &project);
    LoopServices loopServices();
    Result<Session> existingSession(const QString &sessionID) const;
    // The session's last user model, else the project's default.
    ModelRef currentModel(const QString &sessionID, const ProjectInstance &project) const;
    QProcessEnvironment shellEnvironment() const;

    // The new session's id; empty when it was refused (told by SessionError).
    QString createSession(NewSession spec);
    QCoro::Task<> runPrompt(PromptInput input);
    QCoro::Task<> runCommand(CommandInput input);
    QCoro::Task<> runShell(ShellInput input);
    QCoro::Task<Result<MessageWithParts>> storeUserMessage(PromptInput input);
    QCoro::Task<std::optional<QList<QStringList>>> askQuestion(QuestionRequest request, QPointer<AbortSignal> abort);
    void startTitle(const QString &sessionID);
    void windDown(int graceMs);
    void announceWoundDown();
    void finish(const QString &sessionID, const LoopResult &result, int callers);
    void fail(const QString &sessionID, const QString &message);
    void fail(const QString &sessionID, const NamedError &error);
    // The project's first config error, as OpenCode names it, when it has one.
    static std::optional<NamedError> configRefusal(const ProjectInstance &project);
    void abort(const QString &sessionID);
    void sendQueued(const QString &sessionID, const QString &queueID);
    QCoro::Task<> describe(QString directory);
    void resume(const QString &sessionID);
    void fork(const QString &sessionID, const QString &messageID, const QString &newID);
    QCoro::Task<> remove(QString sessionID);
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
    std::unique_ptr<ProjectCache> projects;
    SessionScheduler *scheduler = nullptr; // a child of the engine, deleted first
    std::unique_ptr<ChildRunner> children;
    QTimer *housekeeping = nullptr; // made in open(), in the engine's thread
    // Titles being generated, and what cuts their calls short once the
    // engine is asked to wind down (windDown).
    int titlesRunning = 0;
    AbortSignal *titleStop = nullptr; // made with the first title, in the engine's thread
    bool windingDown = false;
};

void Engine::Private::housekeep()
{
    // A folder scan: off the engine thread, so no stream waits on it.
    const QString dataDirectory = options.dataDirectory;
    // A watcher owned by the engine, not QFuture::then(q, …): Qt 6.4
    // asserts when a continuation's context died before the scan ended.
    auto *watcher = new QFutureWatcher<int>(q);
    QObject::connect(watcher, &QFutureWatcher<int>::finished, q, [watcher] {
        watcher->deleteLater();
        if (const int removed = watcher->result(); removed > 0)
            qCInfo(lcSession) << "housekeeping removed" << removed << "saved tool outputs older than"
                              << OutputTruncation::RetentionDays << "days";
    });
    watcher->setFuture(QtConcurrent::run([dataDirectory] { return OutputTruncation(dataDirectory).removeExpired(); }));
}

void Engine::Private::publish(const SessionEvent &event)
{
    if (const auto *error = std::get_if<SessionError>(&event))
        Q_EMIT q->sessionError(error->sessionID, error->error);
    Q_EMIT q->event(event);
}

void Engine::Private::makeParts()
{
    ProjectCache::Options cache;
    cache.locations = options.locations;
    cache.dataDirectory = options.dataDirectory;
    cache.secrets = options.secrets;
    cache.localServerProbes = options.localServerProbes;
    cache.makeTools = [this](ProjectInstance &project) { return makeTools(project); };
    cache.mcpEnvironment = shellEnvironment();
    cache.mcpWaitMs = int(options.mcpFirstPromptWait.count());
    projects = std::make_unique<ProjectCache>(std::move(cache), *store, q);

    SessionScheduler::Services running;
    running.sink = this;
    running.store = store.get();
    running.projects = projects.get();
    running.loopServices = [this] { return loopServices(); };
    running.storePrompt = [this](PromptInput input) { return storeUserMessage(std::move(input)); };
    running.cancelAsks = [this](const QString &sessionID) {
        permissions->cancelSession(sessionID);
        questions->cancelSession(sessionID);
    };
    running.finished = [this](const QString &sessionID, const LoopResult &result, int callers) {
        finish(sessionID, result, callers);
    };
    running.fail = [this](const QString &sessionID, const NamedError &error) { fail(sessionID, error); };
    running.stopped = [this] { announceWoundDown(); };
    running.now = [this] { return now(); };
    // Beside the database: every qcode on it sees the same locks.
    running.lockDirectory = options.databasePath + u".locks"_s;
    scheduler = new SessionScheduler(std::move(running), q);

    ChildRunner::Services child;
    child.store = store.get();
    child.projects = projects.get();
    child.scheduler = scheduler;
    child.createSession = [this](const QString &directory, const QString &parentID, const QString &title) {
        return createSession(NewSession{Identifier::descending(Identifier::Prefix::Session), directory, parentID, title});
    };
    child.storePrompt = [this](PromptInput input) { return storeUserMessage(std::move(input)); };
    children = std::make_unique<ChildRunner>(std::move(child), q);
}

std::shared_ptr<ToolRunner> Engine::Private::makeTools(ProjectInstance &project)
{
    if (options.tools)
        return options.tools(project);
    ToolServices services{store.get(), this, options.dataDirectory, &fileTimes, network, &project.agents(), {}, {}};
    services.runChild = [this](ChildRequest request) { return children->run(std::move(request)); };
    services.askQuestion = [this](QuestionRequest request, QPointer<AbortSignal> abort) {
        return askQuestion(std::move(request), std::move(abort));
    };
    const AgentRegistry agents = project.agents();
    return makeBuiltinToolRegistry(services, [agents](const QString &agent) {
        const Agent *found = agents.find(agent);
        return found && mayUseTask(*found);
    });
}

Result<Session> Engine::Private::existingSession(const QString &sessionID) const
{
    if (!ready())
        return Error(tr("The database is not open."));
    const Result<std::optional<Session>> session = store->session(sessionID);
    if (!session)
        return Error(session.errorMessage());
    if (!*session)
        return Error(tr("Session %1 does not exist.").arg(sessionID));
    return **session;
}

ModelRef Engine::Private::currentModel(const QString &sessionID, const ProjectInstance &project) const
{
    if (const Result<QList<MessageWithParts>> history = store->history(sessionID); history) {
        for (qsizetype i = history->size() - 1; i >= 0; --i) {
            if (const UserMessage *user = history->at(i).info.user())
                return user->model;
        }
    }
    const Result<ModelRef> model = project.defaultModel();
    return model ? *model : ModelRef();
}

QProcessEnvironment Engine::Private::shellEnvironment() const
{
    // An engine given no environment (tests keep API keys out that way)
    // still runs the person's commands with the system's, PATH included.
    return options.environment.isEmpty() ? QProcessEnvironment::systemEnvironment() : options.environment;
}

void Engine::Private::fail(const QString &sessionID, const QString &message)
{
    fail(sessionID, unknownError(message));
}

void Engine::Private::fail(const QString &sessionID, const NamedError &error)
{
    publish(SessionError{sessionID, error});
    Q_EMIT q->promptFinished(PromptOutcome{sessionID, {}, error, false});
}

std::optional<NamedError> Engine::Private::configRefusal(const ProjectInstance &project)
{
    const Result<void> checked = project.checkConfig();
    if (checked)
        return std::nullopt;
    return NamedError{u"ConfigInvalidError"_s, {{u"message"_s, checked.errorMessage()}}};
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
    services.maxConsecutiveCompactions = options.maxConsecutiveCompactions;
    if (options.generateTitles)
        services.startTitle = [this](const QString &sessionID) { startTitle(sessionID); };
    services.runChild = [this](ChildRequest request) { return children->run(std::move(request)); };
    services.takeQueued = [this](const QString &sessionID) { return scheduler->takeQueued(sessionID); };
    return services;
}

QString Engine::Private::createSession(NewSession spec)
{
    if (!ready()) {
        publish(SessionError{std::nullopt, unknownError(tr("The database is not open."))});
        return {};
    }
    const Result<QString> id = spec.id.isEmpty() ? Result<QString>(Identifier::descending(Identifier::Prefix::Session))
                                                 : Identifier::descending(Identifier::Prefix::Session, spec.id);
    if (!id) {
        publish(SessionError{std::nullopt, unknownError(id.errorMessage())});
        return {};
    }
    ProjectInstance *instance = project(spec.directory);
    // A project whose config is broken gets nothing made for it.
    if (const std::optional<NamedError> refused = configRefusal(*instance)) {
        publish(SessionError{spec.id.isEmpty() ? std::nullopt : std::optional(spec.id), *refused});
        return {};
    }
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
        return {};
    }
    publish(SessionCreated{session});
    return session.id;
}

QCoro::Task<Result<MessageWithParts>> Engine::Private::storeUserMessage(PromptInput input)
{
    const Result<std::optional<Session>> session = store->session(input.sessionID);
    if (!session)
        co_return Error(session.errorMessage());
    if (!*session)
        co_return Error(tr("Session %1 does not exist.").arg(input.sessionID));
    // Held while the message is built: a reload cannot take it away.
    const std::shared_ptr<LoadedProject> loadedProject = loaded((*session)->directory);
    ProjectInstance &project = *loadedProject->instance;

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

    // A new message only: ids the caller chose (input.messageID, a part's
    // id) that are stored already are refused, never written over another
    // message, and nothing of the message is kept.
    const MessageWithParts &message = built->message;
    const Result<void> saved = store->transaction([&]() -> Result<void> {
        if (Result<void> inserted = store->insertMessage(message.info); !inserted)
            return inserted;
        for (const Part &part : message.parts) {
            if (Result<void> inserted = store->insertPart(part); !inserted)
                return inserted;
        }
        return {};
    });
    if (!saved)
        co_return Error(saved.errorMessage());
    publish(MessageUpdated{message.info});
    for (const Part &part : message.parts)
        publish(PartUpdated{part});

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
    const Result<Session> session = existingSession(sessionID);
    if (!session) {
        fail(sessionID, session.errorMessage());
        co_return;
    }
    // Before the busy check: the session may become busy meanwhile.
    std::shared_ptr<LoadedProject> project = loaded(session->directory);
    if (const std::optional<NamedError> refused = configRefusal(*project->instance)) {
        fail(sessionID, *refused);
        co_return;
    }
    QCoro::Task<> keys = ProjectCache::ready(project);
    co_await keys;
    if (!guard)
        co_return;
    // Files are being put back: nothing may start on the old ones, and
    // the prompt would land among messages about to be hidden.
    if (scheduler->reverting(sessionID)) {
        fail(sessionID, tr("Session %1 is being reverted; send the prompt again when it is done.").arg(sessionID));
        co_return;
    }
    // Busy: the prompt waits, still editable, until the loop takes it
    // (takeQueued) or the session is free again (startPending).
    if (busy(sessionID)) {
        scheduler->enqueue(std::move(input));
        co_return;
    }
    if (const Result<void> claimed = scheduler->claim(sessionID); !claimed) {
        fail(sessionID, claimed.errorMessage());
        co_return;
    }
    // A pending revert's hidden messages go before the new one comes
    // (reference §2.1).
    if (const Result<Session> cleaned = SessionRevert::cleanup(*store, *this, *session); !cleaned) {
        scheduler->releaseIfIdle(sessionID);
        fail(sessionID, cleaned.errorMessage());
        co_return;
    }
    QCoro::Task<Result<MessageWithParts>> storing = storeUserMessage(input);
    const Result<MessageWithParts> stored = co_await storing;
    if (!guard)
        co_return;
    if (!stored) {
        scheduler->releaseIfIdle(sessionID);
        fail(sessionID, stored.errorMessage());
        co_return;
    }
    scheduler->addWaiting(sessionID);
    if (!busy(sessionID))
        scheduler->startLoop(sessionID, project);
}

void Engine::Private::finish(const QString &sessionID, const LoopResult &result, int callers)
{
    const PromptOutcome outcome{sessionID, result.lastAssistantID, result.error, result.aborted};
    for (int i = 0; i < callers; ++i)
        Q_EMIT q->promptFinished(outcome);
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
    if (windingDown || !session || !*session || !messages || !TitleGenerator::needsTitle(**session, *messages))
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
    if (!model) {
        // No model to name it: the person's first words do, so the list
        // never shows a row of identical "New session"s.
        if (const QString words = TitleGenerator::fromPrompt(*messages); !words.isEmpty()) {
            if (const Result<QString> named = TitleGenerator::apply(*store, *this, sessionID, words); !named)
                qCInfo(lcSession) << "no title for" << sessionID << ":" << named.errorMessage();
        }
        return;
    }
    const ProviderClient client(network);
    auto startCall = [client, model = *model, agent](QObject *owner, QList<ModelMessage> messages) {
        ModelCallInput call;
        call.model = model;
        call.agent = agent;
        call.system = agent && agent->prompt ? QStringList{*agent->prompt} : QStringList{};
        call.messages = std::move(messages);
        return client.stream(ModelRequest::build(call), owner);
    };
    if (!titleStop)
        titleStop = new AbortSignal(q);
    QCoro::Task<Result<QString>> titling =
        TitleGenerator::generate(*store, *this, sessionID, startCall, model->target(), titleStop);
    ++titlesRunning;
    QCoro::connect(std::move(titling), q, [this, sessionID](const Result<QString> &title) {
        if (!title)
            qCInfo(lcSession) << "no title for" << sessionID << ":" << title.errorMessage();
        --titlesRunning;
        announceWoundDown();
    });
}

void Engine::Private::windDown(int graceMs)
{
    windingDown = true;
    if (scheduler)
        scheduler->windDown();
    if (titlesRunning > 0 && titleStop)
        QTimer::singleShot(std::max(0, graceMs), titleStop, &AbortSignal::abort);
    announceWoundDown();
}

void Engine::Private::announceWoundDown()
{
    if (windingDown && titlesRunning == 0 && (!scheduler || scheduler->idle()))
        Q_EMIT q->woundDown();
}

void Engine::Private::abort(const QString &sessionID)
{
    if (scheduler)
        scheduler->abort(sessionID);
}

void Engine::Private::sendQueued(const QString &sessionID, const QString &queueID)
{
    if (std::optional<PromptInput> taken = scheduler->takeForSending(sessionID, queueID))
        QCoro::connect(runPrompt(std::move(*taken)), q, [] {});
}

QCoro::Task<> Engine::Private::describe(QString directory)
{
    QPointer<Engine> guard(q);
    if (!ready()) {
        publish(SessionError{std::nullopt, unknownError(tr("The database is not open."))});
        co_return;
    }
    if (!QFileInfo(directory).isDir()) {
        ProjectSummary summary;
        summary.directory = directory;
        summary.problems.append(tr("The folder %1 does not exist.").arg(directory));
        Q_EMIT q->projectDescribed(summary);
        co_return;
    }
    const std::shared_ptr<LoadedProject> project = loaded(directory);
    // The models offered depend on the keys the keychain holds.
    QCoro::Task<> keys = ProjectCache::ready(project);
    co_await keys;
    if (!guard)
        co_return;
    Q_EMIT q->projectDescribed(ProjectSummary::describe(*project->instance, project->commands, ModelCatalogue::bundled()));
}

QCoro::Task<> Engine::Private::runCommand(CommandInput input)
{
    QPointer<Engine> guard(q);
    const QString sessionID = input.sessionID;
    const Result<Session> session = existingSession(sessionID);
    if (!session) {
        fail(sessionID, session.errorMessage());
        co_return;
    }
    // Held while the !`cmd` segments run: a reload cannot take it away.
    const std::shared_ptr<LoadedProject> project = loaded(session->directory);
    if (const std::optional<NamedError> refused = configRefusal(*project->instance)) {
        fail(sessionID, *refused);
        co_return;
    }
    QCoro::Task<> keys = ProjectCache::ready(project);
    co_await keys;
    if (!guard)
        co_return;
    const ProjectInstance &instance = *project->instance;
    const CommandDefinition *found = project->commands.find(input.command);
    if (!found) {
        fail(sessionID, CommandPrompt::notFound(input.command, project->commands.names()));
        co_return;
    }
    const CommandDefinition command = *found;

    CommandDefaults defaults;
    defaults.agents = &instance.agents();
    const Result<QString> defaultAgent = instance.agents().defaultAgent();
    defaults.defaultAgent = defaultAgent ? *defaultAgent : u"build"_s;
    defaults.currentModel = currentModel(sessionID, instance);
    defaults.checkModel = [&instance](const ModelRef &ref) -> Result<void> {
        if (const Result<ResolvedModel> model = instance.resolveModel(ref); !model)
            return Error(model.errorMessage());
        return {};
    };
    defaults.referenceRoot = instance.worktree().isEmpty() ? instance.directory() : instance.worktree();
    defaults.homeDirectory = project->homeDirectory;
    const Result<CommandPlan> plan = CommandPrompt::plan(command, input, defaults);
    if (!plan) {
        fail(sessionID, plan.errorMessage());
        co_return;
    }

    const QProcessEnvironment environment = shellEnvironment();
    QCoro::Task<QString> expanding = TemplateShell::expand(
        CommandTemplate::expand(command.templateText, input.arguments),
        TemplateShell::Options{UserShell::preferred(environment), instance.directory(), environment,
                               TemplateShell::DefaultTimeoutMs});
    const QString text = (co_await expanding).trimmed();
    if (!guard)
        co_return;
    qCInfo(lcSession) << sessionID << "runs the command" << command.name << "from" << command.source;
    QCoro::Task<> prompting = runPrompt(CommandPrompt::build(command, input, *plan, text, defaults));
    co_await prompting;
}

void Engine::Private::resume(const QString &sessionID)
{
    const Result<Session> session = existingSession(sessionID);
    if (!session) {
        fail(sessionID, session.errorMessage());
        return;
    }
    if (busy(sessionID)) {
        fail(sessionID, tr("Session %1 is busy: wait for it to finish or stop it, then retry.").arg(sessionID));
        return;
    }
    if (const Result<void> claimed = scheduler->claim(sessionID); !claimed) {
        fail(sessionID, claimed.errorMessage());
        return;
    }
    // What the person took back stays taken back, as before a prompt.
    const Result<Session> cleaned = SessionRevert::cleanup(*store, *this, *session);
    const Result<QList<MessageWithParts>> history = cleaned ? store->history(sessionID)
                                                            : Result<QList<MessageWithParts>>(Error(cleaned.errorMessage()));
    if (!history) {
        scheduler->releaseIfIdle(sessionID);
        fail(sessionID, history.errorMessage());
        return;
    }
    const UserMessage *lastUser = nullptr;
    const AssistantMessage *lastAssistant = nullptr;
    for (qsizetype i = history->size() - 1; i >= 0 && !lastUser; --i) {
        lastUser = history->at(i).info.user();
        if (!lastAssistant)
            lastAssistant = history->at(i).info.assistant();
    }
    if (!lastUser) {
        scheduler->releaseIfIdle(sessionID);
        fail(sessionID, tr("Session %1 has no prompt to retry.").arg(sessionID));
        return;
    }
    // The loop's own exit condition (reference §2.3, step 5), for a turn
    // that ended well: there is nothing to run again.
    const bool answered = lastAssistant && !lastAssistant->error && lastAssistant->finish
                          && *lastAssistant->finish != u"tool-calls"_s && *lastAssistant->finish != u"unknown"_s;
    if (answered) {
        scheduler->releaseIfIdle(sessionID);
        fail(sessionID, tr("Session %1 has nothing to retry: its last prompt was answered.").arg(sessionID));
        return;
    }
    qCInfo(lcSession) << sessionID << "resumes its loop";
    scheduler->addWaiting(sessionID);
    scheduler->startLoop(sessionID, loaded(session->directory));
}

QCoro::Task<> Engine::Private::runShell(ShellInput input)
{
    QPointer<Engine> guard(q);
    const QString sessionID = input.sessionID;
    const Result<Session> session = existingSession(sessionID);
    if (!session) {
        publish(SessionError{sessionID, unknownError(session.errorMessage())});
        co_return;
    }
    // The model is resolved with the keychain's keys; the busy check
    // comes after the wait for them.
    const std::shared_ptr<LoadedProject> project = loaded(session->directory);
    if (const std::optional<NamedError> refused = configRefusal(*project->instance)) {
        publish(SessionError{sessionID, *refused});
        co_return;
    }
    QCoro::Task<> keys = ProjectCache::ready(project);
    co_await keys;
    if (!guard)
        co_return;
    if (busy(sessionID)) {
        publish(SessionError{sessionID, unknownError(tr("Session %1 is busy: wait for it to finish or stop it, then "
                                                        "run the command again.")
                                                         .arg(sessionID))});
        co_return;
    }
    if (const Result<void> claimed = scheduler->claim(sessionID); !claimed) {
        publish(SessionError{sessionID, unknownError(claimed.errorMessage())});
        co_return;
    }
    const Result<Session> cleaned = SessionRevert::cleanup(*store, *this, *session);
    if (!cleaned) {
        scheduler->releaseIfIdle(sessionID);
        publish(SessionError{sessionID, unknownError(cleaned.errorMessage())});
        co_return;
    }
    const ProjectInstance &instance = *project->instance;
    const Result<QString> defaultAgent = instance.agents().defaultAgent();
    const QString agentName = input.agent.value_or(defaultAgent ? *defaultAgent : u"build"_s);
    const Agent *agent = instance.agents().find(agentName);
    if (!agent) {
        scheduler->releaseIfIdle(sessionID);
        publish(SessionError{sessionID, unknownError(tr("Agent not found: \"%1\".").arg(agentName))});
        co_return;
    }

    ShellRun run;
    run.sessionID = sessionID;
    run.command = input.command;
    run.agent = agent->name;
    run.model = input.model.value_or(agent->model.value_or(currentModel(sessionID, instance)));
    run.directory = instance.directory();
    run.worktree = instance.worktree();
    run.environment = shellEnvironment();
    run.shell = UserShell::preferred(run.environment);
    run.dataDirectory = options.dataDirectory;
    run.agentCanUseTask = mayUseTask(*agent);
    run.abort = scheduler->beginShell(sessionID);
    publish(SessionStatusChanged{sessionID, SessionStatus::busy()});

    QCoro::Task<Result<QString>> running = SessionShell::run(*store, *this, run, [this] { return now(); });
    const Result<QString> done = co_await running;
    if (!guard)
        co_return;
    if (!done)
        publish(SessionError{sessionID, unknownError(done.errorMessage())});
    scheduler->endShell(sessionID);
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

QCoro::Task<> Engine::Private::remove(QString sessionID)
{
    QPointer<Engine> guard(q);
    const Result<std::optional<Session>> session = ready() ? store->session(sessionID)
                                                           : Result<std::optional<Session>>(Error(tr("The database is not open.")));
    if (!session || !*session) {
        publish(SessionError{sessionID, unknownError(tr("Session %1 does not exist.").arg(sessionID))});
        co_return;
    }
    const Result<QList<Session>> children = store->children(sessionID);
    QStringList affected{sessionID};
    if (children) {
        for (const Session &child : *children)
            affected.append(child.id);
    }
    // Stopped first, and waited for: a loop winding down still writes its
    // stopped turn, which must land before the rows go, and nothing may
    // be published for a session that is gone.
    for (const QString &id : std::as_const(affected)) {
        scheduler->beginDeletion(id);
        scheduler->dropQueue(id);
        scheduler->abort(id);
    }
    QCoro::Task<> stopping = scheduler->waitStopped(affected);
    co_await stopping;
    if (!guard)
        co_return;
    const Result<QStringList> removed = store->removeSession(sessionID);
    for (const QString &id : std::as_const(affected))
        scheduler->endDeletion(id);
    if (!removed) {
        publish(SessionError{sessionID, unknownError(removed.errorMessage())});
        co_return;
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
    if (busy(sessionID)) {
        publish(SessionError{sessionID, unknownError(tr("Session %1 is busy: stop it or wait for it to finish, then undo again.")
                                                         .arg(sessionID))});
        co_return;
    }
    if (const Result<void> claimed = scheduler->claim(sessionID); !claimed) {
        publish(SessionError{sessionID, unknownError(claimed.errorMessage())});
        co_return;
    }
    scheduler->beginRevert(sessionID);
    // Held until the revert ends: a reload cannot take the snapshots away.
    const std::shared_ptr<LoadedProject> project = loaded((*session)->directory);
    QPointer<SnapshotStore> snapshots = project->instance->snapshots();
    QCoro::Task<Result<Session>> running = undo ? SessionRevert::unrevert(*store, *this, snapshots, sessionID, now())
                                                : SessionRevert::revert(*store, *this, snapshots, target, now());
    const Result<Session> done = co_await running;
    if (!guard)
        co_return;
    scheduler->endRevert(sessionID);
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
    qRegisterMetaType<DequeueReason>();
    qRegisterMetaType<ProjectSummary>();
    qRegisterMetaType<CommandInput>();
    qRegisterMetaType<ShellInput>();
}

Engine::~Engine()
{
    // Loops and shell commands stop before the store goes.
    delete d->scheduler;
    d->scheduler = nullptr;
    d->permissions.reset();
    d->questions.reset();
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
            d->makeParts();
            d->scheduler->recoverAllInterrupted();
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

void Engine::resume(const QString &sessionID)
{
    QMetaObject::invokeMethod(this, [this, sessionID] { d->resume(sessionID); }, Qt::QueuedConnection);
}

void Engine::windDown(int graceMs)
{
    QMetaObject::invokeMethod(this, [this, graceMs] { d->windDown(graceMs); }, Qt::QueuedConnection);
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
            if (d->ready() && d->scheduler->reverting(sessionID)) {
                d->fail(sessionID, tr("Session %1 is being reverted; compact it when that is done.").arg(sessionID));
                return;
            }
            if (d->ready()) {
                if (const Result<std::optional<Session>> session = d->store->session(sessionID); session && *session) {
                    if (const std::optional<NamedError> refused =
                            Private::configRefusal(*d->loaded((*session)->directory)->instance)) {
                        d->fail(sessionID, *refused);
                        return;
                    }
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
            // Busy: the running loop (or the one after the shell command)
            // answers the request.
            d->scheduler->addWaiting(sessionID);
            if (d->busy(sessionID))
                return;
            if (const Result<Session> session = d->existingSession(sessionID); session)
                d->scheduler->startLoop(sessionID, d->loaded(session->directory));
            else
                d->fail(sessionID, session.errorMessage());
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
    QMetaObject::invokeMethod(
        this, [this, sessionID] { QCoro::connect(d->remove(sessionID), this, [] {}); }, Qt::QueuedConnection);
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

void Engine::command(CommandInput input)
{
    QMetaObject::invokeMethod(
        this, [this, input] { QCoro::connect(d->runCommand(input), this, [] {}); }, Qt::QueuedConnection);
}

void Engine::shell(ShellInput input)
{
    QMetaObject::invokeMethod(
        this, [this, input] { QCoro::connect(d->runShell(input), this, [] {}); }, Qt::QueuedConnection);
}

void Engine::editQueuedPrompt(const QString &sessionID, const QString &queueID, const QString &text)
{
    QMetaObject::invokeMethod(this, [this, sessionID, queueID, text] {
            if (d->scheduler)
                d->scheduler->editQueued(sessionID, queueID, text);
        },
                              Qt::QueuedConnection);
}

void Engine::removeQueuedPrompt(const QString &sessionID, const QString &queueID)
{
    QMetaObject::invokeMethod(this, [this, sessionID, queueID] {
            if (d->scheduler)
                d->scheduler->removeQueued(sessionID, queueID);
        },
                              Qt::QueuedConnection);
}

void Engine::sendQueuedPrompt(const QString &sessionID, const QString &queueID)
{
    QMetaObject::invokeMethod(this, [this, sessionID, queueID] {
            if (d->scheduler)
                d->sendQueued(sessionID, queueID);
        },
                              Qt::QueuedConnection);
}

void Engine::describeProject(const QString &directory)
{
    QMetaObject::invokeMethod(
        this, [this, directory] { QCoro::connect(d->describe(directory), this, [] {}); }, Qt::QueuedConnection);
}

void Engine::reloadProject(const QString &directory)
{
    QMetaObject::invokeMethod(
        this,
        [this, directory] {
            // What runs on the old one keeps it until it ends.
            if (d->projects)
                d->projects->forget(directory);
            QCoro::connect(d->describe(directory), this, [] {});
        },
        Qt::QueuedConnection);
}

bool Engine::isBusy(const QString &sessionID) const
{
    return d->busy(sessionID);
}

} // namespace qcode
