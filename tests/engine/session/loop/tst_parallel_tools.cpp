// The tools of one assistant message run at the same time (issue 17.1): each
// starts as soon as its call is complete in the stream, results land in
// their own parts in call order, the step ends only when every tool has,
// permission questions come one at a time in order, an abort stops them
// all, and the doom-loop check still sees three identical calls. Each test
// holds the scripted tools and waits on what it checks, never on time.

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

#include "EngineHarness.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QString Slow = u"slow"_s;

FakeTurn threeCalls(const QString &tool, const QJsonObject &sameInput = {})
{
    FakeTurn turn;
    for (int i = 1; i <= 3; ++i) {
        const QJsonObject input = sameInput.isEmpty() ? QJsonObject{{u"n"_s, i}} : sameInput;
        turn.toolCall(tool, input, u"call_%1"_s.arg(i));
    }
    return turn;
}

// The tool parts of the session's messages, as stored, in order.
QList<ToolPart> toolParts(const QList<MessageWithParts> &messages)
{
    QList<ToolPart> tools;
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            if (const ToolPart *tool = part.as<ToolPart>())
                tools.append(*tool);
        }
    }
    return tools;
}

QStringList callIDs(const QList<ToolPart> &tools)
{
    QStringList ids;
    for (const ToolPart &tool : tools)
        ids.append(tool.callID);
    return ids;
}

// Where in the recorded events each call's part first reached `status`,
// and where the first step-finish part was published.
qsizetype firstIndexOf(const RecordingEventSink &sink, const std::function<bool(const Part &)> &matches)
{
    const QList<SessionEvent> &events = sink.events();
    for (qsizetype i = 0; i < events.size(); ++i) {
        if (const auto *updated = std::get_if<PartUpdated>(&events.at(i)); updated && matches(updated->part))
            return i;
    }
    return -1;
}

qsizetype completedAt(const RecordingEventSink &sink, const QString &callID)
{
    return firstIndexOf(sink, [&callID](const Part &part) {
        const ToolPart *tool = part.as<ToolPart>();
        return tool && tool->callID == callID && std::holds_alternative<ToolCompleted>(tool->state);
    });
}

// The calls a request answers, in the order the model is told the results.
QStringList resultOrder(const QJsonObject &request)
{
    QStringList ids;
    for (const QJsonValue &message : request.value(u"messages"_s).toArray()) {
        if (message.toObject().value(u"role"_s).toString() == u"tool"_s)
            ids.append(message.toObject().value(u"tool_call_id"_s).toString());
    }
    return ids;
}

QStringList askedCalls(const RecordingEventSink &sink)
{
    QStringList calls;
    for (const PermissionAsked &asked : sink.all<PermissionAsked>())
        calls.append(asked.request.tool ? asked.request.tool->callID : asked.request.permission);
    return calls;
}

} // namespace

class ParallelToolsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theToolsOfOneMessageRunAtTheSameTime();
    void resultsAreRecordedInCallOrderWhateverOrderTheyEndIn();
    void concurrentPermissionQuestionsAreShownOneAtATimeInOrder();
    void anAbortStopsEveryRunningToolAndMarksItAborted();
    void aDoomLoopIsCaughtWhileTheEarlierCallsStillRun();
    void severalTaskCallsRunTheirSubagentsAtTheSameTime();
};

void ParallelToolsTest::theToolsOfOneMessageRunAtTheSameTime()
{
    EngineHarness h;
    h.tools().holdUntilReleased(Slow);
    h.server().enqueue(threeCalls(Slow));
    h.server().enqueue(FakeTurn().text({u"All three ran."_s}));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"run three slow things"_s);
    // Not one after another: all three are running while none has ended.
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 3, 10000);
    QCOMPARE(h.server().requests().size(), 1);
    h.tools().release();
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(h.server().requests().size(), 2);
    const QList<ToolPart> tools = toolParts(h.messages());
    QCOMPARE(callIDs(tools), (QStringList{u"call_1"_s, u"call_2"_s, u"call_3"_s}));
    for (const ToolPart &tool : tools)
        QVERIFY2(std::holds_alternative<ToolCompleted>(tool.state), qPrintable(tool.callID));
}

void ParallelToolsTest::resultsAreRecordedInCallOrderWhateverOrderTheyEndIn()
{
    EngineHarness h;
    h.tools().holdUntilReleased(Slow);
    h.server().enqueue(threeCalls(Slow));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"run three slow things"_s);
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 3, 10000);
    // The stream has finished (its finish-step came with the calls); the
    // step waits for its tools, each recorded as it ends: the last first.
    for (const QString &callID : {u"call_3"_s, u"call_2"_s, u"call_1"_s}) {
        h.tools().release(callID);
        QTRY_VERIFY_WITH_TIMEOUT(completedAt(h.sink(), callID) >= 0, 10000);
    }
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QVERIFY(completedAt(h.sink(), u"call_3"_s) < completedAt(h.sink(), u"call_1"_s));
    // The step ends after its last tool.
    const qsizetype stepFinish = firstIndexOf(h.sink(), [](const Part &part) { return part.as<StepFinishPart>(); });
    QVERIFY(stepFinish > completedAt(h.sink(), u"call_1"_s));
    // The message keeps the calls in the order the model made them, and so
    // does the next request.
    QCOMPARE(callIDs(toolParts(h.messages())), (QStringList{u"call_1"_s, u"call_2"_s, u"call_3"_s}));
    QCOMPARE(resultOrder(h.requestBody(1)), (QStringList{u"call_1"_s, u"call_2"_s, u"call_3"_s}));
}

