#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLockFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include "EngineHarness.h"
#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QList<ToolPart> toolParts(const QList<MessageWithParts> &messages, const QString &tool)
{
    QList<ToolPart> tools;
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            if (const ToolPart *found = part.as<ToolPart>(); found && found->tool == tool)
                tools.append(*found);
        }
    }
    return tools;
}

QList<MessageWithParts> messagesOf(EngineHarness &h, const QString &sessionID)
{
    const Result<QList<MessageWithParts>> messages = h.store().messages(sessionID);
    return messages ? *messages : QList<MessageWithParts>{};
}

bool created(EngineHarness &h, const QString &sessionID)
{
    for (const SessionCreated &event : h.sink().all<SessionCreated>()) {
        if (event.info.id == sessionID)
            return true;
    }
    return false;
}

// The event is about the session (its id appears in OpenCode's JSON form).
bool mentions(const SessionEvent &event, const QString &sessionID)
{
    return QJsonDocument(sessionEventToJson(event)).toJson().contains(sessionID.toUtf8());
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

} // namespace

class SessionSchedulerTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resumingARunningChildIsRefusedAndItKeepsOneLoop();
    void aSubtaskLinksItsChildWhileItRunsAndAnswersAsTheTaskToolDoes();
    void compactingDuringARevertIsRefusedAndStartsNothing();
    void deletingARunningSessionStopsItBeforeItsRowsGo();
    void aSessionRunningInAnotherQcodeIsRefused();
    void aKilledQcodesLockIsStaleAndItsRunningToolsAreInterrupted();
    void toolsADeadQcodeLeftRunningAreInterruptedWhenTheDatabaseIsNextOpened();
};

void SessionSchedulerTest::resumingARunningChildIsRefusedAndItKeepsOneLoop()
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.config.insert(u"permission"_s, QJsonObject{{u"glob"_s, u"ask"_s}});
    EngineHarness h(setup);
    const QString parent = h.session();
    const QString child = Identifier::descending(Identifier::Prefix::Session);
    h.engine().createSession(NewSession{child, h.projectDirectory(), parent, u"child"_s});
    QTRY_VERIFY_WITH_TIMEOUT(created(h, child), 5000);
    QList<PermissionRequest> asked;
    h.onEvent<PermissionAsked>(this, [&asked](const PermissionAsked &event) { asked.append(event.request); });

    // The person works in the child directly: its loop waits for an answer.
    h.server().enqueue(FakeTurn().toolCall(u"glob"_s, QJsonObject{{u"pattern"_s, u"*.none"_s}}, u"call_glob"_s));
    PromptInput direct;
    direct.sessionID = child;
    direct.parts = {PromptPart::text(u"look around"_s)};
    h.engine().prompt(direct);
    QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 1, 10000);

    // Meanwhile the parent's model resumes that same child.
    h.server().enqueue(FakeTurn().toolCall(u"task"_s,
                                           QJsonObject{{u"description"_s, u"Keep going"_s},
                                                       {u"prompt"_s, u"keep going"_s},
                                                       {u"subagent_type"_s, u"general"_s},
                                                       {u"task_id"_s, child}},
                                           u"call_task"_s));
    h.server().enqueue(FakeTurn().text({u"the child is busy"_s}));
    h.send(u"resume the child"_s);
    const auto parentOutcome = h.waitFinished();
    QVERIFY(parentOutcome);
    QCOMPARE(parentOutcome->sessionID, parent);
    QVERIFY(!parentOutcome->error);
    const QList<ToolPart> tasks = toolParts(h.messages(), u"task"_s);
    QCOMPARE(tasks.size(), 1);
    const auto *refused = std::get_if<ToolError>(&tasks.first().state);
    QVERIFY(refused);
    QVERIFY2(refused->error.contains(u"Task %1 is still running"_s.arg(child)), qPrintable(refused->error));

    // The child's own loop goes on, alone: one prompt, one answer.
    h.server().enqueue(FakeTurn().text({u"nothing found"_s}));
    h.engine().replyPermission(asked.first().id, PermissionReply::Once);
    const auto childOutcome = h.waitFinished();
    QVERIFY(childOutcome);
    QCOMPARE(childOutcome->sessionID, child);
    QVERIFY(!childOutcome->error);
    const QList<MessageWithParts> childMessages = messagesOf(h, child);
    const qsizetype prompts = std::count_if(childMessages.begin(), childMessages.end(),
                                            [](const MessageWithParts &m) { return m.info.isUser(); });
    QCOMPARE(prompts, 1);
    QCOMPARE(h.server().requests().size(), 4);
}

