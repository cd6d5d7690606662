#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "EngineHarness.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QByteArray CrlfText = "first line\r\nsecond line\r\nthird line\r\n";

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

QByteArray binaryBytes()
{
    QByteArray bytes;
    for (int i = 0; i < 3000; ++i)
        bytes.append(char((i * 7919) % 256));
    return bytes;
}

template <typename T>
QList<Part> partsOf(const QList<MessageWithParts> &messages)
{
    QList<Part> found;
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            if (part.as<T>())
                found.append(part);
        }
    }
    return found;
}

std::optional<Session> storedSession(EngineHarness &h)
{
    const Result<std::optional<Session>> session = h.store().session(h.session());
    return session ? *session : std::nullopt;
}

// Waits for the engine to save the session with (or without) a revert
// point, after `before` SessionUpdated events.
bool waitForRevert(EngineHarness &h, qsizetype before, bool reverted)
{
    return QTest::qWaitFor(
        [&h, before, reverted] {
            const QList<SessionUpdated> updates = h.sink().all<SessionUpdated>();
            for (qsizetype i = before; i < updates.size(); ++i) {
                if (updates.at(i).info.revert.has_value() == reverted)
                    return true;
            }
            return false;
        },
        15000);
}

EngineHarness::Setup gitSetup()
{
    EngineHarness::Setup setup;
    setup.gitRepository = true;
    setup.builtinTools = true;
    setup.config.insert(u"permission"_s, u"allow"_s);
    return setup;
}

} // namespace

class SessionRevertTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void anEditingStepGetsAPatchAndRevertRestoresTheExactBytes();
    void unrevertPutsTheEditsBack();
    void theNextPromptDeletesWhatTheRevertHid();
    void revertingAnAssistantMessageRevertsItsWholeTurn();
    void revertToAPartKeepsWhatCameBeforeIt();
    void revertIsRefusedWhileTheSessionIsBusy();
    void anUnknownMessageIsAClearError();
    void aStepThatChangesNothingHasNoPatch();
    void aStepCutByAnErrorStillRecordsWhatItChanged();
    void snapshotFalseInConfigTurnsSnapshotsOff();
    void theEnginePrunesTheStoreAfterALoop();
};

namespace {

// Reads windows.txt, then in one step edits it and writes created.txt,
// then answers. Returns the user message's id.
QString editFiles(EngineHarness &h)
{
    const QString windows = QDir(h.projectDirectory()).filePath(u"windows.txt"_s);
    const QString created = QDir(h.projectDirectory()).filePath(u"created.txt"_s);
    h.server().enqueue(FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, windows}}, u"call_read"_s));
    h.server().enqueue(FakeTurn()
                           .toolCall(u"edit"_s,
                                     QJsonObject{{u"filePath"_s, windows},
                                                 {u"oldString"_s, u"second line"_s},
                                                 {u"newString"_s, u"SECOND LINE\nadded line"_s}},
                                     u"call_edit"_s)
                           .toolCall(u"write"_s, QJsonObject{{u"filePath"_s, created}, {u"content"_s, u"new file\n"_s}},
                                     u"call_write"_s));
    h.server().enqueue(FakeTurn().text({u"Edited."_s}));
    const auto outcome = h.prompt(u"edit the files"_s);
    if (!outcome || outcome->error)
        return {};
    return h.messages().first().info.id();
}

} // namespace

