#include "SessionChanges.h"

#include <QDir>
#include <QMap>

#include <algorithm>

#include "SessionLogging.h"
#include "SessionRevert.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString relativeTo(const QDir &root, const QString &file)
{
    const QString relative = root.relativeFilePath(file);
    return relative.startsWith(u"../"_s) || relative == u".."_s || QDir::isAbsolutePath(relative) ? QString() : relative;
}

} // namespace

QHash<QString, QString> SessionChanges::baselines(const Session &session, const QList<MessageWithParts> &messages,
                                                  const QString &workTree, const PatchPart &openStep)
{
    const QDir root(workTree);
    QHash<QString, QString> bases;
    const auto take = [&](const PatchPart &patch) {
        for (const QString &file : patch.files) {
            const QString relative = relativeTo(root, file);
            // The oldest patch naming a file knows it as it was before.
            if (!relative.isEmpty() && !bases.contains(relative))
                bases.insert(relative, patch.hash);
        }
    };
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            const PatchPart *patch = part.as<PatchPart>();
            if (patch && !SessionRevert::hides(session.revert, message.info.id(), part.id))
                take(*patch);
        }
    }
    take(openStep);
    return bases;
}

std::optional<QString> SessionChanges::openStepSnapshot(const QList<MessageWithParts> &messages)
{
    if (messages.isEmpty() || !messages.constLast().info.assistant())
        return std::nullopt;
    std::optional<QString> open;
    for (const Part &part : messages.constLast().parts) {
        if (const StepStartPart *start = part.as<StepStartPart>())
            open = start->snapshot;
        else if (part.as<StepFinishPart>() || part.as<PatchPart>())
            open.reset();
    }
    return open;
}

Result<SessionChanges::Loaded> SessionChanges::load(Store &store, const QString &sessionID)
{
    const Result<std::optional<Session>> session = store.session(sessionID);
    if (!session)
        return session.error();
    if (!*session)
        return Error{tr("Session %1 does not exist.").arg(sessionID)};
    Result<QList<MessageWithParts>> messages = store.messages(sessionID);
    if (!messages)
        return messages.error();
    return Loaded{**session, std::move(messages).value()};
}

QCoro::Task<std::optional<QHash<QString, QString>>> SessionChanges::collect(Loaded loaded,
                                                                            QPointer<SnapshotStore> snapshots)
{
    PatchPart open;
    // A step still running has no patch part yet: what it changed so far
    // is what differs from its start.
    if (const std::optional<QString> start = openStepSnapshot(loaded.messages);
        start && !SessionRevert::hides(loaded.session.revert, loaded.messages.constLast().info.id())) {
        QCoro::Task<PatchPart> comparing = snapshots->patch(*start);
        open = co_await comparing;
        if (!snapshots)
            co_return std::nullopt;
    }
    co_return baselines(loaded.session, loaded.messages, snapshots->options().workTree, open);
}

QCoro::Task<Result<QList<SnapshotFilePatch>>> SessionChanges::list(Store &store, QPointer<SnapshotStore> snapshots,
                                                                    QString sessionID)
{
    Result<Loaded> loaded = load(store, sessionID);
    if (!loaded)
        co_return loaded.error();
    if (!snapshots || !snapshots->isEnabled())
        co_return QList<SnapshotFilePatch>();
    QCoro::Task<std::optional<QHash<QString, QString>>> collecting = collect(std::move(loaded).value(), snapshots);
    const std::optional<QHash<QString, QString>> bases = co_await collecting;
    if (!bases || !snapshots)
        co_return Error{tr("The engine stopped.")};
    // One comparison per baseline, each over the files it is the base of.
    QMap<QString, QStringList> byBase;
    for (auto it = bases->constBegin(); it != bases->constEnd(); ++it)
        byBase[it.value()].append(it.key());
    QList<SnapshotFilePatch> changes;
    for (auto it = byBase.constBegin(); it != byBase.constEnd(); ++it) {
        QCoro::Task<QList<SnapshotFilePatch>> comparing = snapshots->worktreeChanges(it.key(), it.value());
        changes += co_await comparing;
        if (!snapshots)
            co_return Error{tr("The engine stopped.")};
    }
    std::sort(changes.begin(), changes.end(),
              [](const SnapshotFilePatch &a, const SnapshotFilePatch &b) { return a.file < b.file; });
    co_return changes;
}

QCoro::Task<Result<void>> SessionChanges::revertFile(Store &store, QPointer<SnapshotStore> snapshots,
                                                     QString sessionID, QString file)
{
    Result<Loaded> loaded = load(store, sessionID);
    if (!loaded)
        co_return loaded.error();
    if (!snapshots || !snapshots->isEnabled())
        co_return Error{tr("%1 cannot be put back: this project keeps no snapshots.").arg(file)};
    QCoro::Task<std::optional<QHash<QString, QString>>> collecting = collect(std::move(loaded).value(), snapshots);
    const std::optional<QHash<QString, QString>> bases = co_await collecting;
    if (!bases || !snapshots)
        co_return Error{tr("The engine stopped.")};
    const auto base = bases->constFind(file);
    if (base == bases->constEnd())
        co_return Error{tr("%1 was not changed in this session.").arg(file)};
    const QString absolute = QDir(snapshots->options().workTree).filePath(file);
    QCoro::Task<> reverting = snapshots->revert({PatchPart{*base, {absolute}}});
    co_await reverting;
    if (!snapshots)
        co_return Error{tr("The engine stopped.")};
    qCInfo(lcSession) << sessionID << "put" << file << "back as it was at" << *base;
    co_return Result<void>();
}

} // namespace qcode
