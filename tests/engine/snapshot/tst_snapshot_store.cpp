#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <QCoro/QCoroTask>

#include <memory>
#include <vector>

#include "engine/snapshot/SnapshotStore.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

bool git(const QString &directory, const QStringList &arguments, QByteArray *out = nullptr)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.start(u"git"_s, arguments);
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit)
        return false;
    if (out)
        *out = process.readAllStandardOutput();
    return process.exitCode() == 0;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

QByteArray randomBytes(qsizetype size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    QRandomGenerator generator(42);
    for (qsizetype i = 0; i < size; ++i)
        bytes[i] = char(generator.bounded(256));
    return bytes;
}

// A repository with committed a.txt and b.txt (reference §12.8), and a
// data folder for the store.
struct Fixture {
    QTemporaryDir root;
    QString repo;
    std::unique_ptr<SnapshotStore> store;

    explicit Fixture(SnapshotStore::Options options = {})
    {
        repo = QDir(root.path()).filePath(u"repo"_s);
        QDir().mkpath(repo);
        git(repo, {u"init"_s, u"-q"_s});
        writeFile(path(u"a.txt"_s), "A");
        writeFile(path(u"b.txt"_s), "B");
        git(repo, {u"add"_s, u"."_s});
        git(repo, {u"-c"_s, u"user.name=t"_s, u"-c"_s, u"user.email=t@example.invalid"_s, u"commit"_s, u"-q"_s,
                   u"-m"_s, u"init"_s});
        options.gitDirectory = QDir(root.path()).filePath(u"data/snapshot/project"_s);
        options.workTree = repo;
        store = std::make_unique<SnapshotStore>(options);
    }

    QString path(const QString &relative) const { return QDir(repo).filePath(relative); }

    QString track()
    {
        QCoro::Task<std::optional<QString>> tracking = store->track();
        return QCoro::waitFor(tracking).value_or(QString());
    }
    QStringList patch(const QString &hash)
    {
        QCoro::Task<PatchPart> patching = store->patch(hash);
        QStringList files = QCoro::waitFor(patching).files;
        files.sort();
        return files;
    }
    void revert(const QList<PatchPart> &patches)
    {
        QCoro::Task<> reverting = store->revert(patches);
        QCoro::waitFor(reverting);
    }
    QList<SnapshotFileDiff> diffFull(const QString &from, const QString &to)
    {
        QCoro::Task<QList<SnapshotFileDiff>> diffing = store->diffFull(from, to);
        return QCoro::waitFor(diffing);
    }
    qint64 size()
    {
        QCoro::Task<qint64> sizing = store->size();
        return QCoro::waitFor(sizing);
    }
    bool snapshotHas(const QString &hash, const QString &file) const
    {
        QByteArray out;
        git(repo, {u"--git-dir"_s, store->options().gitDirectory, u"ls-tree"_s, u"-r"_s, u"--name-only"_s, hash}, &out);
        return out.split('\n').contains(file.toUtf8());
    }
    bool objectExists(const QString &hash) const
    {
        return git(repo, {u"--git-dir"_s, store->options().gitDirectory, u"cat-file"_s, u"-e"_s, hash});
    }
};

int snapshotWarnings = 0;
QtMessageHandler previousHandler = nullptr;

void countSnapshotWarnings(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg && context.category && QByteArray(context.category) == "qcode.snapshot")
        ++snapshotWarnings;
    previousHandler(type, context, message);
}

} // namespace

class SnapshotStoreTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void trackGivesATreeAndPatchListsADeletedFile();
    void revertRemovesAFileTheStepCreated();
    void revertRestoresDeletedAndModifiedFilesAndRemovesNewOnes();
    void revertRestoresTheExactBytesOfCrlfAndBinaryFiles();
    void revertTakesTheFirstPatchOfAFile();
    void unusualFileNamesRoundTrip();
    void anEmptyRevertAndAnUnknownHashAreHarmless();
    void diffShowsTheChangeAndDiffFullCountsIt();
    void restorePutsEveryFileBack();
    void filesOverTheSizeLimitAreNotSnapshotted();
    void ignoredFilesAreNotSnapshotted();
    void theProjectsInfoExcludeIsHonoured();
    void theStoreIsNeverTheProjectsGitDirectory();
    void sizeIsReportedAndPruneDropsOldSnapshots();
    void pruneRunsAtMostOncePerInterval();
    void aMissingGitTurnsSnapshotsOffWithOneWarning();
    void operationsStartedTogetherTakeTurns();
};

void SnapshotStoreTest::trackGivesATreeAndPatchListsADeletedFile()
{
    Fixture f;
    const QString hash = f.track();
    QCOMPARE(hash.size(), 40);
    QVERIFY(QFile::remove(f.path(u"a.txt"_s)));
    QCOMPARE(f.patch(hash), QStringList{f.path(u"a.txt"_s)});
    // Nothing changed: same tree, no files.
    QCOMPARE(f.patch(f.track()), QStringList());
}

void SnapshotStoreTest::revertRemovesAFileTheStepCreated()
{
    Fixture f;
    const QString hash = f.track();
    QVERIFY(writeFile(f.path(u"sub/nested/new.txt"_s), "new"));
    QCoro::Task<PatchPart> patching = f.store->patch(hash);
    const PatchPart patch = QCoro::waitFor(patching);
    QCOMPARE(patch.hash, hash);
    QCOMPARE(patch.files, QStringList{f.path(u"sub/nested/new.txt"_s)});
    f.revert({patch});
    QVERIFY(!QFileInfo::exists(f.path(u"sub/nested/new.txt"_s)));
    QVERIFY(QFileInfo(f.path(u"sub/nested"_s)).isDir()); // empty folders stay, as in OpenCode
}

void SnapshotStoreTest::revertRestoresDeletedAndModifiedFilesAndRemovesNewOnes()
{
    Fixture f;
    const QString hash = f.track();
    QVERIFY(QFile::remove(f.path(u"a.txt"_s)));
    QVERIFY(writeFile(f.path(u"b.txt"_s), "changed"));
    QVERIFY(writeFile(f.path(u"c.txt"_s), "C"));
    QVERIFY(writeFile(f.path(u"dir/d.txt"_s), "D"));
    const QStringList files = f.patch(hash);
    QCOMPARE(files, (QStringList{f.path(u"a.txt"_s), f.path(u"b.txt"_s), f.path(u"c.txt"_s), f.path(u"dir/d.txt"_s)}));
    f.revert({PatchPart{hash, files}});
    QCOMPARE(readFile(f.path(u"a.txt"_s)), QByteArray("A"));
    QCOMPARE(readFile(f.path(u"b.txt"_s)), QByteArray("B"));
    QVERIFY(!QFileInfo::exists(f.path(u"c.txt"_s)));
    QVERIFY(!QFileInfo::exists(f.path(u"dir/d.txt"_s)));
    QCOMPARE(f.patch(hash), QStringList());
}