void SessionSchedulerTest::aSubtaskLinksItsChildWhileItRunsAndAnswersAsTheTaskToolDoes()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"child result"_s}));
    h.server().enqueue(FakeTurn().text({u"parent goes on"_s}));
    PromptInput input;
    input.sessionID = h.session();
    input.parts = {PromptPart{std::nullopt, SubtaskPart{u"find the bug"_s, u"Find bug"_s, u"general"_s,
                                                        std::nullopt, u"review"_s}}};
    h.engine().prompt(input);
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY2(!outcome->error, outcome->error ? qPrintable(outcome->error->message()) : "");
    const Result<QList<Session>> children = h.store().children(h.session());
    QVERIFY(children);
    QCOMPARE(children->size(), 1);
    const QString childID = children->first().id;

    // The part named the child before the child's first message existed.
    qsizetype linkedAt = -1;
    qsizetype childStartedAt = -1;
    const QList<SessionEvent> &events = h.sink().events();
    for (qsizetype i = 0; i < events.size(); ++i) {
        if (const auto *updated = std::get_if<PartUpdated>(&events.at(i))) {
            const ToolPart *tool = updated->part.as<ToolPart>();
            const auto *running = tool ? std::get_if<ToolRunning>(&tool->state) : nullptr;
            if (linkedAt < 0 && running && running->metadata
                && running->metadata->value(u"sessionId"_s).toString() == childID)
                linkedAt = i;
        }
        if (const auto *message = std::get_if<MessageUpdated>(&events.at(i));
            childStartedAt < 0 && message && message->info.sessionID() == childID)
            childStartedAt = i;
    }
    QVERIFY(linkedAt >= 0);
    QVERIFY(childStartedAt > linkedAt);

    // The same output and metadata as the task tool's.
    const QList<ToolPart> tasks = toolParts(h.messages(), u"task"_s);
    QCOMPARE(tasks.size(), 1);
    const auto *completed = std::get_if<ToolCompleted>(&tasks.first().state);
    QVERIFY(completed);
    QCOMPARE(completed->output, u"task_id: %1 (for resuming to continue this task if needed)\n\n"
                                "<task_result>\nchild result\n</task_result>"_s.arg(childID));
    QCOMPARE(completed->metadata.value(u"sessionId"_s).toString(), childID);
    QCOMPARE(completed->metadata.value(u"model"_s).toObject().value(u"modelID"_s).toString(), u"fake-model"_s);
}

void SessionSchedulerTest::compactingDuringARevertIsRefusedAndStartsNothing()
{
    EngineHarness::Setup setup;
    setup.gitRepository = true;
    setup.builtinTools = true;
    setup.config.insert(u"permission"_s, u"allow"_s);
    EngineHarness h(setup);
    const QString created = QDir(h.projectDirectory()).filePath(u"created.txt"_s);
    h.server().enqueue(FakeTurn().toolCall(
        u"write"_s, QJsonObject{{u"filePath"_s, created}, {u"content"_s, u"new file\n"_s}}, u"call_write"_s));
    h.server().enqueue(FakeTurn().text({u"Written."_s}));
    const auto written = h.prompt(u"write a file"_s);
    QVERIFY(written && !written->error);
    QCOMPARE(readFile(created), QByteArray("new file\n"));
    const QString userID = h.messages().first().info.id();
    const qsizetype requests = h.server().requests().size();
    const qsizetype updates = h.sink().all<SessionUpdated>().size();

    // Both calls reach the engine at once: the compaction comes while the
    // revert is putting the files back.
    h.engine().revert(h.session(), userID);
    h.engine().compact(h.session());
    const auto refused = h.waitFinished();
    QVERIFY(refused);
    QVERIFY(refused->error);
    QVERIFY2(refused->error->message().contains(u"being reverted"_s), qPrintable(refused->error->message()));

    QVERIFY(QTest::qWaitFor(
        [&h, updates] {
            const QList<SessionUpdated> all = h.sink().all<SessionUpdated>();
            return std::any_of(all.begin() + updates, all.end(),
                               [](const SessionUpdated &u) { return u.info.revert.has_value(); });
        },
        15000));
    QVERIFY(!QFileInfo::exists(created));
    QCOMPARE(h.server().requests().size(), requests);
    for (const MessageWithParts &message : h.messages()) {
        for (const Part &part : message.parts)
            QVERIFY(!part.as<CompactionPart>());
    }
    QTRY_VERIFY_WITH_TIMEOUT(!h.engine().isBusy(h.session()), 5000);
}

