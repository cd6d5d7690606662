#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QPointer>
#include <QString>

#include <QCoro/QCoroTask>

#include "engine/snapshot/SnapshotStore.h"
#include "model/Message.h"
#include "model/Result.h"
#include "model/Session.h"

namespace qcode {

class Store;

// What a session changed in its project, for the person to review: every
// file its steps changed (the patch parts it still shows, and the files the
// step running now changed so far), each compared with how it was before
// the session first changed it. One file can be put back alone.
//
// The comparison is with the work tree as it is now, so a file put back,
// by hand or by revertFile, leaves the list.
class SessionChanges
{
    Q_DECLARE_TR_FUNCTIONS(SessionChanges)

public:
    // Each changed file (relative to the work tree) and the snapshot from
    // before the session's first change of it. `openStep`: the files the
    // step running now changed, as a patch from its start.
    static QHash<QString, QString> baselines(const Session &session, const QList<MessageWithParts> &messages,
                                             const QString &workTree, const PatchPart &openStep = {});
    // The snapshot of the step that started last and has not finished
    // (the loop runs it now); none when every step finished.
    static std::optional<QString> openStepSnapshot(const QList<MessageWithParts> &messages);

    // The session's changed files, sorted by path. `snapshots` null (no
    // git): none.
    static QCoro::Task<Result<QList<SnapshotFilePatch>>> list(Store &store, QPointer<SnapshotStore> snapshots,
                                                               QString sessionID);
    // Puts `file` (relative) back as it was before the session changed
    // it; a file the session created is deleted.
    static QCoro::Task<Result<void>> revertFile(Store &store, QPointer<SnapshotStore> snapshots, QString sessionID,
                                                QString file);

private:
    struct Loaded {
        Session session;
        QList<MessageWithParts> messages;
    };
    static Result<Loaded> load(Store &store, const QString &sessionID);
    static QCoro::Task<std::optional<QHash<QString, QString>>> collect(Loaded loaded, QPointer<SnapshotStore> snapshots);
};

} // namespace qcode