void SnapshotStoreTest::revertRestoresTheExactBytesOfCrlfAndBinaryFiles()
{
    Fixture f;
    // A .gitattributes that would normalise line ends and mark a filter
    // must not change what the store keeps.
    QVERIFY(writeFile(f.path(u".gitattributes"_s), "* text=auto eol=lf\n*.bin filter=lfs\n"));
    const QByteArray crlf = "first line\r\nsecond line\r\n\r\nlast, no newline";
    QByteArray binary = randomBytes(4096);
    binary.replace(100, 4, QByteArray("\r\n\0\xff", 4));
    const QByteArray invalidUtf8 = "caf\xe9 \xc3\x28 \r\n";
    QVERIFY(writeFile(f.path(u"windows.txt"_s), crlf));
    QVERIFY(writeFile(f.path(u"blob.bin"_s), binary));
    QVERIFY(writeFile(f.path(u"latin1.txt"_s), invalidUtf8));
    const QString hash = f.track();

    // Edits as an editor makes them: read the file, change it, write it.
    QFile edited(f.path(u"windows.txt"_s));
    QVERIFY(edited.open(QIODevice::ReadWrite));
    QByteArray text = edited.readAll();
    text.replace("second line", "SECOND LINE\r\nadded");
    QVERIFY(edited.seek(0));
    QVERIFY(edited.resize(0));
    QVERIFY(edited.write(text) == text.size());
    edited.close();
    QVERIFY(writeFile(f.path(u"blob.bin"_s), randomBytes(100)));
    QVERIFY(writeFile(f.path(u"latin1.txt"_s), "now utf-8: café\n"));

    const QStringList files = f.patch(hash);
    QCOMPARE(files.size(), 3);
    f.revert({PatchPart{hash, files}});
    QCOMPARE(readFile(f.path(u"windows.txt"_s)), crlf);
    QCOMPARE(readFile(f.path(u"blob.bin"_s)), binary);
    QCOMPARE(readFile(f.path(u"latin1.txt"_s)), invalidUtf8);
}

void SnapshotStoreTest::revertTakesTheFirstPatchOfAFile()
{
    Fixture f;
    const QString first = f.track();
    QVERIFY(writeFile(f.path(u"a.txt"_s), "step 1"));
    const QString second = f.track();
    QVERIFY(writeFile(f.path(u"a.txt"_s), "step 2"));
    const QStringList file{f.path(u"a.txt"_s)};
    f.revert({PatchPart{first, file}, PatchPart{second, file}});
    QCOMPARE(readFile(f.path(u"a.txt"_s)), QByteArray("A"));
}

void SnapshotStoreTest::unusualFileNamesRoundTrip()
{
    Fixture f;
    const QString hash = f.track();
    const QStringList names{u"with spaces.txt"_s, u"文件.txt"_s, u"🚀rocket.txt"_s, u"café.txt"_s,
                            u"файл.txt"_s,      u".hidden"_s,  u"star*.txt"_s,     u"q?[x].txt"_s,
                            QString(200, u'n') + u".txt"_s, u"-dash.txt"_s};
    for (const QString &name : names)
        QVERIFY2(writeFile(f.path(name), name.toUtf8()), qPrintable(name));
    QVERIFY(QFile::link(f.path(u"a.txt"_s), f.path(u"link.txt"_s)));
    QStringList expected;
    for (const QString &name : names)
        expected.append(f.path(name));
    expected.append(f.path(u"link.txt"_s));
    expected.sort();
    const QStringList files = f.patch(hash);
    QCOMPARE(files, expected);
    f.revert({PatchPart{hash, files}});
    for (const QString &name : names)
        QVERIFY2(!QFileInfo::exists(f.path(name)), qPrintable(name));
    QVERIFY(!QFileInfo(f.path(u"link.txt"_s)).isSymLink());
}

void SnapshotStoreTest::anEmptyRevertAndAnUnknownHashAreHarmless()
{
    Fixture f;
    const QString hash = f.track();
    f.revert({});
    f.revert({PatchPart{hash, {}}});
    QCoro::Task<PatchPart> patching = f.store->patch(u"invalid-hash-12345"_s);
    const PatchPart patch = QCoro::waitFor(patching);
    QCOMPARE(patch.hash, u"invalid-hash-12345"_s);
    QVERIFY(patch.files.isEmpty());
    // A file the snapshot never had, that is gone already.
    f.revert({PatchPart{hash, {f.path(u"never-there.txt"_s)}}});
    QCOMPARE(readFile(f.path(u"a.txt"_s)), QByteArray("A"));
    // A path outside the project is never touched.
    QTemporaryDir outside;
    const QString stranger = QDir(outside.path()).filePath(u"keep.txt"_s);
    QVERIFY(writeFile(stranger, "mine"));
    f.revert({PatchPart{hash, {stranger}}});
    QCOMPARE(readFile(stranger), QByteArray("mine"));
}

