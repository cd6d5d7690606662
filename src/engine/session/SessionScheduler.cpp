#include "SessionScheduler.h"

#include <QCoro/QCoroSignal>
#include <QDir>

#include "NextEmission.h"
#include "engine/session/project/ProjectCache.h"
#include "engine/session/SessionLogging.h"
#include "engine/snapshot/SnapshotStore.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

NamedError unknownError(const QString &message)
{
    return NamedError{u"UnknownError"_s, QJsonObject{{u"message"_s, message}}};
}

} // namespace

SessionScheduler::SessionScheduler(Services services, QObject *parent)
    : QObject(parent)
    , m_services(std::move(services))
{
}

SessionScheduler::~SessionScheduler()
{
    // Loops are children of the engine; stop them before the store goes.
    for (PromptLoop *loop : std::as_const(m_loops))
        loop->abortSignal()->abort();
    // A shell command's run stops writing once its signal is gone.
    qDeleteAll(m_shells);
    m_shells.clear();
    qDeleteAll(m_loops);
    m_loops.clear();
}

bool SessionScheduler::busy(const QString &sessionID) const
{
    return m_loops.contains(sessionID) || m_shells.contains(sessionID) || m_reverting.contains(sessionID)
           || m_deleting.contains(sessionID);
}

Result<void> SessionScheduler::claim(const QString &sessionID)
{
    if (m_locks.contains(sessionID))
        return {};
    if (!QDir().mkpath(m_services.lockDirectory))
        return Error(tr("The folder %1 for session locks cannot be made.").arg(m_services.lockDirectory));
    auto lock = std::make_unique<QLockFile>(QDir(m_services.lockDirectory).filePath(sessionID + u".lock"_s));
    // A live holder keeps it however long it runs; a dead one's lock is
    // stale at once (QLockFile checks the process).
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0)) {
        if (lock->error() == QLockFile::LockFailedError)
            return Error(tr("Session %1 is running in another qcode; wait for it to finish there, then try "
                            "again.")
                             .arg(sessionID));
        return Error(tr("The lock of session %1 cannot be taken: %2 is not writable.")
                         .arg(sessionID, lock->fileName()));
    }
    m_locks.emplace(sessionID, std::move(lock));
    recoverInterrupted(sessionID);
    return {};
}

void SessionScheduler::releaseIfIdle(const QString &sessionID)
{
    if (!busy(sessionID))
        m_locks.erase(sessionID);
}

void SessionScheduler::recoverInterrupted(const QString &sessionID)
{
    // Nobody runs the session (the lock says so), yet a tool part is
    // pending or running: the qcode that ran it crashed or was killed.
    // The model reads the same words it would for such a part (§4.2).
    Result<QList<Part>> unfinished = m_services.store->unfinishedToolParts(sessionID);
    if (!unfinished) {
        qCWarning(lcSession) << "unfinished tool parts of" << sessionID << "not read:" << unfinished.errorMessage();
        return;
    }
    for (Part &part : *unfinished) {
        ToolPart *tool = part.as<ToolPart>();
        if (!tool)
            continue;
        if (Result<void> failed = tool->fail(u"[Tool execution was interrupted]"_s, m_services.now()); !failed)
            continue;
        if (Result<void> saved = m_services.store->updatePart(part); !saved) {
            qCWarning(lcSession) << "interrupted part" << part.id << "not saved:" << saved.errorMessage();
            continue;
        }
        qCInfo(lcSession) << sessionID << "tool part" << part.id << "was left running; marked interrupted";
        publish(PartUpdated{part});
    }
}

void SessionScheduler::recoverAllInterrupted()
{
    // At start: every session whose parts say a tool still runs, unless
    // another qcode really runs it (its lock is held), was left by a qcode
    // that died. Claiming the lock recovers it; it goes at once.
    const Result<QList<Part>> unfinished = m_services.store->unfinishedToolParts();
    if (!unfinished) {
        qCWarning(lcSession) << "unfinished tool parts not read:" << unfinished.errorMessage();
        return;
    }
    QSet<QString> sessions;
    for (const Part &part : *unfinished)
        sessions.insert(part.sessionID);
    for (const QString &sessionID : std::as_const(sessions)) {
        if (busy(sessionID))
            continue;
        if (const Result<void> claimed = claim(sessionID); claimed)
            releaseIfIdle(sessionID);
    }
}

void SessionScheduler::startLoop(const QString &sessionID, std::shared_ptr<LoadedProject> project)
{
    QCoro::connect(runLoop(sessionID, std::move(project)), this, [](const LoopResult &) {});
}

