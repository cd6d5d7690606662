#pragma once

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QProcessEnvironment>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "engine/command/CommandInput.h"
#include "engine/config/ConfigLocations.h"
#include "engine/config/LocalServer.h"
#include "engine/message/PromptInput.h"
#include "engine/session/asks/PermissionCenter.h"
#include "engine/session/project/ProjectSummary.h"
#include "engine/session/loop/RetryPolicy.h"
#include "engine/session/SessionEvents.h"
#include "engine/session/loop/ToolRunner.h"

class QNetworkAccessManager;

namespace qcode {

class Store;
class ProjectInstance;
class PromptLoop;
class SecretStore;

// Everything the engine takes from outside. Defaults are the real system;
// tests point each at temporary folders, a fake clock and test tools.
struct EngineOptions {
    QString databasePath;  // empty: DataPaths::databaseFile()
    QString dataDirectory; // empty: DataPaths::dataDirectory()
    // Where config, agents and instructions of a project folder are looked
    // up; empty: ConfigLocations::forSystem.
    std::function<ConfigLocations(const QString &directory, const QString &worktree)> locations;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // The OS keychain (KeychainSecretStore) the providers' saved API keys
    // are read from when a project is loaded, after the config's and
    // before the environment's. Not owned; it must outlive the engine.
    // Null: no keychain.
    SecretStore *secrets = nullptr;
    // Local model servers (Ollama, LM Studio, llama.cpp) probed when a
    // project is loaded; the ones that answer offer their models without
    // a key. Empty: none is probed (`qcode run`, tests). The app probes
    // LocalServer::defaultProbes().
    QList<LocalServer> localServerProbes;
    RetryPolicy retry;
    AskPolicy askPolicy = AskPolicy::Ask;
    // The tools of one project folder; empty: the built-in tool registry.
    std::function<std::shared_ptr<ToolRunner>(const ProjectInstance &project)> tools;
    // Now; tests pin it so retry deadlines and ids are predictable.
    std::function<QDateTime()> clock;
    // Consecutive compactions — with no successful step between them — a
    // loop makes before it gives up with an error (OpenCode has no bound
    // and compacts forever when the system prompt and tools alone overflow
    // the context). A long run that compacts now and then never reaches it.
    int maxConsecutiveCompactions = 3;
    // Generate titles after the first exchange (reference §2.11).
    bool generateTitles = true;
    // Housekeeping — saved tool outputs older than a week are removed —
    // runs once the engine is open and then this often (OpenCode: hourly).
    std::chrono::milliseconds housekeepingInterval = std::chrono::hours(1);
    // How long a prompt waits for the project's MCP servers still
    // connecting before its first step goes without their tools.
    std::chrono::milliseconds mcpFirstPromptWait = std::chrono::seconds(5);
};

// What ended a prompt's loop, for callers that wait for it (`qcode run`).
struct PromptOutcome {
    QString sessionID;
    // The newest assistant message when the loop ended; empty if none.
    QString messageID;
    // Set when the loop ended on an error (the same one published as
    // SessionError or stored on the message).
    std::optional<NamedError> error;
    bool aborted = false;
};

// A new session. `id` may be given (ses_…, ascending) so the caller knows it
// before SessionCreated arrives; empty: the engine makes one.
struct NewSession {
    QString id;
    QString directory; // the project folder
    std::optional<QString> parentID;
    QString title;     // empty: OpenCode's default "New session - <ISO time>"
};

// A command line the person runs themselves ("!make test", reference §2.9).
struct ShellInput {
    QString sessionID;
    QString command;
    std::optional<QString> agent;  // empty: the default agent
    std::optional<ModelRef> model; // empty: the agent's, else the session's last, else the default
};

// The engine (DESIGN.md §2): one object on its own thread that owns the
// network manager, a store connection and every running prompt loop.
//
// Its public calls may be made from any thread: each is queued to the
// engine's thread and returns at once. What happens is reported by the
// signals below: the event bus of reference §10 is one signal, event(),
// carrying every SessionEvent once, in order; a listener visits the ones
// it cares about. Payloads are values (SessionEvents.h documents each);
// connect with queued connections from other threads.
//
//     auto *thread = new QThread;
//     auto *engine = new Engine(options);
//     engine->moveToThread(thread);
//     thread->start();
//     engine->open(); // opens the store on the engine thread
//     engine->createSession({id, folder});
//     engine->prompt(input);
class Engine : public QObject
{
    Q_OBJECT

public:
    explicit Engine(EngineOptions options = {}, QObject *parent = nullptr);
    ~Engine() override;

