// Prompts sent while the session is busy wait in the engine, still
// editable, until the loop takes them (reference §2.2, done better).

#include <QSignalSpy>
#include <QTest>

#include <algorithm>

#include "EngineHarness.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class QueuedPromptsTest : public QObject
{
    Q_OBJECT

private:
    // A session busy in a tool call that waits for release().
    void startBusy(EngineHarness &h) { QVERIFY(h.sendAndHold(u"first"_s, u"all done"_s)); }

    // Sends while busy and returns the queue id the engine gave it.
    QString queue(EngineHarness &h, const QString &text)
    {
        const qsizetype before = h.sink().all<PromptQueued>().size();
        h.send(text);
        if (!QTest::qWaitFor([&] { return h.sink().all<PromptQueued>().size() > before; }, 5000))
            return {};
        return h.sink().all<PromptQueued>().last().queueID;
    }

private Q_SLOTS:
    void aPromptWhileBusyIsQueuedAndStoredWhenTheLoopTakesIt();
    void anEditChangesWhatIsStored();
    void aRemovedPromptIsDroppedAndItsCallerAnswered();
    void severalQueuedPromptsKeepTheirOrder();
    void editingOrRemovingATakenPromptIsAnError();
    void anEditThatLeavesNothingIsRefused();
    void afterAStopQueuedPromptsWaitUntilThePersonSendsThem();
    void deletingTheSessionDropsItsQueue();
    void aPromptQueuedBehindAManualCompactionIsAnsweredAfterTheSummary();
};

void QueuedPromptsTest::aPromptWhileBusyIsQueuedAndStoredWhenTheLoopTakesIt()
{
    EngineHarness h;
    startBusy(h);
    const QString queueID = queue(h, u"second, while busy"_s);
    QVERIFY(!queueID.isEmpty());
    const PromptQueued queued = h.sink().all<PromptQueued>().first();
    QCOMPARE(queued.sessionID, h.session());
    QCOMPARE(queued.text, u"second, while busy"_s);
    // Not in the database while it waits.
    QCOMPARE(h.userTexts(), QStringList{u"first"_s});

    h.tools().release();
    const auto first = h.waitFinished();
    const auto second = h.waitFinished();
    QVERIFY(first && second);
    QCOMPARE(first->messageID, second->messageID);
    QCOMPARE(h.userTexts(), (QStringList{u"first"_s, u"second, while busy"_s}));
    // Answered on the loop's next step, wrapped in memory only.
    QCOMPARE(h.server().requests().size(), 2);
    QVERIFY(h.sentText(1).contains(u"The user sent the following message:\\nsecond, while busy"_s));

    // Stored (message and part published), then announced as taken.
    const QList<PromptDequeued> dequeued = h.sink().all<PromptDequeued>();
    QCOMPARE(dequeued.size(), 1);
    QCOMPARE(dequeued.first().queueID, queueID);
    QCOMPARE(dequeued.first().reason, DequeueReason::Taken);
    qsizetype storedAt = -1;
    qsizetype takenAt = -1;
    for (qsizetype i = 0; i < h.sink().events().size(); ++i) {
        const SessionEvent &event = h.sink().events().at(i);
        if (const auto *part = std::get_if<PartUpdated>(&event); part && part->part.as<TextPart>()
                                                               && part->part.as<TextPart>()->text == u"second, while busy"_s)
            storedAt = i;
        if (std::holds_alternative<PromptDequeued>(event))
            takenAt = i;
    }
    QVERIFY(storedAt >= 0);
    QVERIFY(storedAt < takenAt);
}

void QueuedPromptsTest::anEditChangesWhatIsStored()
{
    EngineHarness h;
    startBusy(h);
    const QString queueID = queue(h, u"fix the parser"_s);
    h.engine().editQueuedPrompt(h.session(), queueID, u"fix the lexer instead"_s);
    QTRY_COMPARE(h.sink().all<PromptQueued>().size(), 2);
    QCOMPARE(h.sink().all<PromptQueued>().last().queueID, queueID);
    QCOMPARE(h.sink().all<PromptQueued>().last().text, u"fix the lexer instead"_s);

    h.tools().release();
    QVERIFY(h.waitFinished());
    QVERIFY(h.waitFinished());
    QCOMPARE(h.userTexts(), (QStringList{u"first"_s, u"fix the lexer instead"_s}));
    QVERIFY(!h.sentText(1).contains(u"fix the parser"_s));
    QVERIFY(h.sentText(1).contains(u"fix the lexer instead"_s));
}