void SessionSchedulerTest::deletingARunningSessionStopsItBeforeItsRowsGo()
{
    EngineHarness h;
    QVERIFY(h.sendAndHold(u"work"_s, u"done"_s));
    const QString sessionID = h.session();
    h.engine().deleteSession(sessionID);
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(outcome->aborted);
    QTRY_COMPARE_WITH_TIMEOUT(h.sink().all<SessionDeleted>().size(), 1, 10000);

    // The stopped turn was written and told before the session went, and
    // nothing about it came after.
    const QList<SessionEvent> &events = h.sink().events();
    qsizetype deletedAt = -1;
    qsizetype lastAbout = -1;
    for (qsizetype i = 0; i < events.size(); ++i) {
        if (std::holds_alternative<SessionDeleted>(events.at(i)))
            deletedAt = i;
        else if (mentions(events.at(i), sessionID))
            lastAbout = i;
    }
    QVERIFY(deletedAt >= 0);
    QVERIFY(lastAbout >= 0);
    QVERIFY(lastAbout < deletedAt);
    QCOMPARE(events.size() - 1, deletedAt);
    QCOMPARE(h.sink().all<SessionStatusChanged>().last().status, SessionStatus::idle());
    QVERIFY(!h.engine().isBusy(sessionID));

    // No row of it is left, none written after the deletion.
    const Result<std::optional<Session>> session = h.store().session(sessionID);
    QVERIFY(session);
    QVERIFY(!session->has_value());
    QVERIFY(messagesOf(h, sessionID).isEmpty());
}

void SessionSchedulerTest::aSessionRunningInAnotherQcodeIsRefused()
{
    EngineHarness first;
    QVERIFY(first.sendAndHold(u"work"_s, u"done"_s));
    const QString sessionID = first.session();
    EngineHarness::Setup shared;
    shared.databasePath = first.databasePath();
    EngineHarness second(shared);

    PromptInput input;
    input.sessionID = sessionID;
    input.parts = {PromptPart::text(u"me too"_s)};
    second.engine().prompt(input);
    const auto refused = second.waitFinished();
    QVERIFY(refused);
    QVERIFY(refused->error);
    QVERIFY2(refused->error->message().contains(u"running in another qcode"_s), qPrintable(refused->error->message()));
    QCOMPARE(second.server().requests().size(), 0);

    // The first goes on undisturbed; nothing of the refused prompt is stored.
    first.tools().release();
    const auto done = first.waitFinished();
    QVERIFY(done);
    QVERIFY(!done->error);
    QCOMPARE(first.userTexts(), QStringList{u"work"_s});

    // Once the first is idle, the session is free for the other.
    first.server().enqueue(FakeTurn().text({u"your turn"_s}));
    second.engine().prompt(input);
    const auto ran = second.waitFinished();
    QVERIFY(ran);
    QVERIFY2(!ran->error, ran->error ? qPrintable(ran->error->message()) : "");
    QCOMPARE(first.userTexts(), (QStringList{u"work"_s, u"me too"_s}));
}

namespace {

// A tool part that says it still runs, as a qcode that died leaves it.
Part leaveRunningTool(EngineHarness &h, const QString &sessionID, const QString &parentID)
{
    AssistantMessage crashed;
    crashed.id = Identifier::ascending(Identifier::Prefix::Message);
    crashed.sessionID = sessionID;
    crashed.created = QDateTime::currentMSecsSinceEpoch();
    crashed.parentID = parentID;
    crashed.providerID = u"fake"_s;
    crashed.modelID = u"fake-model"_s;
    crashed.agent = u"build"_s;
    crashed.mode = u"build"_s;
    [&] { QVERIFY(h.store().updateMessage(Message(crashed))); }();
    Part tool{Identifier::ascending(Identifier::Prefix::Part), sessionID, crashed.id,
              ToolPart{u"call_crash"_s, u"bash"_s, ToolPending{}, std::nullopt, {}}, {}};
    [&] {
        QVERIFY(tool.as<ToolPart>()->start(QJsonObject{{u"command"_s, u"make"_s}}, crashed.created));
        QVERIFY(h.store().updatePart(tool));
    }();
    return tool;
}

std::optional<ToolPart> storedTool(Store &store, const Part &tool)
{
    const Result<QList<Part>> parts = store.parts(tool.messageID);
    if (!parts)
        return std::nullopt;
    for (const Part &part : *parts) {
        if (part.id == tool.id)
            return *part.as<ToolPart>();
    }
    return std::nullopt;
}

} // namespace

