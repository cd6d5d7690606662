// The person's own `!command` (reference §2.9): a message pair with one
// bash tool part, output streamed into it, abort, and what waits for it.

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <csignal>
#include <unistd.h>

#include "EngineHarness.h"
#include "../../tool/ProcessProbe.h"
#include "engine/session/shell/SessionShell.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// The updates of the session's bash tool part, in order.
QList<ToolPart> bashUpdates(const RecordingEventSink &sink)
{
    QList<ToolPart> updates;
    for (const PartUpdated &event : sink.all<PartUpdated>()) {
        if (const ToolPart *tool = event.part.as<ToolPart>(); tool && tool->tool == u"bash"_s)
            updates.append(*tool);
    }
    return updates;
}

std::optional<ToolCompleted> completedBash(const RecordingEventSink &sink)
{
    const QList<ToolPart> updates = bashUpdates(sink);
    if (updates.isEmpty())
        return std::nullopt;
    if (const auto *done = std::get_if<ToolCompleted>(&updates.last().state))
        return *done;
    return std::nullopt;
}

QString liveOutput(const ToolPart &tool)
{
    const auto *running = std::get_if<ToolRunning>(&tool.state);
    return running && running->metadata ? running->metadata->value(u"output"_s).toString() : QString();
}

} // namespace

class EngineShellTest : public QObject
{
    Q_OBJECT

private:
    static void run(EngineHarness &h, const QString &command)
    {
        h.engine().shell(ShellInput{h.session(), command, std::nullopt, std::nullopt});
    }

private Q_SLOTS:
    void outputStreamsIntoTheMetadataAndTheCommandCompletes();
    void theMessagePairHasOpenCodesShape();
    void aBusySessionRefusesTheCommand();
    void abortKillsTheCommandAndItsChildren();
    void promptsSentMeanwhileAreAnsweredAfterwards();
    void anUnknownAgentIsAnError();
};

void EngineShellTest::outputStreamsIntoTheMetadataAndTheCommandCompletes()
{
    EngineHarness h;
    const QString go = h.projectDirectory() + u"/go"_s;
    run(h, u"echo one; while [ ! -f go ]; do sleep 0.05; done; echo two"_s);
    // Seen live before the command goes on.
    QTRY_VERIFY_WITH_TIMEOUT(!bashUpdates(h.sink()).isEmpty() && liveOutput(bashUpdates(h.sink()).last()) == u"one\n"_s,
                             10000);
    QVERIFY(!completedBash(h.sink()));
    QVERIFY(h.engine().isBusy(h.session()));
    QFile flag(go);
    QVERIFY(flag.open(QIODevice::WriteOnly));
    flag.close();
    QTRY_VERIFY_WITH_TIMEOUT(completedBash(h.sink()).has_value(), 10000);
    const ToolCompleted done = *completedBash(h.sink());
    QCOMPARE(done.output, u"one\ntwo\n"_s);
    QCOMPARE(done.metadata.value(u"output"_s).toString(), u"one\ntwo\n"_s);
    QCOMPARE(done.metadata.value(u"exit"_s).toInt(-1), 0);
    QCOMPARE(done.title, QString());
    QTRY_COMPARE(h.sink().all<SessionStatusChanged>().last().status, SessionStatus::idle());
    QCOMPARE(h.sink().all<SessionStatusChanged>().first().status, SessionStatus::busy());
    QVERIFY(!h.engine().isBusy(h.session()));
    // The model was not called.
    QVERIFY(h.server().requests().isEmpty());
}

void EngineShellTest::theMessagePairHasOpenCodesShape()
{
    EngineHarness h;
    run(h, u"printf 'TERM=%s' \"$TERM\"; pwd"_s);
    QTRY_VERIFY_WITH_TIMEOUT(completedBash(h.sink()).has_value(), 10000);
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(messages.size(), 2);
    const UserMessage *user = messages.at(0).info.user();
    QVERIFY(user);
    QCOMPARE(user->agent, u"build"_s);
    QCOMPARE(user->model, (ModelRef{u"fake"_s, u"fake-model"_s}));
    QCOMPARE(messages.at(0).parts.size(), 1);
    const TextPart *text = messages.at(0).parts.first().as<TextPart>();
    QVERIFY(text);
    QCOMPARE(text->text, QString(SessionShell::UserText));
    QCOMPARE(text->synthetic, true);

    const AssistantMessage *assistant = messages.at(1).info.assistant();
    QVERIFY(assistant);
    QCOMPARE(assistant->parentID, user->id);
    QCOMPARE(assistant->agent, u"build"_s);
    QCOMPARE(assistant->mode, u"build"_s);
    QCOMPARE(assistant->providerID, u"fake"_s);
    QCOMPARE(assistant->modelID, u"fake-model"_s);
    QCOMPARE(assistant->cwd, h.projectDirectory());
    QVERIFY(assistant->completed.has_value());
    QCOMPARE(messages.at(1).parts.size(), 1);
    const ToolPart *tool = messages.at(1).parts.first().as<ToolPart>();
    QVERIFY(tool);
    QCOMPARE(tool->tool, u"bash"_s);
    QVERIFY(tool->callID.startsWith(u"tool_"_s));
    QCOMPARE(tool->input(), (QJsonObject{{u"command"_s, u"printf 'TERM=%s' \"$TERM\"; pwd"_s}}));
    const auto *done = std::get_if<ToolCompleted>(&tool->state);
    QVERIFY(done);
    // In the session's folder, with TERM=dumb.
    QCOMPARE(done->output, u"TERM=dumb"_s + QDir(h.projectDirectory()).canonicalPath() + u'\n');
}

