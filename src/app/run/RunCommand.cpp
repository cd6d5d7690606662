#include "RunCommand.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QThread>
#include <QTimer>

#include <cstdio>

#include "RunInterrupt.h"
#include "RunSessionLookup.h"
#include "engine/command/CommandRegistry.h"
#include "engine/config/DataPaths.h"
#include "engine/config/KeychainSecretStore.h"
#include "engine/session/project/ProjectInstance.h"
#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// How long a finished run lets the session's title, still being
// generated, arrive: a session `qcode sessions` lists by its title.
constexpr int TitleGraceMs = 5000;
// How long a finished run waits for the engine thread to wind down before
// it exits regardless.
constexpr int EngineStopTimeoutMs = 10000;

// What the engine publishes when nobody can answer a permission or a
// question in a headless run.
bool isRefusal(const NamedError &error)
{
    return error.name == "PermissionRefused"_L1 || error.name == "QuestionRefused"_L1;
}

QString agentNames(const AgentRegistry &agents)
{
    QStringList names;
    for (const Agent &agent : agents.list()) {
        if (!agent.isSubagent() && !agent.isHidden())
            names.append(agent.name);
    }
    return names.join(u", "_s);
}

} // namespace

RunCommand::RunCommand(RunRequest request, QIODevice *out, QIODevice *err, QObject *parent)
    : QObject(parent), m_request(std::move(request)), m_printer(m_request.format, out, err)
{
    m_printer.setAutoApprove(m_request.autoApprove);
    m_printer.setBuffered(true);
}

RunCommand::~RunCommand()
{
    if (!m_thread)
        return;
    m_thread->quit();
    // A thread that will not stop cannot be destroyed; the process is
    // ending anyway, so it is left to the operating system.
    if (m_thread->wait(EngineStopTimeoutMs))
        delete m_thread;
}

void RunCommand::start(EngineOptions options)
{
    QCoro::connect(prepare(std::move(options)), this, [] {});
}

QCoro::Task<> RunCommand::prepare(EngineOptions options)
{
    options.askPolicy = m_request.autoApprove ? AskPolicy::AutoApprove : AskPolicy::Refuse;
    const QString dataDirectory =
        options.dataDirectory.isEmpty() ? DataPaths::dataDirectory() : options.dataDirectory;
    const QString worktree = ProjectInstance::findWorktree(m_request.directory);
    const ConfigLocations locations = options.locations ? options.locations(m_request.directory, worktree)
                                                        : ConfigLocations::forSystem(m_request.directory, worktree);
    // The engine loads the same again on its thread; reading it here first
    // turns a typo in --agent or --model into an error before a session
    // is created for nothing. Keys saved in the keychain count, so a model
    // whose key is only there is found, as the app finds it.
    const std::unique_ptr<ProjectInstance> project =
        ProjectInstance::load(m_request.directory, locations, dataDirectory, options.secrets);
    if (options.secrets) {
        co_await project->providers().loadStoredKeys();
        if (m_stopping) // interrupted while the keychain answered
            co_return;
    }
    if (!reportConfig(*project, locations))
        co_return;
    if (Result<void> checked = checkRequest(*project); !checked) {
        fail(checked.error().message);
        co_return;
    }

    Result<std::optional<QString>> existing = existingSession(options, project->project().id);
    if (!existing) {
        fail(existing.error().message);
        co_return;
    }
    m_newSession = !existing->has_value();
    m_sessionID = m_newSession ? Identifier::descending(Identifier::Prefix::Session) : **existing;
    m_printer.setSessionID(m_sessionID);
    startEngine(std::move(options));
}

bool RunCommand::reportConfig(const ProjectInstance &project, const ConfigLocations &locations)
{
    // Printed here once: the engine's own load of the same files logs
    // nothing on a run's stderr (runCommandMain's logging rules).
    const QStringList notes = project.configNotes() + CommandRegistry::load(project.config(), locations).problems();
    for (const QString &note : notes)
        m_printer.printNote(note);
    const ConfigErrors errors = project.configErrors();
    if (errors.isEmpty())
        return true;
    // The last line names the cause: nothing runs with a broken config.
    for (const ConfigError &error : errors)
        m_printer.printError(error.toString());
    stop(RunExit::Failed);
    return false;
}

Result<void> RunCommand::checkRequest(const ProjectInstance &project) const
{
    if (m_request.agent) {
        const Agent *agent = project.agents().find(*m_request.agent);
        if (!agent || agent->isHidden())
            return Error{tr("Unknown agent \"%1\". Agents: %2.").arg(*m_request.agent, agentNames(project.agents()))};
        if (agent->isSubagent())
            return Error{tr("\"%1\" is a subagent; `qcode run` needs a primary agent: %2.")
                             .arg(*m_request.agent, agentNames(project.agents()))};
    }
    if (m_request.model) {
        Result<ResolvedModel> model = project.resolveModel(*m_request.model);
        if (!model)
            return model.error();
    }
    return {};
}

