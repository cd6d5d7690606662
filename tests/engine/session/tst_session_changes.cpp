#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>

#include "EngineHarness.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

EngineHarness::Setup gitSetup()
{
    EngineHarness::Setup setup;
    setup.gitRepository = true;
    setup.builtinTools = true;
    setup.config.insert(u"permission"_s, u"allow"_s);
    return setup;
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

// The edit tool changes only a file the model read first.
FakeTurn read(const QString &path, const QString &id)
{
    return FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, path}}, id);
}

FakeTurn edit(const QString &path, const QString &oldText, const QString &newText, const QString &id)
{
    return FakeTurn().toolCall(
        u"edit"_s, QJsonObject{{u"filePath"_s, path}, {u"oldString"_s, oldText}, {u"newString"_s, newText}}, id);
}

// "file status +A -D" for each listed change.
QStringList described(const QList<SnapshotFilePatch> &changes)
{
    QStringList out;
    for (const SnapshotFilePatch &change : changes)
        out.append(u"%1 %2 +%3 -%4"_s.arg(change.file, change.status).arg(change.additions).arg(change.deletions));
    return out;
}

} // namespace

// What a session changed, for the Changes panel (issue 19, point 17).
class SessionChangesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsEveryFileTheStepsChangedWithItsCounts();
    void aFileChangedTwiceIsComparedWithHowItWasBeforeTheSession();
    void revertingOneFilePutsItBackAndLeavesTheOthers();
    void aFileTheSessionCreatedGoesWhenItIsReverted();
    void filesAnUndoPutBackAreNotListed();
    void aFileTheSessionNeverChangedIsRefused();
    void outsideGitNothingIsListed();

private:
    static std::optional<QList<SnapshotFilePatch>> list(EngineHarness &h);
    static std::optional<QList<SnapshotFilePatch>> revert(EngineHarness &h, const QString &file);
};

std::optional<QList<SnapshotFilePatch>> SessionChangesTest::list(EngineHarness &h)
{
    QSignalSpy listed(&h.engine(), &Engine::changesListed);
    h.engine().listChanges(h.session());
    if (!listed.wait(10000))
        return std::nullopt;
    return listed.first().at(1).value<QList<SnapshotFilePatch>>();
}

std::optional<QList<SnapshotFilePatch>> SessionChangesTest::revert(EngineHarness &h, const QString &file)
{
    QSignalSpy listed(&h.engine(), &Engine::changesListed);
    h.engine().revertFile(h.session(), file);
    if (!listed.wait(10000))
        return std::nullopt;
    return listed.first().at(1).value<QList<SnapshotFilePatch>>();
}

void SessionChangesTest::listsEveryFileTheStepsChangedWithItsCounts()
{
    EngineHarness h(gitSetup());
    const QDir project(h.projectDirectory());
    QVERIFY(writeFile(project.filePath(u"a.txt"_s), "one\ntwo\nthree\n"));
    QVERIFY(writeFile(project.filePath(u"untouched.txt"_s), "same\n"));
    h.server().enqueue(read(project.filePath(u"a.txt"_s), u"r1"_s));
    h.server().enqueue(edit(project.filePath(u"a.txt"_s), u"two"_s, u"TWO"_s, u"c1"_s)
                           .toolCall(u"write"_s,
                                     QJsonObject{{u"filePath"_s, project.filePath(u"src/new.txt"_s)},
                                                 {u"content"_s, u"hello\nworld\n"_s}},
                                     u"c2"_s));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    QVERIFY(h.prompt(u"edit"_s));
    // The person's own change to another file is not the session's.
    QVERIFY(writeFile(project.filePath(u"untouched.txt"_s), "changed by hand\n"));

    const auto changes = list(h);
    QVERIFY(changes);
    QCOMPARE(described(*changes), (QStringList{u"a.txt modified +1 -1"_s, u"src/new.txt added +2 -0"_s}));
    QVERIFY2(changes->at(0).patch.contains(u"\n-two\n+TWO\n"_s), qPrintable(changes->at(0).patch));
    QVERIFY(changes->at(1).patch.contains(u"+hello"_s));
}

void SessionChangesTest::aFileChangedTwiceIsComparedWithHowItWasBeforeTheSession()
{
    EngineHarness h(gitSetup());
    const QString a = QDir(h.projectDirectory()).filePath(u"a.txt"_s);
    QVERIFY(writeFile(a, "one\ntwo\nthree\n"));
    h.server().enqueue(read(a, u"r1"_s));
    h.server().enqueue(edit(a, u"one"_s, u"ONE"_s, u"c1"_s));
    h.server().enqueue(FakeTurn().text({u"First."_s}));
    QVERIFY(h.prompt(u"first"_s));
    h.server().enqueue(read(a, u"r2"_s));
    h.server().enqueue(edit(a, u"three"_s, u"THREE"_s, u"c2"_s));
    h.server().enqueue(FakeTurn().text({u"Second."_s}));
    QVERIFY(h.prompt(u"second"_s));

    const auto changes = list(h);
    QVERIFY(changes);
    QCOMPARE(described(*changes), QStringList{u"a.txt modified +2 -2"_s});
    QVERIFY(changes->at(0).patch.contains(u"-one"_s));
    QVERIFY(changes->at(0).patch.contains(u"-three"_s));
}

