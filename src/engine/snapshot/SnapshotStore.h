#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <QCoro/QCoroTask>

#include <chrono>
#include <functional>
#include <optional>

#include "GitProcess.h"
#include "model/Part.h"

namespace qcode {

// One file's change between two snapshots (OpenCode's FileDiff).
struct SnapshotFileDiff {
    QString file;   // relative to the work tree, '/'-separated
    QString status; // "added", "deleted" or "modified"
    qint64 additions = 0;
    qint64 deletions = 0;
    QString before; // empty for binary files and for added ones
    QString after;  // empty for binary files and for deleted ones

    QJsonObject toJson() const;
};

// One file's change from a snapshot to the work tree as it is now, for a
// person to review: git's unified diff of it, and its line counts.
struct SnapshotFilePatch {
    QString file;   // relative to the work tree, '/'-separated
    QString status; // "added", "deleted" or "modified"
    qint64 additions = 0;
    qint64 deletions = 0;
    bool binary = false;
    QString patch; // empty for a binary file
};

// A project's snapshots (reference §11.1): the state of its files, kept as
// git trees in a git directory of qcode's own under the data folder, used
// with `--git-dir <store> --work-tree <project>`, never the project's own
// .git. Snapshots are trees, not commits: nothing refers to them, so
// prune() can let old ones go.
//
// Better than OpenCode, so the store cannot eat the disk: files over
// maxFileSize and files the project's .gitignore ignores are left out,
// prune() is bounded by age and clears aborted pack files, and size()
// says how much the store takes.
//
// Every operation is a coroutine that awaits git (never blocks the
// thread). Operations that write (all but changes, diffFull and size) run
// one at a time. A store whose git cannot be started turns itself off with one
// warning, and its operations answer "no snapshot" from then on.
class SnapshotStore : public QObject
{
    Q_OBJECT

public:
    struct Options {
        QString gitDirectory; // <data>/snapshot/<project id>
        QString workTree;     // the project's git work tree
        QString git = QStringLiteral("git");
        // Larger files are not snapshotted (and so not restored).
        qint64 maxFileSize = 2 * 1024 * 1024;
        // prune() drops snapshots older than this.
        std::chrono::hours pruneAge{24 * 7};
        // maybePrune() runs prune() at most this often.
        std::chrono::minutes pruneInterval{60};
        std::function<QDateTime()> clock;
    };

    explicit SnapshotStore(Options options, QObject *parent = nullptr);
    ~SnapshotStore() override;

    const Options &options() const { return m_options; }
    // False once git turned out not to run.
    bool isEnabled() const { return m_enabled; }

    // The work tree's state now, as a tree hash; nothing when snapshots are
    // off or git failed.
    QCoro::Task<std::optional<QString>> track();
    // The files (absolute paths) that differ now from `hash`; no files when
    // git fails (an unknown hash included).
    QCoro::Task<PatchPart> patch(QString hash);
    // The files that differ between two snapshots, as a patch from `from`.
    QCoro::Task<PatchPart> changes(QString from, QString to);
    // The textual diff of the work tree against `hash`.
    QCoro::Task<QString> diff(QString hash);
    // Per file: status, line counts and both contents.
    QCoro::Task<QList<SnapshotFileDiff>> diffFull(QString from, QString to);
    // How each of `files` (relative paths) differs now from `hash`; files
    // that do not differ are left out, and so is everything when git fails.
    QCoro::Task<QList<SnapshotFilePatch>> worktreeChanges(QString hash, QStringList files);
    // Puts every file of `hash` back as it was.
    QCoro::Task<bool> restore(QString hash);
    // Puts each patch's files back as they were at its hash; the first
    // patch naming a file wins. A file the hash did not have is deleted.
    QCoro::Task<> revert(QList<PatchPart> patches);

    // Drops unreferenced objects older than pruneAge (git gc) and pack
    // files left behind by interrupted writes.
    QCoro::Task<bool> prune();
    // prune(), unless the last one ran less than pruneInterval ago (the
    // time is kept in the store, so restarts do not prune again).
    QCoro::Task<bool> maybePrune();
    // Bytes the store takes on disk.
    QCoro::Task<qint64> size();

Q_SIGNALS:
    // An operation let go of the store; the next waiting one may start.
    void released();

private:
    // One writing operation at a time: sessions of one project (parallel
    // subagents too) share the store's index, and git refuses a second
    // writer of an index.
    QCoro::Task<> lock();
    void unlock();
    // Gives the turn lock() took back when it goes out of scope, if the
    // store still exists then.
    class Turn
    {
    public:
        explicit Turn(SnapshotStore *store) : m_store(store) {}
        ~Turn()
        {
            if (m_store)
                m_store->unlock();
        }
        Turn(const Turn &) = delete;
        Turn &operator=(const Turn &) = delete;

    private:
        QPointer<SnapshotStore> m_store;
    };
    QCoro::Task<std::optional<GitOutput>> git(QStringList arguments, QByteArray input = {});
    QCoro::Task<bool> ensureInitialised();
    QCoro::Task<bool> add();
    QCoro::Task<> copyExclude();
    QString absolute(const QString &relative) const;
    QDateTime now() const;

    Options m_options;
    bool m_enabled = true;
    bool m_initialised = false;
    bool m_locked = false;
    std::optional<QString> m_sourceExclude; // the project's info/exclude, once found
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::SnapshotFilePatch)