    // Opens the database on the engine thread. Failure is reported as
    // SessionError without a session and with opened(false).
    void open();

    void createSession(NewSession session);
    // Builds the user message (reference §2.6) and runs the loop.
    //
    // While the session is busy (a loop or a shell command runs) the prompt
    // is not stored: it waits in the engine's queue, announced by
    // promptQueued, where editQueuedPrompt and removeQueuedPrompt still
    // reach it. The running loop takes the queued prompts at the start of
    // its next step, stores them as user messages in the order they were
    // sent (promptDequeued, reason Taken) and answers them, each wrapped in
    // the "The user sent the following message" reminder (§2.2). Prompts a
    // loop did not take (it stopped on an abort or an error) and prompts
    // queued behind a shell command start a new loop once the session is
    // free. Each prompt() call gets one promptFinished.
    void prompt(PromptInput input);
    // Runs a slash command (reference §2.10): the project's command
    // `input.command` with its template expanded ($1…$N, $ARGUMENTS, the
    // output of its !`cmd` segments, @file references), as the command's
    // agent and model, or as one subtask part when it runs in a subagent.
    // Then as prompt(): queued while busy, one promptFinished. An unknown
    // command is a SessionError "Command not found: …" (and the
    // promptFinished carries it).
    void command(CommandInput input);
    // Runs the person's own command line in their shell in the session's
    // folder (reference §2.9), recorded as a user message ("The following
    // tool was executed by the user") and an assistant message with one
    // `bash` tool part whose metadata.output grows while the command runs.
    // Refused with a SessionError while the session is busy. abort() kills
    // the command and its children. When it ends, prompts queued meanwhile
    // are answered; otherwise the session goes idle.
    void shell(ShellInput input);
    // A queued prompt's text is replaced (its files stay); promptQueued
    // follows with the new text. A prompt the loop already took, or one
    // that would be left empty, is a SessionError and stays as it was.
    void editQueuedPrompt(const QString &sessionID, const QString &queueID, const QString &text);
    // A queued prompt is dropped: promptDequeued (reason Removed), and its
    // prompt() call's promptFinished comes with aborted = true and no error.
    void removeQueuedPrompt(const QString &sessionID, const QString &queueID);
    // A queued prompt goes now: out of the queue (promptDequeued, reason
    // Taken) and sent as prompt() sends it — answered at once when the
    // session is idle, else queued again behind the running turn.
    void sendQueuedPrompt(const QString &sessionID, const QString &queueID);
    // Stops what the session does now: the stream is cut, running tools
    // and a running shell command are killed, pending asks are rejected,
    // unfinished tool parts say "Tool execution aborted", and the status
    // becomes idle. Prompts still queued stay queued, paused: nothing of
    // them is sent until sendQueuedPrompt (or removeQueuedPrompt) says so.
    void abort(const QString &sessionID);
    // Manual compaction (OpenCode's /compact): a compaction request with
    // the session's last model, then the loop.
    void compact(const QString &sessionID);
    // Runs the loop again on the session's history as it is, adding no
    // message: what Retry does after a turn failed (a provider error, an
    // abort, a crash). The failed assistant message stays; the model is
    // not sent it (an aborted one's partial answer is, reference §4.2).
    // One promptFinished answers
    // it. Refused with a SessionError while the session is busy or when
    // its last user message is already answered.
    void resume(const QString &sessionID);
    // `scope` says where an Always answer applies (this session, or every
    // session of the project, saved); other replies ignore it.
    void replyPermission(const QString &requestID, PermissionReply reply, const QString &message = {},
                         ApprovalScope scope = ApprovalScope::Session);
    // Replaces a project's saved "always" approvals (settings takes some
    // back); projectApprovalsChanged follows. They are read from the
    // store's permission table, which the app may also read directly.
    void setProjectApprovals(const QString &projectID, const qcode::PermissionRuleset &rules);
    // Answers a pending question request (QuestionAsked): one list of
    // picked labels or typed words per question, in the request's order.
    void replyQuestion(const QString &requestID, const QList<QStringList> &answers);
    // Dismisses it: the question tool fails with "The user dismissed this
    // question" and the loop stops, as after a rejected permission.
    void rejectQuestion(const QString &requestID);
    // A copy of the session up to and including `messageID` (all of it
    // when empty), under the new id `newID` (empty: the engine makes one).
    void fork(const QString &sessionID, const QString &messageID = {}, const QString &newID = {});
    // Aborts, then deletes the session and its children.
    void deleteSession(const QString &sessionID);
    // Gives the session a title of the person's choosing (trimmed; an
    // empty one is refused with SessionError). A title the engine would
    // generate never replaces it afterwards.
    void renameSession(const QString &sessionID, const QString &title);
    // Takes the session back to before `messageID` (or before its part
    // `partID`), reference §11.3: the files the later steps changed are put
    // back, the later messages are hidden (session.revert) and deleted when
    // the next prompt starts. Refused, with a SessionError, while the
    // session is busy. Reported by sessionUpdated.
    void revert(const QString &sessionID, const QString &messageID, const std::optional<QString> &partID = {});
    // Undoes a revert the next prompt has not cleaned up yet, files included.
    void unrevert(const QString &sessionID);

