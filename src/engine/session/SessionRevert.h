#pragma once

#include <QCoreApplication>
#include <QPointer>
#include <QString>

#include <QCoro/QCoroTask>

#include <optional>

#include "SessionEvents.h"
#include "engine/snapshot/SnapshotStore.h"
#include "model/Result.h"
#include "model/Session.h"

namespace qcode {

class Store;

// OpenCode's SessionRevert (reference §11.3): taking a session back to an
// earlier message. revert() puts the files the later steps changed back as
// they were and records the revert point on the session; the later
// messages stay in the database, hidden by views, until cleanup() deletes
// them when the next prompt starts. unrevert() undoes a revert that was
// not yet cleaned up, files included.
//
// The caller makes sure the session is not busy. `snapshots` may be null
// (outside git): messages are still hidden, files are left as they are.
class SessionRevert
{
    Q_DECLARE_TR_FUNCTIONS(SessionRevert)

public:
    struct Target {
        QString sessionID;
        QString messageID;
        std::optional<QString> partID;
    };

    // The session as saved with its revert point, or why not.
    static QCoro::Task<Result<Session>> revert(Store &store, SessionEventSink &sink, QPointer<SnapshotStore> snapshots,
                                               Target target, qint64 now);
    static QCoro::Task<Result<Session>> unrevert(Store &store, SessionEventSink &sink,
                                                 QPointer<SnapshotStore> snapshots, QString sessionID, qint64 now);
    // Deletes what the session's revert point hides, publishing a removal
    // for each message and part, and clears the point. A session without
    // one is returned unchanged.
    static Result<Session> cleanup(Store &store, SessionEventSink &sink, Session session);
    // Whether the session's revert point `revert` hides the part `partID`
    // of message `messageID` (the whole message when `partID` is empty).
    static bool hides(const std::optional<QJsonObject> &revert, const QString &messageID, const QString &partID = {});
};

} // namespace qcode