QCoro::Task<LoopResult> SessionScheduler::runLoop(QString sessionID, std::shared_ptr<LoadedProject> project)
{
    QPointer<SessionScheduler> guard(this);
    if (m_loops.contains(sessionID)) {
        // Never a second loop on one session: the running one answers.
        co_return LoopResult{{}, unknownError(tr("Session %1 is already running.").arg(sessionID)), false};
    }
    if (const Result<void> claimed = claim(sessionID); !claimed) {
        const NamedError error = unknownError(claimed.errorMessage());
        publish(SessionError{sessionID, error});
        // What waits for this session cannot run here now.
        dropQueue(sessionID);
        const LoopResult result{{}, error, false};
        m_services.finished(sessionID, result, m_waiting.take(sessionID));
        co_return result;
    }
    auto *loop = new PromptLoop(m_services.loopServices(), *project->instance, m_services.projects->toolsFor(*project),
                                sessionID, parent());
    m_loops.insert(sessionID, loop);
    // A loop started without a prompt (compact, resume, a queue after a
    // shell command) may be the project's first use.
    QCoro::Task<> keys = ProjectCache::ready(project);
    co_await keys;
    if (!guard)
        co_return LoopResult{};
    QCoro::Task<> servers = m_services.projects->mcpReady(project);
    co_await servers;
    if (!guard)
        co_return LoopResult{};
    QCoro::Task<LoopResult> running = loop->run();
    const LoopResult result = co_await running;
    if (!guard)
        co_return result;
    m_loops.remove(sessionID);
    m_services.cancelAsks(sessionID);
    loop->deleteLater();
    releaseIfIdle(sessionID);
    settle(sessionID, result);
    // The snapshot store is pruned now and then, never in the middle of a
    // step (at most hourly, SnapshotStore::maybePrune).
    if (SnapshotStore *snapshots = project->instance->snapshots(); snapshots && !m_windingDown)
        QCoro::connect(snapshots->maybePrune(), snapshots, [](bool) {});
    Q_EMIT runEnded(sessionID);
    m_services.stopped();
    co_return result;
}

void SessionScheduler::settle(const QString &sessionID, const LoopResult &result)
{
    // Prompts the loop did not take (it stopped on an error) start the
    // next one; the session only goes idle when none wait. After a stop
    // they wait for the person.
    const bool more = queueRuns(sessionID);
    if (!more)
        publish(SessionStatusChanged{sessionID, SessionStatus::idle()});
    m_services.finished(sessionID, result, m_waiting.take(sessionID));
    if (more)
        startPending(sessionID);
}

bool SessionScheduler::queueRuns(const QString &sessionID) const
{
    // A session being deleted starts nothing: what waits is dropped with it.
    return !m_queue.isEmpty(sessionID) && !m_deleting.contains(sessionID)
           && (!m_paused.contains(sessionID) || m_windingDown);
}

void SessionScheduler::startPending(const QString &sessionID)
{
    if (m_deleting.contains(sessionID)) {
        publish(SessionStatusChanged{sessionID, SessionStatus::idle()});
        return;
    }
    if (m_windingDown) {
        // Nothing new starts on the way out: what waits is answered as
        // stopped.
        dropQueue(sessionID);
        m_services.finished(sessionID, LoopResult{{}, std::nullopt, true}, m_waiting.take(sessionID));
        publish(SessionStatusChanged{sessionID, SessionStatus::idle()});
        return;
    }
    const Result<std::optional<Session>> session = m_services.store->session(sessionID);
    if (!session || !*session) {
        dropQueue(sessionID);
        publish(SessionStatusChanged{sessionID, SessionStatus::idle()});
        return;
    }
    startLoop(sessionID, m_services.projects->loaded((*session)->directory));
}

void SessionScheduler::enqueue(PromptInput input)
{
    const QString sessionID = input.sessionID;
    const QString text = PromptQueue::text(input);
    const QString queueID = m_queue.enqueue(std::move(input));
    qCInfo(lcSession) << sessionID << "is busy; prompt" << queueID << "queued";
    publish(PromptQueued{sessionID, queueID, text});
}

QCoro::Task<> SessionScheduler::takeQueued(QString sessionID)
{
    QPointer<SessionScheduler> guard(this);
    if (m_paused.contains(sessionID))
        co_return; // the person sends them, one by one
    while (std::optional<PendingPrompt> next = m_queue.takeFirst(sessionID)) {
        QCoro::Task<Result<MessageWithParts>> storing = m_services.storePrompt(next->input);
        const Result<MessageWithParts> stored = co_await storing;
        if (!guard)
            co_return;
        publish(PromptDequeued{sessionID, next->id, DequeueReason::Taken});
        if (!stored) {
            m_services.fail(sessionID, unknownError(stored.errorMessage()));
            continue;
        }
        ++m_waiting[sessionID];
    }
}