void SnapshotStoreTest::diffShowsTheChangeAndDiffFullCountsIt()
{
    Fixture f;
    QVERIFY(writeFile(f.path(u"bin.dat"_s), QByteArray("\0\1\2", 3)));
    const QString from = f.track();
    QVERIFY(writeFile(f.path(u"b.txt"_s), "B2\nline\n"));
    QVERIFY(writeFile(f.path(u"new.txt"_s), "one\ntwo\n"));
    QVERIFY(QFile::remove(f.path(u"a.txt"_s)));
    QVERIFY(writeFile(f.path(u"bin.dat"_s), QByteArray("\0\3", 2)));

    QCoro::Task<QString> diffing = f.store->diff(from);
    const QString diff = QCoro::waitFor(diffing);
    QVERIFY2(diff.contains(u"-B"_s) && diff.contains(u"+B2"_s) && diff.contains(u"+one"_s), qPrintable(diff));

    const QString to = f.track();
    const QList<SnapshotFileDiff> diffs = f.diffFull(from, to);
    QCOMPARE(diffs.size(), 4);
    QHash<QString, SnapshotFileDiff> byFile;
    for (const SnapshotFileDiff &d : diffs)
        byFile.insert(d.file, d);
    QCOMPARE(byFile.value(u"a.txt"_s).status, u"deleted"_s);
    QCOMPARE(byFile.value(u"a.txt"_s).before, u"A"_s);
    QCOMPARE(byFile.value(u"a.txt"_s).deletions, 1);
    QCOMPARE(byFile.value(u"new.txt"_s).status, u"added"_s);
    QCOMPARE(byFile.value(u"new.txt"_s).after, u"one\ntwo\n"_s);
    QCOMPARE(byFile.value(u"new.txt"_s).additions, 2);
    QCOMPARE(byFile.value(u"b.txt"_s).status, u"modified"_s);
    QCOMPARE(byFile.value(u"b.txt"_s).additions, 2);
    QCOMPARE(byFile.value(u"b.txt"_s).deletions, 1);
    const SnapshotFileDiff binary = byFile.value(u"bin.dat"_s);
    QCOMPARE(binary.status, u"modified"_s);
    QVERIFY(binary.before.isEmpty() && binary.after.isEmpty());
    QCOMPARE(binary.additions + binary.deletions, 0);
}

void SnapshotStoreTest::restorePutsEveryFileBack()
{
    Fixture f;
    const QString hash = f.track();
    QVERIFY(writeFile(f.path(u"a.txt"_s), "changed"));
    QVERIFY(QFile::remove(f.path(u"b.txt"_s)));
    QCoro::Task<bool> restoring = f.store->restore(hash);
    QVERIFY(QCoro::waitFor(restoring));
    QCOMPARE(readFile(f.path(u"a.txt"_s)), QByteArray("A"));
    QCOMPARE(readFile(f.path(u"b.txt"_s)), QByteArray("B"));
    QCoro::Task<bool> bad = f.store->restore(u"0123456789012345678901234567890123456789"_s);
    QVERIFY(!QCoro::waitFor(bad));
}

void SnapshotStoreTest::filesOverTheSizeLimitAreNotSnapshotted()
{
    SnapshotStore::Options options;
    options.maxFileSize = 1000;
    Fixture f(options);
    QVERIFY(writeFile(f.path(u"grows.txt"_s), "small"));
    const QString hash = f.track();
    QVERIFY(f.snapshotHas(hash, u"grows.txt"_s));
    QVERIFY(writeFile(f.path(u"huge.bin"_s), randomBytes(1001)));
    QVERIFY(writeFile(f.path(u"exact.bin"_s), randomBytes(1000)));
    QVERIFY(writeFile(f.path(u"grows.txt"_s), randomBytes(5000)));
    const QString after = f.track();
    QVERIFY(!f.snapshotHas(after, u"huge.bin"_s));
    QVERIFY(f.snapshotHas(after, u"exact.bin"_s));
    // A file that grew over the limit leaves the store.
    QVERIFY(!f.snapshotHas(after, u"grows.txt"_s));
    // The default limit is 2 MB.
    QCOMPARE(SnapshotStore::Options().maxFileSize, 2 * 1024 * 1024);
}