void SessionRevertTest::anEditingStepGetsAPatchAndRevertRestoresTheExactBytes()
{
    EngineHarness h(gitSetup());
    const QDir project(h.projectDirectory());
    QVERIFY(writeFile(project.filePath(u"windows.txt"_s), CrlfText));
    QVERIFY(writeFile(project.filePath(u"data.bin"_s), binaryBytes()));
    const QString userID = editFiles(h);
    QVERIFY(!userID.isEmpty());

    // The edit went through the file and kept its CRLF line ends.
    const QByteArray edited = readFile(project.filePath(u"windows.txt"_s));
    QVERIFY2(edited.contains("SECOND LINE\r\nadded line\r\n"), edited.constData());
    QCOMPARE(readFile(project.filePath(u"created.txt"_s)), QByteArray("new file\n"));

    // One patch, on the step that changed files, from that step's start.
    const QList<MessageWithParts> messages = h.messages();
    const QList<Part> patches = partsOf<PatchPart>(messages);
    QCOMPARE(patches.size(), 1);
    const PatchPart patch = *patches.first().as<PatchPart>();
    QStringList files = patch.files;
    files.sort();
    QCOMPARE(files, (QStringList{project.filePath(u"created.txt"_s), project.filePath(u"windows.txt"_s)}));
    const MessageWithParts &step = *std::find_if(messages.begin(), messages.end(), [&](const MessageWithParts &m) {
        return m.info.id() == patches.first().messageID;
    });
    QCOMPARE(step.parts.first().as<StepStartPart>()->snapshot, std::optional(patch.hash));
    for (const Part &part : partsOf<StepStartPart>(messages))
        QVERIFY(part.as<StepStartPart>()->snapshot.has_value());
    for (const Part &part : partsOf<StepFinishPart>(messages))
        QVERIFY(part.as<StepFinishPart>()->snapshot.has_value());
    QVERIFY(h.sink().all<SessionError>().isEmpty());

    // Also a change made outside a step, after it, is left alone.
    QVERIFY(writeFile(project.filePath(u"data.bin"_s), "overwritten"));
    const qsizetype before = h.sink().all<SessionUpdated>().size();
    h.engine().revert(h.session(), userID);
    QVERIFY(waitForRevert(h, before, true));
    QCOMPARE(readFile(project.filePath(u"windows.txt"_s)), CrlfText);
    QVERIFY(!QFileInfo::exists(project.filePath(u"created.txt"_s)));
    QCOMPARE(readFile(project.filePath(u"data.bin"_s)), QByteArray("overwritten"));

    const std::optional<Session> session = storedSession(h);
    QVERIFY(session && session->revert);
    QCOMPARE(session->revert->value(u"messageID"_s).toString(), userID);
    QVERIFY(!session->revert->contains(u"partID"_s));
    QVERIFY(!session->revert->value(u"snapshot"_s).toString().isEmpty());
    QVERIFY(session->revert->value(u"diff"_s).toString().contains(u"SECOND LINE"_s));
    QVERIFY(session->summary);
    QCOMPARE(session->summary->files, 2);
    QCOMPARE(session->summary->diffs->size(), 2);
    // Hidden, not deleted yet.
    QCOMPARE(h.messages().size(), messages.size());
}

void SessionRevertTest::unrevertPutsTheEditsBack()
{
    EngineHarness h(gitSetup());
    const QDir project(h.projectDirectory());
    QVERIFY(writeFile(project.filePath(u"windows.txt"_s), CrlfText));
    const QString userID = editFiles(h);
    QVERIFY(!userID.isEmpty());
    const QByteArray edited = readFile(project.filePath(u"windows.txt"_s));

    qsizetype before = h.sink().all<SessionUpdated>().size();
    h.engine().revert(h.session(), userID);
    QVERIFY(waitForRevert(h, before, true));
    QCOMPARE(readFile(project.filePath(u"windows.txt"_s)), CrlfText);

    before = h.sink().all<SessionUpdated>().size();
    h.engine().unrevert(h.session());
    QVERIFY(waitForRevert(h, before, false));
    QCOMPARE(readFile(project.filePath(u"windows.txt"_s)), edited);
    QCOMPARE(readFile(project.filePath(u"created.txt"_s)), QByteArray("new file\n"));
    QVERIFY(!storedSession(h)->revert);
    QVERIFY(h.sink().all<SessionError>().isEmpty());
}

void SessionRevertTest::theNextPromptDeletesWhatTheRevertHid()
{
    EngineHarness h(gitSetup());
    QVERIFY(writeFile(QDir(h.projectDirectory()).filePath(u"windows.txt"_s), CrlfText));
    const QString userID = editFiles(h);
    QVERIFY(!userID.isEmpty());
    const QList<MessageWithParts> hidden = h.messages();

    const qsizetype before = h.sink().all<SessionUpdated>().size();
    h.engine().revert(h.session(), userID);
    QVERIFY(waitForRevert(h, before, true));

    h.server().enqueue(FakeTurn().text({u"Fresh start."_s}));
    const auto outcome = h.prompt(u"try something else"_s);
    QVERIFY(outcome && !outcome->error);
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.first().info.id() > hidden.last().info.id(), true);
    QVERIFY(!storedSession(h)->revert);
    // One removal event per hidden message.
    QStringList removed;
    for (const MessageRemoved &event : h.sink().all<MessageRemoved>())
        removed.append(event.messageID);
    QStringList expected;
    for (const MessageWithParts &message : hidden)
        expected.append(message.info.id());
    QCOMPARE(removed, expected);
    // The model no longer sees the reverted turn.
    const QJsonObject body = h.requestBody(h.server().requests().size() - 1);
    QVERIFY(!QJsonDocument(body).toJson().contains("edit the files"));
}

