#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <optional>

#include "engine/Engine.h"
#include "model/ChatModel.h"
#include "model/SessionTreeModel.h"
#include "model/StreamingText.h"
#include "ui/prompt/PromptSubmission.h"

namespace qcode {

class Store;

// The window's side of the engine: it owns the models the views show (the
// project's session tree, the open session's messages) and applies the
// engine's events to them in the order they come, and it turns the
// person's actions into queued engine calls. It never waits on the engine:
// the engine lives on its own thread and answers by events.
class SessionController : public QObject
{
    Q_OBJECT

public:
    // `store` is the GUI thread's read connection; `engine` lives on
    // another thread (or on this one, in tests).
    SessionController(Store *store, Engine *engine, QObject *parent = nullptr);
    ~SessionController() override;

    SessionTreeModel *sessions() { return &m_sessions; }
    ChatModel *chat() { return &m_chat; }
    Engine *engine() const { return m_engine; }

    // Finds the folder's project (off the GUI thread: it may ask git) and
    // lists its sessions; projectOpened follows.
    void openProject(const QString &directory);
    const QString &projectDirectory() const { return m_directory; }
    const QString &projectID() const { return m_projectID; }
    bool isProjectOpen() const { return !m_projectID.isEmpty(); }

    void showSession(const QString &sessionID);
    // Lists the project's sessions again from the store (after an import).
    void reloadSessions() { listSessions(); }
    const QString &currentSession() const { return m_current; }
    bool isBusy(const QString &sessionID) const { return m_busy.contains(sessionID); }
    std::optional<SessionStatus> status(const QString &sessionID) const;
    QList<Todo> todos() const { return m_todos; }

    // A new session in the project; shown when the engine has made it.
    QString newSession();
    // Sends to the open session, making one first when none is open.
    void prompt(PromptInput input);
    // What the prompt box sent: a prompt, a shell command or a command.
    void send(const PromptSubmission &submission);
    void abort();
    void compact();
    void retry(const QString &messageID);
    // OpenCode's /undo and /redo: back to before the last prompt, and
    // forward again one prompt at a time.
    void undo();
    void redo();
    void revertTo(const QString &messageID);
    // Back to before the session's first prompt: every file it changed is
    // put back (Redo steps forward again, one prompt at a time).
    void undoAll();
    void rename(const QString &sessionID, const QString &title);
    void remove(const QString &sessionID);
    void fork(const QString &sessionID, const QString &messageID = {});

    // The project's agents, models and commands, as the engine last
    // described them (empty until projectDescribed).
    const ProjectSummary &project() const { return m_project; }
    // Reads the project's configuration again (after Settings changed it).
    void reloadProject();
    // Prompts sent while the session was busy, still waiting their turn.
    QList<QueuedPrompt> queued(const QString &sessionID) const { return m_queued.value(sessionID); }
    void editQueued(const QString &queueID, const QString &text);
    void removeQueued(const QString &queueID);
    void sendQueuedNow(const QString &queueID);

    // The tokens the open session's last step used and what it has cost.
    qint64 contextTokens() const { return m_contextTokens; }
    double sessionCost() const;
    // The session's newest prompt (its agent and model), read from the
    // store; none for a new session or when it cannot be read.
    std::optional<Message> lastUserMessage(const QString &sessionID) const;

    // The files the open session's undo put back, project-relative.
    const QStringList &revertedFiles() const { return m_revertedFiles; }
    static QStringList filesInDiff(const QString &diff);

Q_SIGNALS:
    void projectOpened(const QString &directory, const QString &projectID);
    void projectFailed(const QString &directory, const QString &message);
    void currentSessionChanged(const QString &sessionID);
    void sessionStatusChanged(const QString &sessionID, const qcode::SessionStatus &status);
    void todosChanged(const QList<qcode::Todo> &todos);
    void usageChanged();
    // A problem worth a line in the window: the engine's error for the
    // open session (or for none), or a read that failed here.
    void errorReported(const std::optional<QString> &sessionID, const QString &message);
    // After an undo: the words of the prompt that was taken back, for the
    // prompt box to offer again.
    void promptRestored(const QString &text);
    // After a redo: the words of the prompt brought back into the chat.
    void promptRedone(const QString &text);
    void sessionCompacted(const QString &sessionID);
    void projectDescribed();
    void queuedChanged(const QString &sessionID);
    // The bus events the dialogs and alerts want, as they came.
    void engineEvent(const qcode::SessionEvent &event);

private:
    void onEvent(const SessionEvent &event);
    void onSessionCreated(const Session &session);
    void onSessionUpdated(const Session &session);
    void onSessionDeleted(const Session &session);
    void onStatus(const QString &sessionID, const SessionStatus &status);
    void onMessage(const Message &message);
    void onProjectDescribed(const ProjectSummary &summary);
    void onQueued(const PromptQueued &queued);
    void onDequeued(const PromptDequeued &dequeued);
    bool ensureSession();
    void applyRevert(const std::optional<QJsonObject> &revert);
    void listSessions();
    void loadUsage();
    std::optional<QString> userMessageBefore(const QString &messageID);
    std::optional<QString> userMessageAfter(const QString &messageID);
    QString textOf(const QString &messageID);

    Store *m_store;
    QPointer<Engine> m_engine;
    StreamingText m_streaming;
    SessionTreeModel m_sessions;
    ChatModel m_chat;
    QString m_directory;
    QString m_projectID;
    QString m_current;
    QString m_pendingShow; // a session we asked for, to show once it exists
    QHash<QString, SessionStatus> m_busy;
    QList<Todo> m_todos;
    QStringList m_revertedFiles;
    ProjectSummary m_project;
    QHash<QString, QList<QueuedPrompt>> m_queued; // by session
    QHash<QString, double> m_costs; // the open session's assistant messages
    qint64 m_contextTokens = 0;
    int m_projectRequest = 0;
};

} // namespace qcode
