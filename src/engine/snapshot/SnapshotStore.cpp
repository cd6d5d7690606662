#include "SnapshotStore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QPointer>
#include <QSaveFile>
#include <QSet>
#include <QtConcurrent/QtConcurrentRun>

#include <QCoro/QCoroFuture>
#include <QCoro/QCoroSignal>

#include "SnapshotLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// The store keeps bytes as they are: no end-of-line conversion, no clean or
// smudge filters (LFS), no $Id$ expansion, whatever the project's
// .gitattributes say. info/attributes overrides every other attributes file.
const QByteArray ExactBytesAttributes = "* -text -filter -ident -working-tree-encoding\n";
const QString LastPruneFile = u"qcode-last-prune"_s;
// Pack files git was writing when it was killed: never used again.
constexpr qint64 StaleTemporaryMs = 60 * 60 * 1000;

QStringList splitNul(const QByteArray &output)
{
    QStringList items;
    for (const QByteArray &item : output.split('\0')) {
        if (!item.isEmpty())
            items.append(QString::fromUtf8(item));
    }
    return items;
}

QByteArray joinNul(const QStringList &items)
{
    QByteArray joined;
    for (const QString &item : items) {
        joined += item.toUtf8();
        joined += '\0';
    }
    return joined;
}

struct Sorted {
    QStringList small;
    QStringList large;
};

// Which of the candidate files (relative paths) are over the limit. A
// symlink is its target's name, never large; a deleted file is staged as
// deleted.
Sorted sortBySize(const QString &workTree, const QStringList &candidates, qint64 maxFileSize)
{
    Sorted sorted;
    const QDir root(workTree);
    for (const QString &file : candidates) {
        const QFileInfo info(root.filePath(file));
        if (info.isFile() && !info.isSymLink() && info.size() > maxFileSize)
            sorted.large.append(file);
        else
            sorted.small.append(file);
    }
    return sorted;
}