void SessionChangesTest::revertingOneFilePutsItBackAndLeavesTheOthers()
{
    EngineHarness h(gitSetup());
    const QDir project(h.projectDirectory());
    QVERIFY(writeFile(project.filePath(u"a.txt"_s), "one\ntwo\n"));
    QVERIFY(writeFile(project.filePath(u"b.txt"_s), "alpha\nbeta\n"));
    h.server().enqueue(read(project.filePath(u"a.txt"_s), u"r1"_s).toolCall(
        u"read"_s, QJsonObject{{u"filePath"_s, project.filePath(u"b.txt"_s)}}, u"r2"_s));
    h.server().enqueue(edit(project.filePath(u"a.txt"_s), u"two"_s, u"TWO"_s, u"c1"_s)
                           .toolCall(u"edit"_s,
                                     QJsonObject{{u"filePath"_s, project.filePath(u"b.txt"_s)},
                                                 {u"oldString"_s, u"beta"_s},
                                                 {u"newString"_s, u"BETA"_s}},
                                     u"c2"_s));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    QVERIFY(h.prompt(u"edit both"_s));

    const auto left = revert(h, u"a.txt"_s);
    QVERIFY(left);
    QCOMPARE(described(*left), QStringList{u"b.txt modified +1 -1"_s});
    QCOMPARE(readFile(project.filePath(u"a.txt"_s)), QByteArray("one\ntwo\n"));
    QCOMPARE(readFile(project.filePath(u"b.txt"_s)), QByteArray("alpha\nBETA\n"));
}

void SessionChangesTest::aFileTheSessionCreatedGoesWhenItIsReverted()
{
    EngineHarness h(gitSetup());
    const QString created = QDir(h.projectDirectory()).filePath(u"created.txt"_s);
    h.server().enqueue(FakeTurn().toolCall(
        u"write"_s, QJsonObject{{u"filePath"_s, created}, {u"content"_s, u"new\n"_s}}, u"c1"_s));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    QVERIFY(h.prompt(u"create"_s));
    QVERIFY(QFile::exists(created));
    const auto left = revert(h, u"created.txt"_s);
    QVERIFY(left);
    QVERIFY(left->isEmpty());
    QVERIFY(!QFile::exists(created));
}

void SessionChangesTest::filesAnUndoPutBackAreNotListed()
{
    EngineHarness h(gitSetup());
    const QString a = QDir(h.projectDirectory()).filePath(u"a.txt"_s);
    QVERIFY(writeFile(a, "one\n"));
    h.server().enqueue(read(a, u"r1"_s));
    h.server().enqueue(edit(a, u"one"_s, u"ONE"_s, u"c1"_s));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    QVERIFY(h.prompt(u"edit"_s));
    QCOMPARE(list(h)->size(), 1);

    const qsizetype before = h.sink().all<SessionUpdated>().size();
    h.engine().revert(h.session(), h.messages().first().info.id());
    QVERIFY(QTest::qWaitFor([&] { return h.sink().all<SessionUpdated>().size() > before; }, 10000));
    const auto changes = list(h);
    QVERIFY(changes);
    QVERIFY(changes->isEmpty());
}

void SessionChangesTest::aFileTheSessionNeverChangedIsRefused()
{
    EngineHarness h(gitSetup());
    const QString other = QDir(h.projectDirectory()).filePath(u"other.txt"_s);
    QVERIFY(writeFile(other, "mine\n"));
    h.server().enqueue(FakeTurn().text({u"Nothing to do."_s}));
    QVERIFY(h.prompt(u"hello"_s));
    QVERIFY(writeFile(other, "still mine\n"));
    const qsizetype errors = h.sink().all<SessionError>().size();
    const auto left = revert(h, u"other.txt"_s);
    QVERIFY(left);
    QVERIFY(left->isEmpty());
    QCOMPARE(h.sink().all<SessionError>().size(), errors + 1);
    QVERIFY(h.sink().all<SessionError>().constLast().error.message().contains(u"other.txt"_s));
    QCOMPARE(readFile(other), QByteArray("still mine\n"));
}

void SessionChangesTest::outsideGitNothingIsListed()
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.config.insert(u"permission"_s, u"allow"_s);
    EngineHarness h(setup);
    const QString a = QDir(h.projectDirectory()).filePath(u"a.txt"_s);
    QVERIFY(writeFile(a, "one\n"));
    h.server().enqueue(read(a, u"r1"_s));
    h.server().enqueue(edit(a, u"one"_s, u"ONE"_s, u"c1"_s));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    QVERIFY(h.prompt(u"edit"_s));
    const auto changes = list(h);
    QVERIFY(changes);
    QVERIFY(changes->isEmpty());
}

QTEST_MAIN(SessionChangesTest)
#include "tst_session_changes.moc"
