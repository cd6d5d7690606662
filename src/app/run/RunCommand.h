#pragma once

#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

#include <QCoro/QCoroTask>

#include "RunPrinter.h"
#include "RunRequest.h"
#include "engine/Engine.h"

class QIODevice;
class QThread;

namespace qcode {

class ProjectInstance;
struct ConfigLocations;

// Exit statuses of `qcode run`.
namespace RunExit {
// The answer finished, even when a permission or question was refused on
// the way (the refusal is on stderr and in the JSON events).
constexpr int Finished = 0;
// The run itself failed: it could not start, the provider or the loop
// failed, or the answer was aborted.
constexpr int Failed = 1;
constexpr int BadArguments = 2;
constexpr int Interrupted = 130; // 128 + SIGINT, as shells report it
} // namespace RunExit

// One `qcode run`: the engine on its own thread, the session found or
// created, one prompt, its events printed, then finished(exit status).
//
//   start() ─ checks (session id, --continue, agent) ─ Engine::open
//     ─ createSession (new runs) ─ prompt ─ promptFinished ─ engine thread
//     stops ─ finished(status)
//
// Every failure before the prompt ends the run with RunExit::Failed and a
// line on stderr naming the problem; nothing is created for a run that
// cannot start.
class RunCommand : public QObject
{
    Q_OBJECT

public:
    RunCommand(RunRequest request, QIODevice *out, QIODevice *err, QObject *parent = nullptr);
    ~RunCommand() override;

    // `options.askPolicy` is set from the request; the rest is passed on
    // (tests point the data folder elsewhere).
    void start(EngineOptions options = {});
    // Ctrl-C: aborts the prompt (the engine leaves the session consistent)
    // and ends with RunExit::Interrupted.
    void interrupt();

Q_SIGNALS:
    void finished(int exitStatus);

private:
    QCoro::Task<> prepare(EngineOptions options);
    // Prints the config's notes; on a config error prints each and stops.
    bool reportConfig(const ProjectInstance &project, const ConfigLocations &locations);
    Result<void> checkRequest(const ProjectInstance &project) const;
    Result<std::optional<QString>> existingSession(const EngineOptions &options, const QString &projectID) const;
    void startEngine(EngineOptions options);
    void printEvent(Engine *engine, const SessionEvent &event); // engine thread
    void onControlEvent(const SessionEvent &event);
    void withPrinter(const std::function<void(RunPrinter &)> &use);
    void onOpened(bool ok);
    void sendPrompt();
    void onPromptFinished(const PromptOutcome &outcome);
    void fail(const QString &message);
    void stopWith(int exitStatus, const NamedError &error);
    void stop(int exitStatus);

    RunRequest m_request;
    RunPrinter m_printer; // the engine thread's while it runs (withPrinter)
    QString m_sessionID;
    bool m_newSession = false;
    bool m_promptSent = false;
    bool m_interrupted = false;
    bool m_stopping = false;
    bool m_flushScheduled = false; // engine thread
    bool m_sessionFailed = false; // a SessionError of the run's session was published
    std::optional<NamedError> m_startError; // a SessionError before the prompt ran
    QThread *m_thread = nullptr;
    QPointer<Engine> m_engine;
};

// `qcode run …` from main(): parses `arguments` (the words after `run`),
// runs, and returns the exit status. Needs a QCoreApplication, no display.
int runCommandMain(const QStringList &arguments);

} // namespace qcode