void ParallelToolsTest::concurrentPermissionQuestionsAreShownOneAtATimeInOrder()
{
    const QString guarded = u"guarded"_s;
    EngineHarness::Setup setup;
    setup.config.insert(u"permission"_s, QJsonObject{{guarded, u"ask"_s}});
    EngineHarness h(setup);
    h.tools().askFirst(guarded);
    h.server().enqueue(threeCalls(guarded));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"three guarded calls"_s);
    // All three run and ask together; the first question alone is shown.
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 3, 10000);
    QCOMPARE(askedCalls(h.sink()), QStringList{u"call_1"_s});

    for (int answered = 1; answered <= 3; ++answered) {
        QTRY_COMPARE_WITH_TIMEOUT(h.sink().all<PermissionAsked>().size(), answered, 10000);
        h.engine().replyPermission(h.sink().all<PermissionAsked>().last().request.id, PermissionReply::Once);
    }
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(askedCalls(h.sink()), (QStringList{u"call_1"_s, u"call_2"_s, u"call_3"_s}));
    // Each question was answered before the next one was shown.
    QStringList order;
    for (const SessionEvent &event : h.sink().events()) {
        if (std::holds_alternative<PermissionAsked>(event))
            order.append(u"asked"_s);
        else if (std::holds_alternative<PermissionReplied>(event))
            order.append(u"replied"_s);
    }
    QCOMPARE(order, (QStringList{u"asked"_s, u"replied"_s, u"asked"_s, u"replied"_s, u"asked"_s, u"replied"_s}));
    for (const ToolPart &tool : toolParts(h.messages()))
        QVERIFY2(std::holds_alternative<ToolCompleted>(tool.state), qPrintable(tool.callID));
}

void ParallelToolsTest::anAbortStopsEveryRunningToolAndMarksItAborted()
{
    EngineHarness h;
    const QString sleepy = u"sleepy"_s;
    h.tools().holdUntilAbort(sleepy);
    h.server().enqueue(threeCalls(sleepy));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"three long things"_s);
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 3, 10000);
    h.engine().abort(h.session());
    // The prompt ends only once its tools have, and these end only on the
    // abort: every one was told to stop.
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(outcome->aborted);
    // Every call says it was aborted, not what the tool met on its way out.
    const QList<ToolPart> tools = toolParts(h.messages());
    QCOMPARE(callIDs(tools), (QStringList{u"call_1"_s, u"call_2"_s, u"call_3"_s}));
    for (const ToolPart &tool : tools) {
        const auto *failed = std::get_if<ToolError>(&tool.state);
        QVERIFY2(failed, qPrintable(tool.callID));
        QCOMPARE(failed->error, u"Tool execution aborted"_s);
    }
    QCOMPARE(h.server().requests().size(), 1);
}

void ParallelToolsTest::aDoomLoopIsCaughtWhileTheEarlierCallsStillRun()
{
    EngineHarness h;
    h.tools().holdUntilReleased(Slow);
    h.server().enqueue(threeCalls(Slow, QJsonObject{{u"command"_s, u"make"_s}}));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"make, make, make"_s);
    // The first two run and have not ended; the third identical call asks.
    QTRY_COMPARE_WITH_TIMEOUT(h.sink().all<PermissionAsked>().size(), 1, 10000);
    QCOMPARE(started.size(), 2);
    const PermissionRequest asked = h.sink().all<PermissionAsked>().first().request;
    QCOMPARE(asked.permission, u"doom_loop"_s);
    QVERIFY(asked.tool);
    QCOMPARE(asked.tool->callID, u"call_3"_s);

    h.engine().replyPermission(asked.id, PermissionReply::Reject);
    QTRY_VERIFY_WITH_TIMEOUT(h.sink().all<PermissionReplied>().size() == 1, 10000);
    h.tools().release();
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    // Rejected: the third never ran, the others finished, no further model call.
    QCOMPARE(started.size(), 2);
    QCOMPARE(h.server().requests().size(), 1);
    const QList<ToolPart> tools = toolParts(h.messages());
    QCOMPARE(tools.size(), 3);
    QVERIFY(std::holds_alternative<ToolCompleted>(tools.at(0).state));
    QVERIFY(std::holds_alternative<ToolCompleted>(tools.at(1).state));
    QCOMPARE(std::get<ToolError>(tools.at(2).state).error,
             u"The user rejected permission to use this specific tool call."_s);
}

void ParallelToolsTest::severalTaskCallsRunTheirSubagentsAtTheSameTime()
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    EngineHarness h(setup);
    FakeTurn twoTasks;
    for (const QString &n : {u"1"_s, u"2"_s}) {
        twoTasks.toolCall(u"task"_s,
                          QJsonObject{{u"description"_s, u"Look at part %1"_s.arg(n)},
                                      {u"prompt"_s, u"look at part %1"_s.arg(n)},
                                      {u"subagent_type"_s, u"general"_s}},
                          u"call_%1"_s.arg(n));
    }
    h.server().enqueue(twoTasks);
    // Neither subagent's model ever answers: only running side by side do
    // both of them ask it.
    h.server().enqueue(FakeTurn().stallBeforeHeaders());
    h.server().enqueue(FakeTurn().stallBeforeHeaders());
    h.send(u"look at both parts"_s);
    QTRY_COMPARE_WITH_TIMEOUT(h.server().requests().size(), 3, 10000);
    const Result<QList<Session>> children = h.store().children(h.session());
    QVERIFY(children);
    QCOMPARE(children->size(), 2);

    h.engine().abort(h.session());
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(outcome->aborted);
    for (const ToolPart &tool : toolParts(h.messages()))
        QVERIFY2(std::holds_alternative<ToolError>(tool.state), qPrintable(tool.callID));
}

QTEST_GUILESS_MAIN(ParallelToolsTest)
#include "tst_parallel_tools.moc"