void SessionScheduler::editQueued(const QString &sessionID, const QString &queueID, const QString &text)
{
    const Result<PendingPrompt> edited = m_queue.edit(sessionID, queueID, text);
    if (!edited) {
        publish(SessionError{sessionID, unknownError(edited.errorMessage())});
        return;
    }
    publish(PromptQueued{sessionID, queueID, PromptQueue::text(edited->input)});
}

void SessionScheduler::removeQueued(const QString &sessionID, const QString &queueID)
{
    const Result<PendingPrompt> removed = m_queue.remove(sessionID, queueID);
    if (!removed) {
        publish(SessionError{sessionID, unknownError(removed.errorMessage())});
        return;
    }
    if (m_queue.isEmpty(sessionID))
        m_paused.remove(sessionID);
    publish(PromptDequeued{sessionID, queueID, DequeueReason::Removed});
    // Withdrawn, not failed: the caller is told as after a stop.
    m_services.finished(sessionID, LoopResult{{}, std::nullopt, true}, 1);
}

std::optional<PromptInput> SessionScheduler::takeForSending(const QString &sessionID, const QString &queueID)
{
    Result<PendingPrompt> taken = m_queue.remove(sessionID, queueID);
    if (!taken) {
        publish(SessionError{sessionID, unknownError(taken.errorMessage())});
        return std::nullopt;
    }
    if (m_queue.isEmpty(sessionID))
        m_paused.remove(sessionID);
    publish(PromptDequeued{sessionID, queueID, DequeueReason::Taken});
    return std::move(taken->input);
}

void SessionScheduler::dropQueue(const QString &sessionID)
{
    m_paused.remove(sessionID);
    for (const PendingPrompt &dropped : m_queue.takeAll(sessionID)) {
        publish(PromptDequeued{sessionID, dropped.id, DequeueReason::Removed});
        m_services.finished(sessionID, LoopResult{{}, std::nullopt, true}, 1);
    }
}

AbortSignal *SessionScheduler::beginShell(const QString &sessionID)
{
    auto *abortSignal = new AbortSignal(this);
    m_shells.insert(sessionID, abortSignal);
    return abortSignal;
}

void SessionScheduler::endShell(const QString &sessionID)
{
    if (AbortSignal *abortSignal = m_shells.take(sessionID))
        abortSignal->deleteLater();
    releaseIfIdle(sessionID);
    // Prompts sent while it ran are answered now (reference §2.9).
    if (queueRuns(sessionID) || m_waiting.value(sessionID) > 0)
        startPending(sessionID);
    else
        publish(SessionStatusChanged{sessionID, SessionStatus::idle()});
    Q_EMIT runEnded(sessionID);
    m_services.stopped();
}

void SessionScheduler::beginRevert(const QString &sessionID)
{
    m_reverting.insert(sessionID);
}

void SessionScheduler::endRevert(const QString &sessionID)
{
    m_reverting.remove(sessionID);
    releaseIfIdle(sessionID);
    Q_EMIT runEnded(sessionID);
}

void SessionScheduler::beginDeletion(const QString &sessionID)
{
    m_deleting.insert(sessionID);
}

void SessionScheduler::endDeletion(const QString &sessionID)
{
    m_deleting.remove(sessionID);
    // Whatever was sent meanwhile has no session left to run in.
    dropQueue(sessionID);
    m_services.finished(sessionID, LoopResult{{}, std::nullopt, true}, m_waiting.take(sessionID));
    m_locks.erase(sessionID);
}

QCoro::Task<> SessionScheduler::waitStopped(QStringList sessionIDs)
{
    QPointer<SessionScheduler> guard(this);
    const auto running = [this, &sessionIDs] {
        for (const QString &sessionID : std::as_const(sessionIDs)) {
            if (m_loops.contains(sessionID) || m_shells.contains(sessionID) || m_reverting.contains(sessionID))
                return true;
        }
        return false;
    };
    // Several runs may end before this resumes: NextEmission, not qCoro.
    while (guard && running()) {
        NextEmission ended(this, &SessionScheduler::runEnded);
        co_await ended;
    }
}

void SessionScheduler::abort(const QString &sessionID)
{
    if (!m_queue.isEmpty(sessionID))
        m_paused.insert(sessionID);
    m_services.cancelAsks(sessionID);
    if (PromptLoop *loop = m_loops.value(sessionID))
        loop->abortSignal()->abort();
    if (AbortSignal *shell = m_shells.value(sessionID))
        shell->abort();
}

void SessionScheduler::windDown()
{
    m_windingDown = true;
    // Stopped as abort() stops them, so what they wrote is saved as
    // stopped, not left "running" for the next start to find.
    const QStringList running = m_loops.keys() + m_shells.keys();
    for (const QString &sessionID : running)
        abort(sessionID);
}

} // namespace qcode