    // Reports the project of `directory` by projectDescribed: its agents,
    // the models it can use, its slash commands and its config problems.
    // The project is loaded once and kept (see reloadProject).
    void describeProject(const QString &directory);
    // Forgets the loaded project of `directory`, so edited config, agents
    // and commands apply to what starts next (a running prompt finishes
    // with what it started with), then describes it again.
    void reloadProject(const QString &directory);

    // For a program about to end: running prompts and shell commands are
    // stopped as abort() stops them (their turns are saved as stopped),
    // queued prompts are dropped, no new title starts, a title still being
    // generated gets `graceMs` to arrive before its call is cut, and
    // woundDown follows once nothing runs, so nothing is left half-written
    // or leaked.
    void windDown(int graceMs);

    // A loop, a shell command, a revert or a deletion runs on the session.
    // Engine thread only.
    bool isBusy(const QString &sessionID) const;

Q_SIGNALS:
    void opened(bool ok);
    // After windDown(): no background work is left.
    void woundDown();

    // Every bus event, once, in order (SessionEvents.h).
    void event(const qcode::SessionEvent &event);
    // A SessionError again, for the Settings window's approvals page, which
    // waits for nothing else.
    void sessionError(const std::optional<QString> &sessionID, const qcode::NamedError &error);
    // Not on OpenCode's bus (its approvals are never saved): a project's
    // saved approvals changed.
    void projectApprovalsChanged(const QString &projectID, const qcode::PermissionRuleset &rules);

    // Not on OpenCode's bus: a prompt() or command() call's loop ended
    // (once per call, queued prompts included, removed ones too).
    void promptFinished(const qcode::PromptOutcome &outcome);
    // The answer to describeProject and reloadProject.
    void projectDescribed(const qcode::ProjectSummary &summary);

private:
    class Private;
    std::unique_ptr<Private> d;
    friend class Private;
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::PromptOutcome)
Q_DECLARE_METATYPE(qcode::NewSession)
Q_DECLARE_METATYPE(qcode::ShellInput)