void SessionSchedulerTest::aKilledQcodesLockIsStaleAndItsRunningToolsAreInterrupted()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"first"_s}));
    QVERIFY(h.prompt(u"first"_s));
    const QString sessionID = h.session();

    // A qcode died with a tool running: its part is still "running" and
    // its lock file names a process that is gone.
    const Part tool = leaveRunningTool(h, sessionID, h.messages().first().info.id());

    const QString lockPath = QDir(h.databasePath() + u".locks"_s).filePath(sessionID + u".lock"_s);
    QVERIFY(QDir().mkpath(QFileInfo(lockPath).absolutePath()));
    QByteArray contents;
    {
        QLockFile lock(lockPath);
        QVERIFY(lock.tryLock(0));
        contents = readFile(lockPath);
    }
    QProcess gone;
    gone.start(u"true"_s, QStringList{});
    QVERIFY(gone.waitForStarted());
    const qint64 deadPid = gone.processId();
    QVERIFY(gone.waitForFinished());
    contents = QByteArray::number(deadPid) + contents.mid(contents.indexOf('\n'));
    QVERIFY(writeFile(lockPath, contents));

    h.server().enqueue(FakeTurn().text({u"resumed"_s}));
    const auto outcome = h.prompt(u"go on"_s);
    QVERIFY(outcome);
    QVERIFY2(!outcome->error, outcome->error ? qPrintable(outcome->error->message()) : "");

    std::optional<ToolPart> recovered;
    for (const MessageWithParts &message : h.messages()) {
        for (const Part &part : message.parts) {
            if (part.id == tool.id)
                recovered = *part.as<ToolPart>();
        }
    }
    QVERIFY(recovered);
    const auto *interrupted = std::get_if<ToolError>(&recovered->state);
    QVERIFY(interrupted);
    QCOMPARE(interrupted->error, u"[Tool execution was interrupted]"_s);
    bool told = false;
    for (const PartUpdated &event : h.sink().all<PartUpdated>())
        told = told || (event.part.id == tool.id && std::holds_alternative<ToolError>(event.part.as<ToolPart>()->state));
    QVERIFY(told);
    QVERIFY(h.sentText(1).contains(u"[Tool execution was interrupted]"_s));
    // Let go once the session is idle.
    QVERIFY(!QFileInfo::exists(lockPath));
}

void SessionSchedulerTest::toolsADeadQcodeLeftRunningAreInterruptedWhenTheDatabaseIsNextOpened()
{
    EngineHarness first;
    first.server().enqueue(FakeTurn().text({u"one"_s}));
    QVERIFY(first.prompt(u"one"_s));
    const QString abandoned = first.session();
    const Part leftRunning = leaveRunningTool(first, abandoned, first.messages().first().info.id());

    // A second session whose tool really runs in another qcode right now:
    // its lock is held by a live process (this one).
    const QString elsewhere = Identifier::descending(Identifier::Prefix::Session);
    first.engine().createSession(NewSession{elsewhere, first.projectDirectory(), std::nullopt, u"elsewhere"_s});
    QTRY_VERIFY_WITH_TIMEOUT(created(first, elsewhere), 5000);
    const QString lockDirectory = first.databasePath() + u".locks"_s;
    QVERIFY(QDir().mkpath(lockDirectory));
    QLockFile held(QDir(lockDirectory).filePath(elsewhere + u".lock"_s));
    QVERIFY(held.tryLock(0));
    const Part stillRunning = leaveRunningTool(first, elsewhere, first.messages().first().info.id());

    // The next qcode to open the database tidies up without a prompt.
    EngineHarness::Setup setup;
    setup.databasePath = first.databasePath();
    EngineHarness next(setup);
    const std::optional<ToolPart> recovered = storedTool(next.store(), leftRunning);
    QVERIFY(recovered);
    const auto *interrupted = std::get_if<ToolError>(&recovered->state);
    QVERIFY(interrupted);
    QCOMPARE(interrupted->error, u"[Tool execution was interrupted]"_s);
    const std::optional<ToolPart> untouched = storedTool(next.store(), stillRunning);
    QVERIFY(untouched);
    QVERIFY(std::holds_alternative<ToolRunning>(untouched->state));
    QVERIFY(!QFileInfo::exists(QDir(lockDirectory).filePath(abandoned + u".lock"_s)));
}

QTEST_GUILESS_MAIN(SessionSchedulerTest)
#include "tst_session_scheduler.moc"