void SessionRevertTest::revertingAnAssistantMessageRevertsItsWholeTurn()
{
    // Outside git: no snapshots, no errors, messages still hidden.
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"one"_s}));
    QVERIFY(h.prompt(u"first"_s));
    h.server().enqueue(FakeTurn().text({u"two"_s}));
    QVERIFY(h.prompt(u"second"_s));
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(messages.size(), 4);
    for (const Part &part : partsOf<StepStartPart>(messages))
        QVERIFY(!part.as<StepStartPart>()->snapshot);
    QVERIFY(partsOf<PatchPart>(messages).isEmpty());

    const qsizetype before = h.sink().all<SessionUpdated>().size();
    h.engine().revert(h.session(), messages.at(3).info.id());
    QVERIFY(waitForRevert(h, before, true));
    const std::optional<Session> session = storedSession(h);
    QCOMPARE(session->revert->value(u"messageID"_s).toString(), messages.at(2).info.id());
    QVERIFY(!session->revert->contains(u"snapshot"_s));
    QVERIFY(h.sink().all<SessionError>().isEmpty());

    h.server().enqueue(FakeTurn().text({u"three"_s}));
    QVERIFY(h.prompt(u"third"_s));
    const QList<MessageWithParts> after = h.messages();
    QCOMPARE(after.size(), 4);
    QCOMPARE(after.at(0).info.id(), messages.at(0).info.id());
    QCOMPARE(after.at(1).info.id(), messages.at(1).info.id());
    QVERIFY(after.at(2).info.id() > messages.at(3).info.id());
}

void SessionRevertTest::revertToAPartKeepsWhatCameBeforeIt()
{
    EngineHarness h;
    h.tools().script(u"glob"_s, ToolOutput{u"a.txt"_s, u"*"_s, {}, {}});
    h.server().enqueue(FakeTurn().text({u"Looking."_s}).toolCall(u"glob"_s, QJsonObject{{u"pattern"_s, u"*"_s}}));
    h.server().enqueue(FakeTurn().text({u"Found it."_s}));
    QVERIFY(h.prompt(u"find"_s));
    const QList<MessageWithParts> messages = h.messages();
    const MessageWithParts &assistant = messages.at(1);
    const Part tool = partsOf<ToolPart>({assistant}).first();

    const qsizetype before = h.sink().all<SessionUpdated>().size();
    h.engine().revert(h.session(), assistant.info.id(), tool.id);
    QVERIFY(waitForRevert(h, before, true));
    const std::optional<Session> session = storedSession(h);
    QCOMPARE(session->revert->value(u"messageID"_s).toString(), assistant.info.id());
    QCOMPARE(session->revert->value(u"partID"_s).toString(), tool.id);

    h.server().enqueue(FakeTurn().text({u"Again."_s}));
    QVERIFY(h.prompt(u"next"_s));
    const QList<MessageWithParts> after = h.messages();
    QCOMPARE(after.at(0).info.id(), messages.at(0).info.id());
    QCOMPARE(after.at(1).info.id(), assistant.info.id());
    // The parts before the tool call stay; it and what followed go.
    QStringList kept;
    for (const Part &part : after.at(1).parts)
        kept.append(part.type());
    QCOMPARE(kept, (QStringList{u"step-start"_s, u"text"_s}));
    QStringList removedParts;
    for (const PartRemoved &event : h.sink().all<PartRemoved>())
        removedParts.append(event.partID);
    QVERIFY(removedParts.contains(tool.id));
    QCOMPARE(h.sink().all<MessageRemoved>().size(), messages.size() - 2);
}

void SessionRevertTest::revertIsRefusedWhileTheSessionIsBusy()
{
    EngineHarness h;
    h.tools().holdUntilAbort(u"slow"_s);
    h.server().enqueue(FakeTurn().toolCall(u"slow"_s, QJsonObject{}));
    bool started = false;
    connect(&h.tools(), &ScriptedToolRunner::started, this, [&started] { started = true; });
    h.send(u"go"_s);
    QTRY_VERIFY_WITH_TIMEOUT(started, 10000);
    const QString userID = h.messages().first().info.id();
    h.engine().revert(h.session(), userID);
    QTRY_VERIFY_WITH_TIMEOUT(!h.sink().all<SessionError>().isEmpty(), 10000);
    QVERIFY(h.sink().all<SessionError>().last().error.message().contains(u"busy"_s));
    QVERIFY(!storedSession(h)->revert);
    h.engine().abort(h.session());
    const auto outcome = h.waitFinished();
    QVERIFY(outcome && outcome->aborted);
}