void QueuedPromptsTest::aRemovedPromptIsDroppedAndItsCallerAnswered()
{
    EngineHarness h;
    startBusy(h);
    const QString queueID = queue(h, u"never mind this"_s);
    h.engine().removeQueuedPrompt(h.session(), queueID);
    // Its caller hears at once, as after a stop, without an error.
    const auto removed = h.waitFinished();
    QVERIFY(removed);
    QVERIFY(removed->aborted);
    QVERIFY(!removed->error);
    QCOMPARE(h.sink().all<PromptDequeued>().size(), 1);
    QCOMPARE(h.sink().all<PromptDequeued>().first().reason, DequeueReason::Removed);

    h.tools().release();
    const auto first = h.waitFinished();
    QVERIFY(first);
    QVERIFY(!first->aborted);
    QCOMPARE(h.userTexts(), QStringList{u"first"_s});
    QVERIFY(!h.sentText(1).contains(u"never mind this"_s));
    QCOMPARE(h.sink().all<PromptDequeued>().size(), 1);
}

void QueuedPromptsTest::severalQueuedPromptsKeepTheirOrder()
{
    EngineHarness h;
    startBusy(h);
    const QStringList ids{queue(h, u"two"_s), queue(h, u"three"_s), queue(h, u"four"_s)};
    QCOMPARE(ids.size(), 3);
    QCOMPARE(QSet<QString>(ids.begin(), ids.end()).size(), 3);
    h.tools().release();
    for (int i = 0; i < 4; ++i)
        QVERIFY(h.waitFinished());
    QCOMPARE(h.userTexts(), (QStringList{u"first"_s, u"two"_s, u"three"_s, u"four"_s}));
    const QString sent = h.sentText(1);
    QVERIFY(sent.indexOf(u"two"_s) < sent.indexOf(u"three"_s));
    QVERIFY(sent.indexOf(u"three"_s) < sent.indexOf(u"four"_s));
    QStringList taken;
    for (const PromptDequeued &event : h.sink().all<PromptDequeued>())
        taken.append(event.queueID);
    QCOMPARE(taken, ids);
}

void QueuedPromptsTest::editingOrRemovingATakenPromptIsAnError()
{
    EngineHarness h;
    startBusy(h);
    const QString queueID = queue(h, u"second"_s);
    h.tools().release();
    QVERIFY(h.waitFinished());
    QVERIFY(h.waitFinished());
    h.engine().editQueuedPrompt(h.session(), queueID, u"too late"_s);
    h.engine().removeQueuedPrompt(h.session(), queueID);
    QTRY_COMPARE(h.sink().all<SessionError>().size(), 2);
    QVERIFY(h.sink().all<SessionError>().first().error.message().contains(u"was already sent or removed"_s));
    QCOMPARE(h.userTexts(), (QStringList{u"first"_s, u"second"_s}));
}

void QueuedPromptsTest::anEditThatLeavesNothingIsRefused()
{
    EngineHarness h;
    startBusy(h);
    const QString queueID = queue(h, u"keep me"_s);
    h.engine().editQueuedPrompt(h.session(), queueID, u"   "_s);
    QTRY_COMPARE(h.sink().all<SessionError>().size(), 1);
    QVERIFY(h.sink().all<SessionError>().first().error.message().contains(u"cannot be empty"_s));
    QCOMPARE(h.sink().all<PromptQueued>().size(), 1);
    h.tools().release();
    QVERIFY(h.waitFinished());
    QVERIFY(h.waitFinished());
    QCOMPARE(h.userTexts(), (QStringList{u"first"_s, u"keep me"_s}));
}