Result<std::optional<QString>> RunCommand::existingSession(const EngineOptions &options,
                                                           const QString &projectID) const
{
    if (!m_request.sessionID && !m_request.continueLast)
        return std::optional<QString>();
    const QString path = options.databasePath.isEmpty() ? DataPaths::databaseFile() : options.databasePath;
    if (!QFileInfo::exists(path)) {
        if (m_request.sessionID)
            return Error{tr("Session not found: %1.").arg(*m_request.sessionID)};
        return Error{tr("No session to continue in %1: run without --continue to start one.")
                         .arg(QDir::toNativeSeparators(m_request.directory))};
    }
    auto store = Store::open(path);
    if (!store)
        return store.error();
    Result<Session> session = m_request.sessionID ? RunSessionLookup::byID(**store, *m_request.sessionID)
                                                  : RunSessionLookup::newest(**store, projectID, m_request.directory);
    if (!session)
        return session.error();
    return std::optional<QString>(session->id);
}

void RunCommand::startEngine(EngineOptions options)
{
    m_thread = new QThread;
    m_thread->setObjectName(u"qcode engine"_s);
    auto *engine = new Engine(std::move(options));
    engine->moveToThread(m_thread);
    m_engine = engine;
    connect(m_thread, &QThread::finished, engine, &QObject::deleteLater);
    // Printing runs on the engine thread as each event is published, so the
    // thousands of deltas of an answer never cross threads one by one; only
    // the few events that steer the run are passed to this thread.
    connect(engine, &Engine::event, engine, [this, engine](const SessionEvent &event) { printEvent(engine, event); },
            Qt::DirectConnection);
    connect(engine, &Engine::opened, this, &RunCommand::onOpened, Qt::QueuedConnection);
    connect(engine, &Engine::promptFinished, this, &RunCommand::onPromptFinished, Qt::QueuedConnection);
    m_thread->start();
    engine->open();
}

void RunCommand::printEvent(Engine *engine, const SessionEvent &event)
{
    m_printer.print(event);
    // One write per burst of events: the flush runs once the events that
    // arrived together have all been printed.
    if (!m_flushScheduled) {
        m_flushScheduled = true;
        QTimer::singleShot(0, engine, [this] {
            m_flushScheduled = false;
            m_printer.flush();
        });
    }
    if (std::holds_alternative<SessionCreated>(event) || std::holds_alternative<SessionError>(event))
        QMetaObject::invokeMethod(this, [this, event] { onControlEvent(event); }, Qt::QueuedConnection);
}

void RunCommand::withPrinter(const std::function<void(RunPrinter &)> &use)
{
    // Once the engine runs, the printer is the engine thread's.
    if (m_engine && m_thread && m_thread->isRunning())
        QMetaObject::invokeMethod(m_engine.data(), [this, &use] { use(m_printer); }, Qt::BlockingQueuedConnection);
    else
        use(m_printer);
}

void RunCommand::onControlEvent(const SessionEvent &event)
{
    // An error of the run's session fails the run. A permission or question
    // refused on the way does not: the loop answers it (the model reads it,
    // or the turn ends there) and the refusal is on stderr and in the JSON
    // events; the exit status is about the run itself.
    if (const auto *error = std::get_if<SessionError>(&event);
        error && error->sessionID == m_sessionID && !isRefusal(error->error))
        m_sessionFailed = true;
    if (m_promptSent || m_stopping)
        return;
    // Before the prompt runs, the only events are the start's: the session
    // being created, or the error that it could not be.
    if (const auto *created = std::get_if<SessionCreated>(&event)) {
        if (created->info.id == m_sessionID && m_newSession)
            sendPrompt();
    } else if (const auto *error = std::get_if<SessionError>(&event)) {
        if (!error->sessionID || *error->sessionID == m_sessionID) {
            m_startError = error->error;
            if (m_newSession && m_engine)
                stopWith(RunExit::Failed, error->error);
        }
    }
}

void RunCommand::onOpened(bool ok)
{
    if (m_stopping)
        return;
    if (!ok) {
        stopWith(RunExit::Failed, m_startError.value_or(NamedError{u"UnknownError"_s,
                                                                    {{u"message"_s, tr("The database could not be opened.")}}}));
        return;
    }
    if (m_newSession)
        m_engine->createSession(NewSession{m_sessionID, m_request.directory, std::nullopt, {}});
    else
        sendPrompt();
}

void RunCommand::sendPrompt()
{
    PromptInput input;
    input.sessionID = m_sessionID;
    input.agent = m_request.agent;
    input.model = m_request.model;
    for (const QString &file : std::as_const(m_request.files))
        input.parts.append(PromptPart::droppedFile(file));
    input.parts.append(PromptPart::text(m_request.message));
    m_promptSent = true;
    m_engine->prompt(std::move(input));
}