void SessionRevertTest::anUnknownMessageIsAClearError()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"one"_s}));
    QVERIFY(h.prompt(u"first"_s));
    h.engine().revert(h.session(), u"msg_doesnotexist"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!h.sink().all<SessionError>().isEmpty(), 10000);
    QVERIFY(h.sink().all<SessionError>().last().error.message().contains(u"msg_doesnotexist"_s));
    h.engine().revert(u"ses_nothere"_s, u"msg_x"_s);
    QTRY_COMPARE_WITH_TIMEOUT(h.sink().all<SessionError>().size(), 2, 10000);
    QVERIFY(h.sink().all<SessionError>().last().error.message().contains(u"ses_nothere"_s));
    // Unrevert of a session that has nothing to undo changes nothing.
    const qsizetype before = h.sink().all<SessionUpdated>().size();
    h.engine().unrevert(h.session());
    // Calls are queued in order: once a later one has run, this one has.
    bool handled = false;
    QMetaObject::invokeMethod(&h.engine(), [&handled] { handled = true; }, Qt::QueuedConnection);
    QTRY_VERIFY(handled);
    QCOMPARE(h.sink().all<SessionUpdated>().size(), before);
    QCOMPARE(h.sink().all<SessionError>().size(), 2);
}

void SessionRevertTest::aStepThatChangesNothingHasNoPatch()
{
    EngineHarness h(gitSetup());
    h.server().enqueue(FakeTurn().text({u"Nothing to do."_s}));
    QVERIFY(h.prompt(u"hello"_s));
    const QList<MessageWithParts> messages = h.messages();
    const QList<Part> starts = partsOf<StepStartPart>(messages);
    QCOMPARE(starts.size(), 1);
    QVERIFY(starts.first().as<StepStartPart>()->snapshot);
    QCOMPARE(partsOf<StepFinishPart>(messages).first().as<StepFinishPart>()->snapshot,
             starts.first().as<StepStartPart>()->snapshot);
    QVERIFY(partsOf<PatchPart>(messages).isEmpty());
    // The user's own repository is not touched: no snapshot in .git.
    QVERIFY(QFileInfo::exists(h.tree().path(u"data/snapshot"_s)));
}

void SessionRevertTest::aStepCutByAnErrorStillRecordsWhatItChanged()
{
    EngineHarness h(gitSetup());
    const QString created = QDir(h.projectDirectory()).filePath(u"half-done.txt"_s);
    h.server().enqueue(FakeTurn()
                           .toolCall(u"write"_s, QJsonObject{{u"filePath"_s, created}, {u"content"_s, u"partial\n"_s}})
                           .streamError(u"invalid_request_error"_s, u"The request was cut."_s));
    const auto outcome = h.prompt(u"write it"_s);
    QVERIFY(outcome && outcome->error);
    QVERIFY(QFileInfo::exists(created));
    const QList<MessageWithParts> messages = h.messages();
    // No step-finish came; the cleanup wrote the patch.
    QVERIFY(partsOf<StepFinishPart>(messages).isEmpty());
    const QList<Part> patches = partsOf<PatchPart>(messages);
    QCOMPARE(patches.size(), 1);
    QCOMPARE(patches.first().as<PatchPart>()->files, QStringList{created});

    const qsizetype before = h.sink().all<SessionUpdated>().size();
    h.engine().revert(h.session(), messages.first().info.id());
    QVERIFY(waitForRevert(h, before, true));
    QVERIFY(!QFileInfo::exists(created));
}

void SessionRevertTest::snapshotFalseInConfigTurnsSnapshotsOff()
{
    EngineHarness::Setup setup = gitSetup();
    setup.config.insert(u"snapshot"_s, false);
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn().text({u"ok"_s}));
    QVERIFY(h.prompt(u"hello"_s));
    for (const Part &part : partsOf<StepStartPart>(h.messages()))
        QVERIFY(!part.as<StepStartPart>()->snapshot);
    QVERIFY(!QFileInfo::exists(h.tree().path(u"data/snapshot"_s)));
}

void SessionRevertTest::theEnginePrunesTheStoreAfterALoop()
{
    EngineHarness h(gitSetup());
    h.server().enqueue(FakeTurn().text({u"ok"_s}));
    QVERIFY(h.prompt(u"hello"_s));
    const QString stamp = [&h] {
        const QStringList stores = QDir(h.tree().path(u"data/snapshot"_s)).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        return stores.isEmpty() ? QString() : h.tree().path(u"data/snapshot/"_s + stores.first() + u"/qcode-last-prune"_s);
    }();
    QVERIFY(!stamp.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(stamp), 15000);
}

QTEST_GUILESS_MAIN(SessionRevertTest)
#include "tst_session_revert.moc"