void SnapshotStoreTest::ignoredFilesAreNotSnapshotted()
{
    Fixture f;
    const QString hash = f.track();
    QVERIFY(writeFile(f.path(u".gitignore"_s), "*.log\nbuild/\n"));
    QVERIFY(writeFile(f.path(u"debug.log"_s), "noise"));
    QVERIFY(writeFile(f.path(u"build/out.o"_s), "object"));
    QVERIFY(writeFile(f.path(u"kept.txt"_s), "kept"));
    QCOMPARE(f.patch(hash), (QStringList{f.path(u".gitignore"_s), f.path(u"kept.txt"_s)}));
    // A file snapshotted before a rule ignored it leaves the store.
    const QString before = f.track();
    QVERIFY(f.snapshotHas(before, u"kept.txt"_s));
    QVERIFY(writeFile(f.path(u".gitignore"_s), "*.log\nbuild/\nkept.txt\n"));
    const QString after = f.track();
    QVERIFY(!f.snapshotHas(after, u"kept.txt"_s));
    QVERIFY(!f.snapshotHas(after, u"debug.log"_s));
}

void SnapshotStoreTest::theProjectsInfoExcludeIsHonoured()
{
    Fixture f;
    QVERIFY(writeFile(f.path(u".git/info/exclude"_s), "secret.txt\n"));
    const QString hash = f.track();
    QVERIFY(writeFile(f.path(u"secret.txt"_s), "hush"));
    QVERIFY(writeFile(f.path(u"open.txt"_s), "hi"));
    QCOMPARE(f.patch(hash), QStringList{f.path(u"open.txt"_s)});
}

void SnapshotStoreTest::theStoreIsNeverTheProjectsGitDirectory()
{
    Fixture f;
    QByteArray statusBefore;
    QVERIFY(git(f.repo, {u"status"_s, u"--porcelain"_s}, &statusBefore));
    QVERIFY(writeFile(f.path(u"new.txt"_s), "x"));
    f.track();
    QByteArray status;
    QVERIFY(git(f.repo, {u"status"_s, u"--porcelain"_s}, &status));
    // The user's index is untouched: new.txt is still untracked there.
    QCOMPARE(status, statusBefore + "?? new.txt\n");
    QVERIFY(QFileInfo::exists(QDir(f.store->options().gitDirectory).filePath(u"HEAD"_s)));
    QCoro::Task<bool> restoring = f.store->restore(f.track());
    QVERIFY(QCoro::waitFor(restoring));
    QByteArray config;
    git(f.repo, {u"--git-dir"_s, f.store->options().gitDirectory, u"config"_s, u"--list"_s, u"--local"_s}, &config);
    QVERIFY2(config.contains("core.autocrlf=false") && config.contains("core.longpaths=true")
                 && config.contains("core.symlinks=true") && config.contains("core.fsmonitor=false"),
             config.constData());
}

void SnapshotStoreTest::sizeIsReportedAndPruneDropsOldSnapshots()
{
    SnapshotStore::Options options;
    options.pruneAge = std::chrono::hours(0);
    Fixture f(options);
    QCOMPARE(f.size(), 0); // nothing stored before the first snapshot
    f.track();
    const qint64 empty = f.size();
    QVERIFY(empty > 0);
    QVERIFY(writeFile(f.path(u"large.bin"_s), randomBytes(1024 * 1024)));
    const QString withLarge = f.track();
    const qint64 grown = f.size();
    QVERIFY2(grown - empty > 1000 * 1000, qPrintable(u"%1 → %2"_s.arg(empty).arg(grown)));

    // Independently of the store: every file under its folder.
    qint64 counted = 0;
    QDirIterator it(f.store->options().gitDirectory, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        counted += it.fileInfo().size();
    }
    QCOMPARE(grown, counted);

    QVERIFY(QFile::remove(f.path(u"large.bin"_s)));
    const QString without = f.track();
    QCoro::Task<bool> pruning = f.store->prune();
    QVERIFY(QCoro::waitFor(pruning));
    // The snapshot nothing refers to any more is gone, and its bytes.
    QVERIFY(!f.objectExists(withLarge));
    QVERIFY(f.objectExists(without));
    QVERIFY2(f.size() < grown - 1000 * 1000, qPrintable(u"%1 after prune, %2 before"_s.arg(f.size()).arg(grown)));
}