void QueuedPromptsTest::afterAStopQueuedPromptsWaitUntilThePersonSendsThem()
{
    // Stop stops: the running turn ends and what the person queued stays
    // queued, sent only when they say so.
    EngineHarness h;
    h.tools().holdUntilAbort(u"slow"_s);
    h.server().enqueue(FakeTurn().toolCall(u"slow"_s, QJsonObject{}, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"answer to the queued one"_s}));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"first"_s);
    QVERIFY(started.wait(10000));
    const QString queueID = queue(h, u"after the stop"_s);
    const QString other = queue(h, u"and another"_s);
    QVERIFY(!queueID.isEmpty() && !other.isEmpty());
    h.engine().abort(h.session());
    const auto stopped = h.waitFinished();
    QVERIFY(stopped);
    QVERIFY(stopped->aborted);
    // Idle, with both prompts still queued and nothing sent.
    QCOMPARE(h.sink().all<SessionStatusChanged>().last().status, SessionStatus::idle());
    QVERIFY(h.sink().all<PromptDequeued>().isEmpty());
    QCOMPARE(h.userTexts(), QStringList{u"first"_s});
    QCOMPARE(h.server().requests().size(), 1);
    // Still editable while paused.
    h.engine().editQueuedPrompt(h.session(), queueID, u"after the stop, edited"_s);
    QTRY_COMPARE(h.sink().all<PromptQueued>().last().text, u"after the stop, edited"_s);

    // "Send now" on one: it alone is sent, by a loop of its own.
    h.engine().sendQueuedPrompt(h.session(), queueID);
    const auto answered = h.waitFinished();
    QVERIFY(answered);
    QVERIFY(!answered->aborted);
    QVERIFY(!answered->error);
    QCOMPARE(h.userTexts(), (QStringList{u"first"_s, u"after the stop, edited"_s}));
    QCOMPARE(h.server().requests().size(), 2);
    QVERIFY(h.sentText(1).contains(u"after the stop, edited"_s));
    QCOMPARE(h.sink().all<PromptDequeued>().size(), 1);
    QCOMPARE(h.sink().all<PromptDequeued>().first().queueID, queueID);
    QCOMPARE(h.sink().all<PromptDequeued>().first().reason, DequeueReason::Taken);
    QTRY_COMPARE(h.sink().all<SessionStatusChanged>().last().status, SessionStatus::idle());
    // The other still waits; removing it answers its caller.
    QVERIFY(!h.userTexts().contains(u"and another"_s));
    h.engine().removeQueuedPrompt(h.session(), other);
    const auto removed = h.waitFinished();
    QVERIFY(removed && removed->aborted);
    QCOMPARE(h.server().requests().size(), 2);
}

void QueuedPromptsTest::deletingTheSessionDropsItsQueue()
{
    EngineHarness h;
    h.tools().holdUntilAbort(u"slow"_s);
    h.server().enqueue(FakeTurn().toolCall(u"slow"_s, QJsonObject{}, u"call_1"_s));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"first"_s);
    QVERIFY(started.wait(10000));
    QVERIFY(!queue(h, u"orphan"_s).isEmpty());
    h.engine().deleteSession(h.session());
    const auto dropped = h.waitFinished();
    QVERIFY(dropped && dropped->aborted);
    const auto stopped = h.waitFinished();
    QVERIFY(stopped && stopped->aborted);
    QCOMPARE(h.sink().all<PromptDequeued>().size(), 1);
    QCOMPARE(h.sink().all<PromptDequeued>().first().reason, DequeueReason::Removed);
    QCOMPARE(h.server().requests().size(), 1);
}

QTEST_GUILESS_MAIN(QueuedPromptsTest)
void QueuedPromptsTest::aPromptQueuedBehindAManualCompactionIsAnsweredAfterTheSummary()
{
    EngineHarness h;
    h.tools().holdUntilReleased(u"slow"_s);
    h.server().enqueue(FakeTurn().toolCall(u"slow"_s, QJsonObject{}, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"the summary"_s}));
    h.server().enqueue(FakeTurn().text({u"the queued one, answered"_s}));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"an old request"_s);
    QVERIFY(started.wait(10000));
    // While the tool runs: the person asks for a summary, then queues a prompt.
    h.engine().compact(h.session());
    const auto requested = [&h] {
        const QList<PartUpdated> updates = h.sink().all<PartUpdated>();
        return std::any_of(updates.cbegin(), updates.cend(),
                           [](const PartUpdated &update) { return update.part.as<CompactionPart>() != nullptr; });
    };
    QTRY_VERIFY(requested());
    QVERIFY(!queue(h, u"a queued question"_s).isEmpty());
    h.tools().release();
    for (int i = 0; i < 3; ++i) {
        const auto outcome = h.waitFinished();
        QVERIFY(outcome);
        QVERIFY2(!outcome->error, outcome->error ? qPrintable(outcome->error->message()) : "");
    }

    QCOMPARE(h.server().requests().size(), 3);
    const QList<MessageWithParts> messages = h.messages();
    // prompt, tool step, compaction request, summary, queued prompt, answer
    QCOMPARE(messages.size(), 6);
    const AssistantMessage *summary = messages.at(3).info.assistant();
    QVERIFY(summary && summary->isSummary());
    QVERIFY(messages.at(2).parts.first().as<CompactionPart>());
    QCOMPARE(summary->parentID, messages.at(2).info.id());
    QCOMPARE(h.userTexts().last(), u"a queued question"_s);
    QVERIFY(messages.at(5).info.assistant());
    // Answered from the summary on, not summarised.
    QVERIFY(!h.sentText(1).contains(u"a queued question"_s));
    QVERIFY(h.sentText(2).contains(u"a queued question"_s));
    QVERIFY(!h.sentText(2).contains(u"an old request"_s));
}

#include "tst_queued_prompts.moc"