void RunCommand::onPromptFinished(const PromptOutcome &outcome)
{
    if (outcome.sessionID != m_sessionID || m_stopping)
        return;
    withPrinter([&outcome](RunPrinter &printer) { printer.finish(outcome); });
    if (m_interrupted)
        stop(RunExit::Interrupted);
    else
        stop(outcome.error || outcome.aborted || m_sessionFailed ? RunExit::Failed : RunExit::Finished);
}

void RunCommand::interrupt()
{
    if (m_stopping)
        return;
    m_interrupted = true;
    if (m_promptSent && m_engine) {
        m_engine->abort(m_sessionID); // promptFinished follows, aborted
        return;
    }
    withPrinter([](RunPrinter &printer) { printer.printError(tr("Interrupted.")); });
    stop(RunExit::Interrupted);
}

void RunCommand::fail(const QString &message)
{
    m_printer.printError(message);
    stop(RunExit::Failed);
}

void RunCommand::stopWith(int exitStatus, const NamedError &error)
{
    PromptOutcome outcome;
    outcome.sessionID = m_sessionID;
    outcome.error = error;
    withPrinter([&outcome](RunPrinter &printer) { printer.finish(outcome); });
    stop(exitStatus);
}

void RunCommand::stop(int exitStatus)
{
    if (m_stopping)
        return;
    m_stopping = true;
    // Always later, never inside start(): the caller's event loop may not
    // be running yet, and quitting a loop that has not started is lost.
    const auto announce = [this, exitStatus, done = std::make_shared<bool>(false)] {
        if (std::exchange(*done, true))
            return;
        Q_EMIT finished(exitStatus);
    };
    if (!m_thread || !m_thread->isRunning()) {
        QTimer::singleShot(0, this, announce);
        return;
    }
    connect(m_thread, &QThread::finished, this, announce, Qt::QueuedConnection);
    QTimer::singleShot(EngineStopTimeoutMs, this, announce);
    if (!m_engine) {
        m_thread->quit();
        return;
    }
    connect(m_engine, &Engine::woundDown, m_thread, &QThread::quit, Qt::DirectConnection);
    m_engine->windDown(TitleGraceMs);
}

int runCommandMain(const QStringList &arguments)
{
    Result<RunArguments> parsed = RunArgumentParser::parse(arguments);
    if (!parsed) {
        std::fprintf(stderr, "qcode run: %s\n%s\n", qPrintable(parsed.error().message),
                     qPrintable(RunArgumentParser::tr("Try `qcode run --help`.")));
        return RunExit::BadArguments;
    }
    if (parsed->help) {
        std::fputs(qPrintable(RunArgumentParser::helpText()), stdout);
        return RunExit::Finished;
    }
    Result<RunRequest> request =
        RunRequestResolver::resolve(*parsed, QDir::currentPath(), &RunRequestResolver::readStandardInput);
    if (!request) {
        std::fprintf(stderr, "qcode run: %s\n", qPrintable(request.error().message));
        return RunExit::BadArguments;
    }

    // The engine's progress notes are for the app's log; a run's stderr
    // carries only what the run prints. QT_LOGGING_RULES still overrides.
    // Config notes and errors are printed once by the run itself, not by
    // each of the two loads that log them.
    QLoggingCategory::setFilterRules(u"qcode.*.info=false\nqcode.info=false\nqcode.config.warning=false\n"
                                     u"qcode.agents.warning=false\nqcode.command.warning=false"_s);

    QFile out;
    QFile err;
    // Unbuffered: each delta reaches the terminal or pipe when it arrives.
    if (!out.open(fileno(stdout), QIODevice::WriteOnly | QIODevice::Unbuffered, QFileDevice::DontCloseHandle) ||
        !err.open(fileno(stderr), QIODevice::WriteOnly | QIODevice::Unbuffered, QFileDevice::DontCloseHandle)) {
        std::fprintf(stderr, "qcode run: cannot write to standard output\n");
        return RunExit::Failed;
    }
    RunInterrupt interrupt;
    KeychainSecretStore keychain;
    EngineOptions options;
    options.secrets = &keychain;
    RunCommand command(std::move(request).value(), &out, &err);
    QObject::connect(&interrupt, &RunInterrupt::interrupted, &command, &RunCommand::interrupt);
    int status = RunExit::Failed;
    QObject::connect(&command, &RunCommand::finished, &command, [&status](int exitStatus) {
        status = exitStatus;
        QCoreApplication::exit(exitStatus);
    });
    command.start(std::move(options));
    QCoreApplication::exec();
    return status;
}

} // namespace qcode