void EngineShellTest::aBusySessionRefusesTheCommand()
{
    EngineHarness h;
    const QString go = h.projectDirectory() + u"/go"_s;
    run(h, u"while [ ! -f go ]; do sleep 0.05; done"_s);
    QTRY_VERIFY_WITH_TIMEOUT(h.engine().isBusy(h.session()), 5000);
    run(h, u"echo second"_s);
    QTRY_COMPARE(h.sink().all<SessionError>().size(), 1);
    QVERIFY2(h.sink().all<SessionError>().first().error.message().contains(u"is busy"_s),
             qPrintable(h.sink().all<SessionError>().first().error.message()));
    QFile flag(go);
    QVERIFY(flag.open(QIODevice::WriteOnly));
    flag.close();
    QTRY_VERIFY_WITH_TIMEOUT(completedBash(h.sink()).has_value(), 10000);
    // Only the first command's pair was written.
    QCOMPARE(h.messages().size(), 2);
}

void EngineShellTest::abortKillsTheCommandAndItsChildren()
{
    EngineHarness h;
    run(h, u"sleep 30 & echo $! > child.pid; echo started; sleep 30; echo never"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!bashUpdates(h.sink()).isEmpty()
                                 && liveOutput(bashUpdates(h.sink()).last()).contains(u"started"_s),
                             10000);
    h.engine().abort(h.session());
    QTRY_VERIFY_WITH_TIMEOUT(completedBash(h.sink()).has_value(), 10000);
    const ToolCompleted done = *completedBash(h.sink());
    QVERIFY(!done.output.contains(u"never"_s));
    QVERIFY2(done.output.endsWith(u"\n\n<metadata>\nUser aborted the command\n</metadata>"_s), qPrintable(done.output));
    QFile pidFile(h.projectDirectory() + u"/child.pid"_s);
    QVERIFY(pidFile.open(QIODevice::ReadOnly));
    const qint64 child = pidFile.readAll().trimmed().toLongLong();
    QVERIFY(child > 0);
    QTRY_VERIFY_WITH_TIMEOUT(!processRuns(child), 5000);
    QTRY_COMPARE(h.sink().all<SessionStatusChanged>().last().status, SessionStatus::idle());
}

void EngineShellTest::promptsSentMeanwhileAreAnsweredAfterwards()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"I see the output"_s}));
    const QString go = h.projectDirectory() + u"/go"_s;
    run(h, u"echo shell-said-this; while [ ! -f go ]; do sleep 0.05; done"_s);
    QTRY_VERIFY_WITH_TIMEOUT(h.engine().isBusy(h.session()), 5000);
    h.send(u"what did it print?"_s);
    QTRY_COMPARE(h.sink().all<PromptQueued>().size(), 1);
    QVERIFY(h.server().requests().isEmpty());
    QFile flag(go);
    QVERIFY(flag.open(QIODevice::WriteOnly));
    flag.close();
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(h.server().requests().size(), 1);
    // The model reads the command and its output, then the question.
    const QString sent = h.sentText(0);
    QVERIFY2(sent.contains(u"The following tool was executed by the user"_s), qPrintable(sent));
    QVERIFY(sent.contains(u"shell-said-this"_s));
    QVERIFY(sent.indexOf(u"shell-said-this"_s) < sent.indexOf(u"what did it print?"_s));
    QCOMPARE(h.messages().size(), 4);
}

void EngineShellTest::anUnknownAgentIsAnError()
{
    EngineHarness h;
    h.engine().shell(ShellInput{h.session(), u"echo hi"_s, u"nobody"_s, std::nullopt});
    QTRY_COMPARE(h.sink().all<SessionError>().size(), 1);
    QVERIFY(h.sink().all<SessionError>().first().error.message().contains(u"Agent not found: \"nobody\""_s));
    QVERIFY(h.messages().isEmpty());
    QVERIFY(!h.engine().isBusy(h.session()));
}

QTEST_GUILESS_MAIN(EngineShellTest)
#include "tst_engine_shell.moc"