qint64 bytesUnder(const QString &directory)
{
    qint64 total = 0;
    QDirIterator it(directory, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

} // namespace

QJsonObject SnapshotFileDiff::toJson() const
{
    return QJsonObject{{u"file"_s, file},           {u"before"_s, before},
                       {u"after"_s, after},         {u"additions"_s, double(additions)},
                       {u"deletions"_s, double(deletions)}, {u"status"_s, status}};
}

SnapshotStore::SnapshotStore(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    m_options.workTree = QDir::cleanPath(m_options.workTree);
}

SnapshotStore::~SnapshotStore() = default;

QDateTime SnapshotStore::now() const
{
    return m_options.clock ? m_options.clock() : QDateTime::currentDateTimeUtc();
}

QString SnapshotStore::absolute(const QString &relative) const
{
    return QDir::cleanPath(m_options.workTree + u'/' + relative);
}

QCoro::Task<> SnapshotStore::lock()
{
    QPointer<SnapshotStore> self(this);
    while (self && m_locked) {
        auto released = qCoro(this, &SnapshotStore::released);
        co_await released;
    }
    if (self)
        m_locked = true;
}

void SnapshotStore::unlock()
{
    m_locked = false;
    // Waiters resume from the event loop, not inside the frame of the
    // operation that is ending.
    QMetaObject::invokeMethod(this, &SnapshotStore::released, Qt::QueuedConnection);
}

QCoro::Task<std::optional<GitOutput>> SnapshotStore::git(QStringList arguments, QByteArray input)
{
    QPointer<SnapshotStore> self(this);
    if (!m_enabled)
        co_return std::nullopt;
    const QStringList prefix{u"--git-dir"_s,       m_options.gitDirectory,     u"--work-tree"_s,
                             m_options.workTree,   u"--literal-pathspecs"_s,   u"-c"_s,
                             u"core.autocrlf=false"_s, u"-c"_s,                u"core.quotepath=false"_s};
    GitProcess::Failure failure;
    QCoro::Task<Result<GitOutput>> running =
        GitProcess::run(m_options.git, prefix + arguments, m_options.workTree, input, &failure);
    const Result<GitOutput> output = co_await running;
    if (!self)
        co_return std::nullopt;
    if (!output) {
        if (failure.notStarted && m_enabled) {
            m_enabled = false;
            qCWarning(lcSnapshot) << "snapshots are off:" << output.errorMessage();
        } else {
            qCWarning(lcSnapshot) << output.errorMessage();
        }
        co_return std::nullopt;
    }
    if (!output->ok())
        qCDebug(lcSnapshot) << "git" << arguments.value(0) << "failed:" << output->err.trimmed();
    co_return *output;
}

QCoro::Task<bool> SnapshotStore::ensureInitialised()
{
    QPointer<SnapshotStore> self(this);
    if (m_initialised)
        co_return true;
    if (!m_enabled)
        co_return false;
    const QDir gitDirectory(m_options.gitDirectory);
    if (!QFileInfo::exists(gitDirectory.filePath(u"HEAD"_s))) {
        if (!QDir().mkpath(m_options.gitDirectory)) {
            qCWarning(lcSnapshot) << "cannot create" << m_options.gitDirectory;
            co_return false;
        }
        QCoro::Task<std::optional<GitOutput>> initialising = git({u"init"_s, u"--quiet"_s});
        const std::optional<GitOutput> init = co_await initialising;
        if (!self || !init || !init->ok())
            co_return false;
        const QList<QStringList> settings{{u"core.autocrlf"_s, u"false"_s},
                                          {u"core.longpaths"_s, u"true"_s},
                                          {u"core.symlinks"_s, u"true"_s},
                                          {u"core.fsmonitor"_s, u"false"_s},
                                          // Snapshots are never pruned behind qcode's back.
                                          {u"gc.auto"_s, u"0"_s}};
        for (const QStringList &setting : settings) {
            QCoro::Task<std::optional<GitOutput>> configuring = git(QStringList{u"config"_s} + setting);
            const std::optional<GitOutput> set = co_await configuring;
            if (!self || !set || !set->ok())
                co_return false;
        }
    }
    QDir().mkpath(gitDirectory.filePath(u"info"_s));
    QSaveFile attributes(gitDirectory.filePath(u"info/attributes"_s));
    if (!attributes.open(QIODevice::WriteOnly) || attributes.write(ExactBytesAttributes) < 0 || !attributes.commit()) {
        qCWarning(lcSnapshot) << "cannot write" << attributes.fileName() << attributes.errorString();
        co_return false;
    }
    m_initialised = true;
    co_return true;
}

QCoro::Task<> SnapshotStore::copyExclude()
{
    QPointer<SnapshotStore> self(this);
    if (!m_sourceExclude) {
        // .git may be a file (a linked worktree, a submodule): ask git.
        QCoro::Task<Result<GitOutput>> asking =
            GitProcess::run(m_options.git,
                            {u"rev-parse"_s, u"--path-format=absolute"_s, u"--git-path"_s, u"info/exclude"_s},
                            m_options.workTree);
        const Result<GitOutput> found = co_await asking;
        if (!self)
            co_return;
        m_sourceExclude = found && found->ok() ? QString::fromUtf8(found->out).trimmed() : QString();
    }
    QByteArray text;
    if (QFile source(*m_sourceExclude); !m_sourceExclude->isEmpty() && source.open(QIODevice::ReadOnly))
        text = source.readAll();
    QSaveFile target(QDir(m_options.gitDirectory).filePath(u"info/exclude"_s));
    if (!target.open(QIODevice::WriteOnly) || target.write(text) < 0 || !target.commit())
        qCWarning(lcSnapshot) << "cannot write" << target.fileName() << target.errorString();
}

QCoro::Task<bool> SnapshotStore::add()
{
    QPointer<SnapshotStore> self(this);
    QCoro::Task<bool> initialising = ensureInitialised();
    if (!co_await initialising || !self)
        co_return false;
    QCoro::Task<> copying = copyExclude();
    co_await copying;
    if (!self)
        co_return false;

    // Files snapshotted before an ignore rule named them leave the store.
    QCoro::Task<std::optional<GitOutput>> listingIgnored =
        git({u"ls-files"_s, u"-z"_s, u"--cached"_s, u"--ignored"_s, u"--exclude-standard"_s});
    const std::optional<GitOutput> ignored = co_await listingIgnored;
    if (!self || !ignored || !ignored->ok())
        co_return false;
    QStringList leaving = splitNul(ignored->out);

    // What `git add .` would touch: new files and changed or deleted ones.
    QCoro::Task<std::optional<GitOutput>> listing =
        git({u"ls-files"_s, u"-z"_s, u"--others"_s, u"--modified"_s, u"--exclude-standard"_s});
    const std::optional<GitOutput> changed = co_await listing;
    if (!self || !changed || !changed->ok())
        co_return false;
    QFuture<Sorted> sorting = QtConcurrent::run(sortBySize, m_options.workTree, splitNul(changed->out),
                                                m_options.maxFileSize);
    const Sorted sorted = co_await sorting;
    if (!self)
        co_return false;
    if (!sorted.large.isEmpty())
        qCInfo(lcSnapshot) << sorted.large.size() << "files over" << m_options.maxFileSize
                           << "bytes are not snapshotted, e.g." << sorted.large.first();
    leaving += sorted.large;

    if (!leaving.isEmpty()) {
        QCoro::Task<std::optional<GitOutput>> removing =
            git({u"rm"_s, u"--cached"_s, u"-f"_s, u"-q"_s, u"-r"_s, u"--ignore-unmatch"_s, u"--pathspec-from-file=-"_s,
                 u"--pathspec-file-nul"_s},
                joinNul(leaving));
        const std::optional<GitOutput> removed = co_await removing;
        if (!self || !removed || !removed->ok())
            co_return false;
    }
    if (!sorted.small.isEmpty()) {
        QCoro::Task<std::optional<GitOutput>> adding =
            git({u"add"_s, u"--all"_s, u"--pathspec-from-file=-"_s, u"--pathspec-file-nul"_s}, joinNul(sorted.small));
        const std::optional<GitOutput> added = co_await adding;
        if (!self || !added || !added->ok())
            co_return false;
    }
    co_return true;
}

QCoro::Task<std::optional<QString>> SnapshotStore::track()
{
    QPointer<SnapshotStore> self(this);
    QCoro::Task<> locking = lock();
    co_await locking;
    const Turn turn(this);
    QCoro::Task<bool> adding = add();
    const bool added = co_await adding;
    if (!self)
        co_return std::nullopt;
    std::optional<GitOutput> tree;
    if (added) {
        QCoro::Task<std::optional<GitOutput>> writing = git({u"write-tree"_s});
        tree = co_await writing;
        if (!self)
            co_return std::nullopt;
    }
    if (!tree || !tree->ok()) {
        // Off (no git) was said once already; anything else is news.
        if (m_enabled)
            qCWarning(lcSnapshot) << "no snapshot of" << m_options.workTree << "this time:"
                                  << (tree ? tree->err.trimmed() : QByteArray("git failed"));
        co_return std::nullopt;
    }
    co_return QString::fromUtf8(tree->out).trimmed();
}

QCoro::Task<PatchPart> SnapshotStore::patch(QString hash)
{
    QPointer<SnapshotStore> self(this);
    QCoro::Task<> locking = lock();
    co_await locking;
    const Turn turn(this);
    PatchPart patch{hash, {}};
    QCoro::Task<bool> adding = add();
    if (!co_await adding || !self)
        co_return patch;
    QCoro::Task<std::optional<GitOutput>> diffing =
        git({u"diff"_s, u"--no-ext-diff"_s, u"--name-only"_s, u"-z"_s, hash, u"--"_s, u"."_s});
    const std::optional<GitOutput> names = co_await diffing;
    if (!self || !names || !names->ok())
        co_return patch;
    for (const QString &file : splitNul(names->out))
        patch.files.append(absolute(file));
    co_return patch;
}

QCoro::Task<PatchPart> SnapshotStore::changes(QString from, QString to)
{
    QPointer<SnapshotStore> self(this);
    PatchPart patch{from, {}};
    QCoro::Task<std::optional<GitOutput>> diffing =
        git({u"diff"_s, u"--no-ext-diff"_s, u"--name-only"_s, u"-z"_s, from, to, u"--"_s, u"."_s});
    const std::optional<GitOutput> names = co_await diffing;
    if (!self || !names || !names->ok())
        co_return patch;
    for (const QString &file : splitNul(names->out))
        patch.files.append(absolute(file));
    co_return patch;
}

QCoro::Task<QString> SnapshotStore::diff(QString hash)
{
    QPointer<SnapshotStore> self(this);
    QCoro::Task<> locking = lock();
    co_await locking;
    const Turn turn(this);
    QCoro::Task<bool> adding = add();
    if (!co_await adding || !self)
        co_return QString();
    QCoro::Task<std::optional<GitOutput>> diffing = git({u"diff"_s, u"--no-ext-diff"_s, hash, u"--"_s, u"."_s});
    const std::optional<GitOutput> text = co_await diffing;
    if (!self || !text || !text->ok())
        co_return QString();
    co_return QString::fromUtf8(text->out).trimmed();
}

QCoro::Task<QList<SnapshotFileDiff>> SnapshotStore::diffFull(QString from, QString to)
{
    QPointer<SnapshotStore> self(this);
    QList<SnapshotFileDiff> diffs;
    QCoro::Task<std::optional<GitOutput>> listingStatus =
        git({u"diff"_s, u"--no-ext-diff"_s, u"--no-renames"_s, u"--name-status"_s, u"-z"_s, from, to, u"--"_s, u"."_s});
    const std::optional<GitOutput> statuses = co_await listingStatus;
    if (!self || !statuses || !statuses->ok())
        co_return diffs;
    QCoro::Task<std::optional<GitOutput>> counting =
        git({u"diff"_s, u"--no-ext-diff"_s, u"--no-renames"_s, u"--numstat"_s, u"-z"_s, from, to, u"--"_s, u"."_s});
    const std::optional<GitOutput> numbers = co_await counting;
    if (!self || !numbers || !numbers->ok())
        co_return diffs;

    // numstat -z: "<added>\t<deleted>\t<path>\0"; binary files count "-".
    struct Counts {
        qint64 additions = 0;
        qint64 deletions = 0;
        bool binary = false;
    };
    QHash<QString, Counts> counts;
    for (const QString &line : splitNul(numbers->out)) {
        const QStringList fields = line.split(u'\t');
        if (fields.size() < 3)
            continue;
        const bool binary = fields.at(0) == u"-"_s;
        counts.insert(fields.mid(2).join(u'\t'),
                      Counts{binary ? 0 : fields.at(0).toLongLong(), binary ? 0 : fields.at(1).toLongLong(), binary});
    }

    // name-status -z: "<status>\0<path>\0" pairs.
    const QStringList entries = splitNul(statuses->out);
    for (qsizetype i = 0; i + 1 < entries.size(); i += 2) {
        SnapshotFileDiff file;
        file.file = entries.at(i + 1);
        const QChar code = entries.at(i).isEmpty() ? QChar() : entries.at(i).front();
        file.status = code == u'A' ? u"added"_s : code == u'D' ? u"deleted"_s : u"modified"_s;
        const Counts count = counts.value(file.file);
        file.additions = count.additions;
        file.deletions = count.deletions;
        if (!count.binary) {
            if (file.status != u"added"_s) {
                QCoro::Task<std::optional<GitOutput>> showing =
                    git({u"cat-file"_s, u"blob"_s, from + u':' + file.file});
                const std::optional<GitOutput> before = co_await showing;
                if (!self)
                    co_return {};
                if (before && before->ok())
                    file.before = QString::fromUtf8(before->out);
            }
            if (file.status != u"deleted"_s) {
                QCoro::Task<std::optional<GitOutput>> showing = git({u"cat-file"_s, u"blob"_s, to + u':' + file.file});
                const std::optional<GitOutput> after = co_await showing;
                if (!self)
                    co_return {};
                if (after && after->ok())
                    file.after = QString::fromUtf8(after->out);
            }
        }
        diffs.append(file);
    }
    co_return diffs;
}

QCoro::Task<QList<SnapshotFilePatch>> SnapshotStore::worktreeChanges(QString hash, QStringList files)
{
    QPointer<SnapshotStore> self(this);
    QList<SnapshotFilePatch> changes;
    if (files.isEmpty())
        co_return changes; // no pathspec would mean every file
    QCoro::Task<> locking = lock();
    co_await locking;
    const Turn turn(this);
    QCoro::Task<bool> adding = add();
    if (!co_await adding || !self)
        co_return changes;
    // git() passes --literal-pathspecs: a name with '*' is that file.
    const QStringList &paths = files;
    const QStringList diff{u"diff"_s, u"--no-ext-diff"_s, u"--no-color"_s, u"--no-renames"_s, u"--cached"_s, hash};
    QCoro::Task<std::optional<GitOutput>> listing = git(diff + QStringList{u"--name-status"_s, u"-z"_s, u"--"_s} + paths);
    const std::optional<GitOutput> statuses = co_await listing;
    if (!self || !statuses || !statuses->ok())
        co_return changes;
    QCoro::Task<std::optional<GitOutput>> counting = git(diff + QStringList{u"--numstat"_s, u"-z"_s, u"--"_s} + paths);
    const std::optional<GitOutput> numbers = co_await counting;
    if (!self || !numbers || !numbers->ok())
        co_return changes;
    QHash<QString, QStringList> counts; // numstat -z: "<added>\t<deleted>\t<path>\0"; binary files count "-"
    for (const QString &line : splitNul(numbers->out)) {
        const QStringList fields = line.split(u'\t');
        if (fields.size() >= 3)
            counts.insert(fields.mid(2).join(u'\t'), fields.mid(0, 2));
    }
    const QStringList entries = splitNul(statuses->out);
    for (qsizetype i = 0; i + 1 < entries.size(); i += 2) {
        SnapshotFilePatch change;
        change.file = entries.at(i + 1);
        const QChar code = entries.at(i).isEmpty() ? QChar() : entries.at(i).front();
        change.status = code == u'A' ? u"added"_s : code == u'D' ? u"deleted"_s : u"modified"_s;
        const QStringList count = counts.value(change.file);
        change.binary = count.value(0) == u"-"_s;
        change.additions = change.binary ? 0 : count.value(0).toLongLong();
        change.deletions = change.binary ? 0 : count.value(1).toLongLong();
        if (!change.binary) {
            QCoro::Task<std::optional<GitOutput>> showing =
                git(diff + QStringList{u"--"_s, change.file});
            const std::optional<GitOutput> text = co_await showing;
            if (!self)
                co_return {};
            if (text && text->ok())
                change.patch = QString::fromUtf8(text->out);
        }
        changes.append(change);
    }
    co_return changes;
}

QCoro::Task<bool> SnapshotStore::restore(QString hash)
{
    QPointer<SnapshotStore> self(this);
    QCoro::Task<> locking = lock();
    co_await locking;
    const Turn turn(this);
    QCoro::Task<bool> initialising = ensureInitialised();
    if (!co_await initialising || !self)
        co_return false;
    QCoro::Task<std::optional<GitOutput>> reading = git({u"read-tree"_s, hash});
    const std::optional<GitOutput> read = co_await reading;
    if (!self || !read || !read->ok()) {
        qCWarning(lcSnapshot) << "cannot restore snapshot" << hash;
        co_return false;
    }
    QCoro::Task<std::optional<GitOutput>> checkingOut = git({u"checkout-index"_s, u"-a"_s, u"-f"_s});
    const std::optional<GitOutput> checkedOut = co_await checkingOut;
    if (!self || !checkedOut || !checkedOut->ok()) {
        qCWarning(lcSnapshot) << "cannot restore snapshot" << hash;
        co_return false;
    }
    co_return true;
}

QCoro::Task<> SnapshotStore::revert(QList<PatchPart> patches)
{
    QPointer<SnapshotStore> self(this);
    QCoro::Task<> locking = lock();
    co_await locking;
    const Turn turn(this);
    QCoro::Task<bool> initialising = ensureInitialised();
    if (!co_await initialising || !self)
        co_return;
    const QDir root(m_options.workTree);
    QSet<QString> done;
    for (const PatchPart &patch : std::as_const(patches)) {
        for (const QString &file : patch.files) {
            if (done.contains(file))
                continue;
            done.insert(file);
            const QString relative = root.relativeFilePath(file);
            if (relative.startsWith(u"../"_s) || QDir::isAbsolutePath(relative)) {
                qCWarning(lcSnapshot) << "not reverting" << file << ": outside" << m_options.workTree;
                continue;
            }
            QCoro::Task<std::optional<GitOutput>> checkingOut = git({u"checkout"_s, patch.hash, u"--"_s, relative});
            const std::optional<GitOutput> checkedOut = co_await checkingOut;
            if (!self)
                co_return;
            if (checkedOut && checkedOut->ok())
                continue;
            // Not in the snapshot: the step created it, so it goes.
            QCoro::Task<std::optional<GitOutput>> looking = git({u"ls-tree"_s, patch.hash, u"--"_s, relative});
            const std::optional<GitOutput> listed = co_await looking;
            if (!self)
                co_return;
            if (listed && listed->ok() && listed->out.trimmed().isEmpty()) {
                if (QFileInfo(file).isDir() && !QFileInfo(file).isSymLink())
                    QDir(file).removeRecursively();
                else
                    QFile::remove(file);
            } else {
                qCWarning(lcSnapshot) << "cannot revert" << file << "to" << patch.hash;
            }
        }
    }
}

QCoro::Task<bool> SnapshotStore::prune()
{
    QPointer<SnapshotStore> self(this);
    QCoro::Task<> locking = lock();
    co_await locking;
    const Turn turn(this);
    if (!m_enabled || !QFileInfo::exists(QDir(m_options.gitDirectory).filePath(u"HEAD"_s)))
        co_return false;
    const qint64 hours = m_options.pruneAge.count();
    const QString bound = hours <= 0 ? u"now"_s : u"%1.hours.ago"_s.arg(hours);
    QCoro::Task<std::optional<GitOutput>> collecting = git({u"gc"_s, u"--quiet"_s, u"--prune=" + bound});
    const std::optional<GitOutput> collected = co_await collecting;
    if (!self || !collected)
        co_return false;
    if (!collected->ok())
        qCWarning(lcSnapshot) << "git gc failed in" << m_options.gitDirectory << collected->err.trimmed();

    const qint64 staleBefore = now().toMSecsSinceEpoch() - StaleTemporaryMs;
    QDirIterator it(QDir(m_options.gitDirectory).filePath(u"objects"_s), {u"tmp_*"_s, u".tmp-*"_s},
                    QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        if (it.fileInfo().lastModified().toMSecsSinceEpoch() < staleBefore)
            QFile::remove(it.filePath());
    }

    QSaveFile stamp(QDir(m_options.gitDirectory).filePath(LastPruneFile));
    if (!stamp.open(QIODevice::WriteOnly) || stamp.write(QByteArray::number(now().toMSecsSinceEpoch())) < 0
        || !stamp.commit())
        qCWarning(lcSnapshot) << "cannot write" << stamp.fileName() << stamp.errorString();
    co_return collected->ok();
}

QCoro::Task<bool> SnapshotStore::maybePrune()
{
    QFile stamp(QDir(m_options.gitDirectory).filePath(LastPruneFile));
    if (stamp.open(QIODevice::ReadOnly)) {
        bool ok = false;
        const qint64 last = stamp.readAll().trimmed().toLongLong(&ok);
        const qint64 interval = std::chrono::duration_cast<std::chrono::milliseconds>(m_options.pruneInterval).count();
        if (ok && now().toMSecsSinceEpoch() - last < interval)
            co_return false;
    }
    QCoro::Task<bool> pruning = prune();
    const bool pruned = co_await pruning;
    co_return pruned;
}

QCoro::Task<qint64> SnapshotStore::size()
{
    QFuture<qint64> counting = QtConcurrent::run(bytesUnder, m_options.gitDirectory);
    const qint64 bytes = co_await counting;
    co_return bytes;
}

} // namespace qcode
