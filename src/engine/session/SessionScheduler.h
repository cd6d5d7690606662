#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QLockFile>
#include <QObject>
#include <QSet>
#include <QString>

#include <QCoro/QCoroTask>

#include <functional>
#include <memory>

#include "engine/message/PromptInput.h"
#include "engine/session/loop/AbortSignal.h"
#include "engine/session/loop/PromptLoop.h"
#include "engine/session/PromptQueue.h"

namespace qcode {

class ProjectCache;
struct LoadedProject;

// Who runs what, per session, in one engine: the prompt loops, the
// person's shell commands, reverts and deletions in progress, and the
// prompts queued behind them. One definition of busy (busy()) for every
// call that must not start a second thing on a session.
//
// A session is also guarded across processes: while it is busy here, a
// lock file per session (next to the database) is held, so a `qcode run`
// and the window on the same database never run one session at once.
// Taking the lock is when tool parts a crashed or killed qcode left
// running are marked interrupted.
class SessionScheduler : public QObject
{
    Q_OBJECT

public:
    struct Services {
        SessionEventSink *sink = nullptr;
        Store *store = nullptr;
        ProjectCache *projects = nullptr;
        std::function<LoopServices()> loopServices;
        // Stores a prompt as a user message (a queued one taken by a loop).
        std::function<QCoro::Task<Result<MessageWithParts>>(PromptInput input)> storePrompt;
        // Rejects the session's pending permission and question asks.
        std::function<void(const QString &sessionID)> cancelAsks;
        // `callers` prompt() calls waiting on the session are answered.
        std::function<void(const QString &sessionID, const LoopResult &result, int callers)> finished;
        // A failure told to the session and to one waiting caller.
        std::function<void(const QString &sessionID, const NamedError &error)> fail;
        // Something stopped running (see windDown).
        std::function<void()> stopped;
        std::function<qint64()> now;
        // Where the per-session lock files are kept.
        QString lockDirectory;
    };

    SessionScheduler(Services services, QObject *parent = nullptr);
    ~SessionScheduler() override;

    // A loop, a shell command, a revert or a deletion runs on the session.
    bool busy(const QString &sessionID) const;
    bool reverting(const QString &sessionID) const { return m_reverting.contains(sessionID); }
    // Nothing runs on any session.
    bool idle() const { return m_loops.isEmpty() && m_shells.isEmpty(); }
    bool windingDown() const { return m_windingDown; }

    // Takes the session's lock for this process (kept until the session
    // is idle again; taking it again is free). Refused when another qcode
    // holds it. The first take marks parts a dead process left running
    // as interrupted.
    Result<void> claim(const QString &sessionID);
    // The lock goes once nothing runs on the session.
    void releaseIfIdle(const QString &sessionID);
    // Marks the tool parts that qcodes which died left running as
    // interrupted, in every session no other qcode runs now (at open).
    void recoverAllInterrupted();

    // One more prompt() call waits for the session's next loop to end.
    void addWaiting(const QString &sessionID) { ++m_waiting[sessionID]; }
    int waiting(const QString &sessionID) const { return m_waiting.value(sessionID); }

    void startLoop(const QString &sessionID, std::shared_ptr<LoadedProject> project);
    // Runs one loop on the session (which must not be busy) to its end.
    QCoro::Task<LoopResult> runLoop(QString sessionID, std::shared_ptr<LoadedProject> project);
    // Starts the next turn for what waits (queued prompts, callers), or
    // tells the session it is idle.
    void startPending(const QString &sessionID);

    // A prompt for a busy session waits here (promptQueued).
    void enqueue(PromptInput input);
    // Stores the queued prompts of the session as user messages (a loop's
    // LoopServices::takeQueued).
    QCoro::Task<> takeQueued(QString sessionID);
    void editQueued(const QString &sessionID, const QString &queueID, const QString &text);
    void removeQueued(const QString &sessionID, const QString &queueID);
    // Takes the prompt out of the queue for sending now; empty when it is not there.
    std::optional<PromptInput> takeForSending(const QString &sessionID, const QString &queueID);
    void dropQueue(const QString &sessionID);

    // The person's `!command`: its abort signal, owned here until endShell.
    AbortSignal *beginShell(const QString &sessionID);
    void endShell(const QString &sessionID);
    void beginRevert(const QString &sessionID);
    void endRevert(const QString &sessionID);
    // The session is being deleted: it stays busy until endDeletion.
    void beginDeletion(const QString &sessionID);
    void endDeletion(const QString &sessionID);
    // Done once no loop or shell command runs on any of the sessions.
    QCoro::Task<> waitStopped(QStringList sessionIDs);

    void abort(const QString &sessionID);
    // Stops everything as abort() does; what is queued is dropped and
    // nothing new starts.
    void windDown();

Q_SIGNALS:
    // A loop or shell command of the session ended.
    void runEnded(const QString &sessionID);

private:
    // Queued prompts that may start a turn: none while the queue is paused.
    bool queueRuns(const QString &sessionID) const;
    void settle(const QString &sessionID, const LoopResult &result);
    void recoverInterrupted(const QString &sessionID);
    void publish(const SessionEvent &event) { m_services.sink->publish(event); }

    Services m_services;
    QHash<QString, PromptLoop *> m_loops;   // running, by session
    QHash<QString, AbortSignal *> m_shells; // running `!command`s, by session
    QSet<QString> m_reverting;              // sessions whose revert or unrevert runs
    QSet<QString> m_deleting;
    // prompt() calls owed a promptFinished when the session's loop ends:
    // the one that started it and those whose prompts it took.
    QHash<QString, int> m_waiting;
    PromptQueue m_queue;
    // Sessions stopped with prompts queued: those wait for the person
    // (takeForSending) instead of starting the next turn.
    QSet<QString> m_paused;
    std::map<QString, std::unique_ptr<QLockFile>> m_locks;
    bool m_windingDown = false;
};

} // namespace qcode
