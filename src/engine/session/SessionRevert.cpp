#include "SessionRevert.h"

#include <QJsonArray>

#include "SessionLogging.h"
#include "engine/tool/TodoFormat.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

struct RevertPoint {
    QString messageID;
    std::optional<QString> partID;

    static std::optional<RevertPoint> fromJson(const std::optional<QJsonObject> &json)
    {
        if (!json || json->value(u"messageID"_s).toString().isEmpty())
            return std::nullopt;
        const QJsonValue part = json->value(u"partID"_s);
        return RevertPoint{json->value(u"messageID"_s).toString(),
                           part.isString() ? std::optional(part.toString()) : std::nullopt};
    }

    // Whether the point hides a message, or one of its parts. Ids ascend
    // with time, so "later" is "greater".
    bool hidesMessage(const QString &id) const { return id > messageID || (id == messageID && !partID); }
    bool hidesPart(const QString &message, const QString &part) const
    {
        return hidesMessage(message) || (message == messageID && partID && part >= *partID);
    }
};

// Where the session goes back to (reference §11.3). A part is the point
// only when text or a tool call came before it in its message; otherwise,
// and for a whole message, the turn goes back to its user message.
std::optional<RevertPoint> findPoint(const QList<MessageWithParts> &messages, const SessionRevert::Target &target)
{
    QString lastUser;
    for (const MessageWithParts &message : messages) {
        if (message.info.isUser())
            lastUser = message.info.id();
        if (message.info.id() == target.messageID && !target.partID)
            return RevertPoint{lastUser.isEmpty() ? message.info.id() : lastUser, std::nullopt};
        bool spoke = false;
        for (const Part &part : message.parts) {
            if (target.partID && part.id == *target.partID) {
                if (spoke)
                    return RevertPoint{message.info.id(), part.id};
                return RevertPoint{lastUser.isEmpty() ? message.info.id() : lastUser, std::nullopt};
            }
            spoke = spoke || part.as<TextPart>() || part.as<ToolPart>();
        }
    }
    return std::nullopt;
}

// The plan as the history still shown last wrote it: the newest finished
// todowrite call the revert point leaves (none: no plan). Said only when it
// differs from the saved one, so the window and todoread agree with what
// the person sees.
void restorePlan(Store &store, SessionEventSink &sink, const Session &session, const QList<MessageWithParts> &messages)
{
    QList<Todo> plan;
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            const ToolPart *tool = part.as<ToolPart>();
            if (!tool || tool->tool != u"todowrite"_s || !std::holds_alternative<ToolCompleted>(tool->state)
                || SessionRevert::hides(session.revert, message.info.id(), part.id))
                continue;
            if (const Result<QList<Todo>> written = TodoFormat::fromJson(tool->input().value(u"todos"_s)); written)
                plan = *written;
        }
    }
    if (const Result<QList<Todo>> saved = store.todos(session.id); saved && *saved == plan)
        return;
    if (const Result<void> written = store.setTodos(session.id, plan); !written) {
        qCWarning(lcSession) << "the plan of" << session.id << "was not put back:" << written.errorMessage();
        return;
    }
    sink.publish(TodoUpdated{session.id, plan});
}

} // namespace

QCoro::Task<Result<Session>> SessionRevert::revert(Store &store, SessionEventSink &sink,
                                                   QPointer<SnapshotStore> snapshots, Target target, qint64 now)
{
    const bool haveSnapshots = !snapshots.isNull();
    const Result<std::optional<Session>> loaded = store.session(target.sessionID);
    if (!loaded)
        co_return loaded.error();
    if (!*loaded)
        co_return Error{tr("Session %1 does not exist.").arg(target.sessionID)};
    const Result<QList<MessageWithParts>> messages = store.messages(target.sessionID);
    if (!messages)
        co_return messages.error();
    const std::optional<RevertPoint> point = findPoint(*messages, target);
    if (!point) {
        co_return Error{target.partID ? tr("Part %1 of message %2 is not in session %3.")
                                            .arg(*target.partID, target.messageID, target.sessionID)
                                      : tr("Message %1 is not in session %2.").arg(target.messageID, target.sessionID)};
    }

    // Every step the point hides gives its files back, oldest first, so a
    // file returns to how it was before the first hidden change. (OpenCode
    // starts at the target, and misses the steps between the turn's user
    // message and the target.)
    QList<PatchPart> patches;
    std::optional<QString> firstSnapshot;
    std::optional<QString> lastSnapshot;
    for (const MessageWithParts &message : *messages) {
        for (const Part &part : message.parts) {
            if (!point->hidesPart(message.info.id(), part.id))
                continue;
            if (const PatchPart *patch = part.as<PatchPart>())
                patches.append(*patch);
            else if (const StepStartPart *start = part.as<StepStartPart>(); start && start->snapshot && !firstSnapshot)
                firstSnapshot = start->snapshot;
            else if (const StepFinishPart *finish = part.as<StepFinishPart>(); finish && finish->snapshot)
                lastSnapshot = finish->snapshot;
        }
    }

    Session session = **loaded;
    const std::optional<RevertPoint> earlier = RevertPoint::fromJson(session.revert);
    QJsonObject revert{{u"messageID"_s, point->messageID}};
    if (point->partID)
        revert.insert(u"partID"_s, *point->partID);
    SessionSummary summary;
    if (haveSnapshots) {
        // The files as they are now, for unrevert; a second revert keeps
        // the state from before the first.
        std::optional<QString> current;
        if (earlier && session.revert->value(u"snapshot"_s).isString()) {
            current = session.revert->value(u"snapshot"_s).toString();
        } else {
            QCoro::Task<std::optional<QString>> tracking = snapshots->track();
            current = co_await tracking;
            if (!snapshots)
                co_return Error{tr("The engine stopped.")};
        }
        QCoro::Task<> reverting = snapshots->revert(patches);
        co_await reverting;
        if (!snapshots)
            co_return Error{tr("The engine stopped.")};
        if (current) {
            revert.insert(u"snapshot"_s, *current);
            QCoro::Task<QString> diffing = snapshots->diff(*current);
            const QString diff = co_await diffing;
            if (!snapshots)
                co_return Error{tr("The engine stopped.")};
            revert.insert(u"diff"_s, diff);
        }
        if (firstSnapshot && lastSnapshot) {
            QCoro::Task<QList<SnapshotFileDiff>> comparing = snapshots->diffFull(*firstSnapshot, *lastSnapshot);
            const QList<SnapshotFileDiff> diffs = co_await comparing;
            if (!snapshots)
                co_return Error{tr("The engine stopped.")};
            QJsonArray list;
            for (const SnapshotFileDiff &diff : diffs) {
                summary.additions += diff.additions;
                summary.deletions += diff.deletions;
                list.append(diff.toJson());
            }
            summary.files = diffs.size();
            summary.diffs = list;
        }
    }

    // Re-read: the session row may have changed while git ran.
    const Result<std::optional<Session>> reloaded = store.session(target.sessionID);
    if (!reloaded)
        co_return reloaded.error();
    if (!*reloaded)
        co_return Error{tr("Session %1 does not exist.").arg(target.sessionID)};
    session = **reloaded;
    session.revert = revert;
    session.summary = summary;
    session.time.updated = now;
    if (Result<void> saved = store.upsertSession(session); !saved)
        co_return saved.error();
    qCInfo(lcSession) << session.id << "reverted to" << point->messageID << point->partID.value_or(QString())
                      << patches.size() << "patches";
    sink.publish(SessionUpdated{session});
    restorePlan(store, sink, session, *messages);
    co_return session;
}