void SnapshotStoreTest::pruneRunsAtMostOncePerInterval()
{
    QDateTime now = QDateTime::fromString(u"2026-01-01T00:00:00Z"_s, Qt::ISODate);
    SnapshotStore::Options options;
    options.clock = [&now] { return now; };
    Fixture f(options);
    QCoro::Task<bool> early = f.store->maybePrune();
    QVERIFY(!QCoro::waitFor(early)); // no store yet: nothing to prune
    f.track();
    QCoro::Task<bool> first = f.store->maybePrune();
    QVERIFY(QCoro::waitFor(first));
    now = now.addSecs(59 * 60);
    QCoro::Task<bool> second = f.store->maybePrune();
    QVERIFY(!QCoro::waitFor(second));
    now = now.addSecs(2 * 60);
    QCoro::Task<bool> third = f.store->maybePrune();
    QVERIFY(QCoro::waitFor(third));
    // The stamp survives the store object: a restart does not prune again.
    SnapshotStore again(f.store->options());
    QCoro::Task<bool> fourth = again.maybePrune();
    QVERIFY(!QCoro::waitFor(fourth));
}

void SnapshotStoreTest::aMissingGitTurnsSnapshotsOffWithOneWarning()
{
    SnapshotStore::Options options;
    options.git = u"/nonexistent/bin/git"_s;
    Fixture f(options);
    snapshotWarnings = 0;
    previousHandler = qInstallMessageHandler(countSnapshotWarnings);
    const QString first = f.track();
    const QStringList files = f.patch(u"abc"_s);
    const QString second = f.track();
    QCoro::Task<bool> pruning = f.store->prune();
    const bool pruned = QCoro::waitFor(pruning);
    qInstallMessageHandler(previousHandler);
    QVERIFY(first.isEmpty() && second.isEmpty() && files.isEmpty() && !pruned);
    QVERIFY(!f.store->isEnabled());
    QCOMPARE(snapshotWarnings, 1);
    QVERIFY(!QFileInfo::exists(QDir(f.store->options().gitDirectory).filePath(u"HEAD"_s)));
}

void SnapshotStoreTest::operationsStartedTogetherTakeTurns()
{
    // Parallel subagents of one project snapshot at the same time; git
    // allows one writer of the store's index.
    Fixture f;
    const QString base = f.track();
    for (int i = 0; i < 20; ++i)
        QVERIFY(writeFile(f.path(u"many/file%1.txt"_s.arg(i)), QByteArray::number(i)));
    std::vector<QCoro::Task<std::optional<QString>>> tracking;
    for (int i = 0; i < 6; ++i)
        tracking.push_back(f.store->track());
    QCoro::Task<PatchPart> patching = f.store->patch(base);
    QStringList hashes;
    for (QCoro::Task<std::optional<QString>> &task : tracking)
        hashes.append(QCoro::waitFor(task).value_or(QString()));
    QCOMPARE(QCoro::waitFor(patching).files.size(), 20);
    for (const QString &hash : hashes)
        QCOMPARE(hash, hashes.first());
    QCOMPARE(hashes.first().size(), 40);
}

QTEST_GUILESS_MAIN(SnapshotStoreTest)
#include "tst_snapshot_store.moc"