QCoro::Task<Result<Session>> SessionRevert::unrevert(Store &store, SessionEventSink &sink,
                                                     QPointer<SnapshotStore> snapshots, QString sessionID, qint64 now)
{
    const Result<std::optional<Session>> loaded = store.session(sessionID);
    if (!loaded)
        co_return loaded.error();
    if (!*loaded)
        co_return Error{tr("Session %1 does not exist.").arg(sessionID)};
    if (!(*loaded)->revert)
        co_return **loaded;
    const QJsonValue snapshot = (*loaded)->revert->value(u"snapshot"_s);
    if (snapshots && snapshot.isString()) {
        QCoro::Task<bool> restoring = snapshots->restore(snapshot.toString());
        const bool restored = co_await restoring;
        if (!snapshots)
            co_return Error{tr("The engine stopped.")};
        if (!restored)
            co_return Error{tr("The files of session %1 could not be restored from snapshot %2; the revert is kept.")
                                .arg(sessionID, snapshot.toString())};
    }
    const Result<std::optional<Session>> reloaded = store.session(sessionID);
    if (!reloaded)
        co_return reloaded.error();
    if (!*reloaded)
        co_return Error{tr("Session %1 does not exist.").arg(sessionID)};
    Session session = **reloaded;
    session.revert.reset();
    session.time.updated = now;
    if (Result<void> saved = store.upsertSession(session); !saved)
        co_return saved.error();
    sink.publish(SessionUpdated{session});
    if (const Result<QList<MessageWithParts>> messages = store.messages(sessionID); messages)
        restorePlan(store, sink, session, *messages);
    co_return session;
}

bool SessionRevert::hides(const std::optional<QJsonObject> &revert, const QString &messageID, const QString &partID)
{
    const std::optional<RevertPoint> point = RevertPoint::fromJson(revert);
    if (!point)
        return false;
    return partID.isEmpty() ? point->hidesMessage(messageID) : point->hidesPart(messageID, partID);
}

Result<Session> SessionRevert::cleanup(Store &store, SessionEventSink &sink, Session session)
{
    const std::optional<RevertPoint> point = RevertPoint::fromJson(session.revert);
    if (!point)
        return session;
    const Result<QList<MessageWithParts>> messages = store.messages(session.id);
    if (!messages)
        return messages.error();
    QList<MessageRemoved> removedMessages;
    QList<PartRemoved> removedParts;
    session.revert.reset();
    const Result<void> written = store.transaction([&]() -> Result<void> {
        for (const MessageWithParts &message : *messages) {
            const QString &id = message.info.id();
            if (point->hidesMessage(id)) {
                if (Result<void> removed = store.removeMessage(id); !removed)
                    return removed;
                removedMessages.append(MessageRemoved{session.id, id});
                continue;
            }
            for (const Part &part : message.parts) {
                if (!point->hidesPart(id, part.id))
                    continue;
                if (Result<void> removed = store.removePart(part.id); !removed)
                    return removed;
                removedParts.append(PartRemoved{session.id, id, part.id});
            }
        }
        return store.upsertSession(session);
    });
    if (!written)
        return written.error();
    for (const PartRemoved &removed : std::as_const(removedParts))
        sink.publish(removed);
    for (const MessageRemoved &removed : std::as_const(removedMessages))
        sink.publish(removed);
    sink.publish(SessionUpdated{session});
    return session;
}

} // namespace qcode
