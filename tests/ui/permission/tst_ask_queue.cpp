// The window's asks (reference §9, issue 19): a call's ask in the session on
// screen is answered in its card; the others of that session and its
// subagents open one dialog at a time, in the order asked; the rest wait.
// Each ask is answered once — here, or elsewhere as the engine reports. And
// end to end: a real engine's bash call asks through the queue.

#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "EngineHarness.h"
#include "ui/permission/AskQueue.h"
#include "ui/permission/PermissionDialog.h"
#include "ui/permission/QuestionDialog.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

PermissionRequest ask(const QString &id, const QString &sessionID, const QString &command = u"ls"_s)
{
    PermissionRequest request;
    request.id = id;
    request.sessionID = sessionID;
    request.permission = u"bash"_s;
    request.patterns = {command};
    request.always = {command + u" *"_s};
    request.metadata = QJsonObject{{u"command"_s, command}};
    return request;
}

QuestionRequest question(const QString &id, const QString &sessionID)
{
    QuestionInfo info;
    info.question = u"Which one?"_s;
    info.options = {{u"This"_s, {}}, {u"That"_s, {}}};
    return QuestionRequest{id, sessionID, {info}, std::nullopt};
}

PermissionRequest callAsk(const QString &id, const QString &sessionID, const QString &callID)
{
    PermissionRequest request = ask(id, sessionID);
    request.tool = PermissionToolRef{u"msg_1"_s, callID};
    return request;
}

PermissionDialog *permissionDialog(const AskQueue &queue)
{
    return qobject_cast<PermissionDialog *>(queue.currentDialog());
}

// Clicks a button of the open permission dialog once its buttons are armed.
bool click(const AskQueue &queue, const QString &buttonName)
{
    PermissionDialog *dialog = permissionDialog(queue);
    if (!dialog)
        return false;
    auto *button = dialog->findChild<QPushButton *>(buttonName);
    if (!button || !QTest::qWaitFor([button] { return button->isEnabled(); }))
        return false;
    QTest::mouseClick(button, Qt::LeftButton);
    return true;
}

// The tool call's state as the bus last reported it, which is what the
// window's views show.
std::optional<ToolState> reportedState(EngineHarness &h, const QString &callID)
{
    std::optional<ToolState> state;
    for (const PartUpdated &event : h.sink().all<PartUpdated>()) {
        if (const ToolPart *tool = event.part.as<ToolPart>(); tool && tool->callID == callID)
            state = tool->state;
    }
    return state;
}

FakeTurn bashCall(const QString &command, const QString &callID)
{
    return FakeTurn().toolCall(u"bash"_s, QJsonObject{{u"command"_s, command}, {u"description"_s, u"Print"_s}}, callID);
}

} // namespace

class AskQueueTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void twoAsksShowOneDialogThenTheNext();
    void anAskOfAHiddenSessionWaitsUntilItsSessionIsShown();
    void aSubagentsAskShowsWithItsParentSession();
    void switchingAwayPutsTheOpenAskBackInLine();
    void resolvingTheOpenAskClosesItAndOpensTheNext();
    void resolvingAWaitingAskDropsIt();
    void aRejectLeavesTheQueueConsistent();
    void eachReplyIsEmittedOnce();
    void questionsWaitInTheSameLine();
    void sessionsWaitingNamesEverySessionWithAsks();
    void theDialogShowsTheSessionsTitle();
    void aCallsAskInTheSessionOnScreenOpensNoDialog();
    void answeringInlineTakesTheAskAndPassesTheAnswerOn();
    void openingTheSessionOfADialogsAskMovesItIntoItsCard();
    void theWaitIsTimedPerCall();

    void rejectingInTheDialogStopsTheEnginesLoop();
    void alwaysForTheSessionIsNotAskedAgain();

private:
    QWidget *m_window = nullptr;
};

void AskQueueTest::init()
{
    m_window = new QWidget;
    m_window->resize(800, 600);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void AskQueueTest::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

void AskQueueTest::twoAsksShowOneDialogThenTheNext()
{
    AskQueue queue(m_window);
    queue.setVisibleSessions(u"ses_a"_s, {});
    QSignalSpy answered(&queue, &AskQueue::permissionAnswered);
    queue.addPermission(ask(u"per_1"_s, u"ses_a"_s));
    queue.addPermission(ask(u"per_2"_s, u"ses_a"_s));
    QCOMPARE(m_window->findChildren<QDialog *>().size(), 1);
    QCOMPARE(permissionDialog(queue)->request().id, u"per_1"_s);
    QCOMPARE(queue.pendingCount(), 2);

    QVERIFY(click(queue, u"allowOnceButton"_s));
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(0).toString(), u"per_1"_s);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), PermissionReply::Once);
    QVERIFY(permissionDialog(queue));
    QCOMPARE(permissionDialog(queue)->request().id, u"per_2"_s);
    QVERIFY(permissionDialog(queue)->isVisible());
    QCOMPARE(queue.pendingCount(), 1);
}

void AskQueueTest::anAskOfAHiddenSessionWaitsUntilItsSessionIsShown()
{
    AskQueue queue(m_window);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addPermission(ask(u"per_1"_s, u"ses_b"_s));
    QVERIFY(!queue.currentDialog());
    QCOMPARE(queue.sessionsWaiting(), QStringList{u"ses_b"_s});
    queue.setVisibleSessions(u"ses_b"_s, {});
    QVERIFY(permissionDialog(queue));
    QCOMPARE(permissionDialog(queue)->request().id, u"per_1"_s);
}

void AskQueueTest::aSubagentsAskShowsWithItsParentSession()
{
    AskQueue queue(m_window);
    queue.setVisibleSessions(u"ses_parent"_s, {u"ses_child"_s, u"ses_grandchild"_s});
    queue.addPermission(ask(u"per_1"_s, u"ses_grandchild"_s));
    QVERIFY(permissionDialog(queue));
    QCOMPARE(permissionDialog(queue)->request().sessionID, u"ses_grandchild"_s);
}

void AskQueueTest::switchingAwayPutsTheOpenAskBackInLine()
{
    AskQueue queue(m_window);
    QSignalSpy answered(&queue, &AskQueue::permissionAnswered);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addPermission(ask(u"per_1"_s, u"ses_a"_s));
    queue.addPermission(ask(u"per_2"_s, u"ses_b"_s));
    QPointer<QDialog> first = queue.currentDialog();
    queue.setVisibleSessions(u"ses_b"_s, {});
    QTRY_VERIFY(!first);
    QCOMPARE(permissionDialog(queue)->request().id, u"per_2"_s);
    QCOMPARE(answered.size(), 0);
    QCOMPARE(queue.pendingCount(), 2);
    // Back again: the first ask is still there, and still first.
    QVERIFY(click(queue, u"rejectButton"_s));
    queue.setVisibleSessions(u"ses_a"_s, {});
    QCOMPARE(permissionDialog(queue)->request().id, u"per_1"_s);
}

void AskQueueTest::resolvingTheOpenAskClosesItAndOpensTheNext()
{
    AskQueue queue(m_window);
    QSignalSpy answered(&queue, &AskQueue::permissionAnswered);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addPermission(ask(u"per_1"_s, u"ses_a"_s));
    queue.addPermission(ask(u"per_2"_s, u"ses_a"_s));
    QPointer<QDialog> first = queue.currentDialog();
    queue.resolve(u"per_1"_s);
    QVERIFY(!first || !first->isVisible());
    QCOMPARE(permissionDialog(queue)->request().id, u"per_2"_s);
    QCOMPARE(answered.size(), 0);
    QTRY_VERIFY(!first);
}

void AskQueueTest::resolvingAWaitingAskDropsIt()
{
    AskQueue queue(m_window);
    QSignalSpy waiting(&queue, &AskQueue::waitingChanged);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addPermission(ask(u"per_1"_s, u"ses_b"_s));
    QCOMPARE(waiting.size(), 1);
    queue.resolve(u"per_1"_s);
    QCOMPARE(waiting.size(), 2);
    QCOMPARE(queue.pendingCount(), 0);
    queue.setVisibleSessions(u"ses_b"_s, {});
    QVERIFY(!queue.currentDialog());
}

void AskQueueTest::aRejectLeavesTheQueueConsistent()
{
    AskQueue queue(m_window);
    QSignalSpy answered(&queue, &AskQueue::permissionAnswered);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addPermission(ask(u"per_1"_s, u"ses_a"_s));
    queue.addPermission(ask(u"per_2"_s, u"ses_a"_s));
    queue.addPermission(ask(u"per_3"_s, u"ses_b"_s));
    QVERIFY(click(queue, u"rejectButton"_s));
    // The engine rejects the session's other asks and says so; the reply
    // to the one answered here comes back too.
    queue.resolve(u"per_1"_s);
    queue.resolve(u"per_2"_s);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), PermissionReply::Reject);
    QVERIFY(!queue.currentDialog());
    QCOMPARE(queue.pendingCount(), 1);
    QCOMPARE(queue.sessionsWaiting(), QStringList{u"ses_b"_s});
}

void AskQueueTest::eachReplyIsEmittedOnce()
{
    AskQueue queue(m_window);
    QSignalSpy answered(&queue, &AskQueue::permissionAnswered);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addPermission(ask(u"per_1"_s, u"ses_a"_s));
    queue.addPermission(ask(u"per_1"_s, u"ses_a"_s)); // a duplicate is not asked twice
    QCOMPARE(queue.pendingCount(), 1);
    QPointer<PermissionDialog> dialog = permissionDialog(queue);
    QVERIFY(click(queue, u"allowOnceButton"_s));
    QVERIFY(dialog); // deleted later, not yet
    dialog->reject();
    queue.resolve(u"per_1"_s);
    QCOMPARE(answered.size(), 1);
    QVERIFY(!queue.currentDialog());
}

void AskQueueTest::questionsWaitInTheSameLine()
{
    AskQueue queue(m_window);
    QSignalSpy dismissed(&queue, &AskQueue::questionDismissed);
    QSignalSpy answeredQuestions(&queue, &AskQueue::questionAnswered);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addQuestion(question(u"que_1"_s, u"ses_a"_s));
    queue.addPermission(ask(u"per_1"_s, u"ses_a"_s));
    queue.addQuestion(question(u"que_2"_s, u"ses_a"_s));
    auto *first = qobject_cast<QuestionDialog *>(queue.currentDialog());
    QVERIFY(first);
    QCOMPARE(first->request().id, u"que_1"_s);
    first->reject();
    QCOMPARE(dismissed.size(), 1);
    QCOMPARE(dismissed.first().at(0).toString(), u"que_1"_s);
    QCOMPARE(permissionDialog(queue)->request().id, u"per_1"_s);
    QVERIFY(click(queue, u"allowOnceButton"_s));
    auto *last = qobject_cast<QuestionDialog *>(queue.currentDialog());
    QVERIFY(last);
    queue.resolve(u"que_2"_s); // the prompt was stopped meanwhile
    QVERIFY(!queue.currentDialog());
    QCOMPARE(answeredQuestions.size(), 0);
    QCOMPARE(queue.pendingCount(), 0);
}

void AskQueueTest::sessionsWaitingNamesEverySessionWithAsks()
{
    AskQueue queue(m_window);
    QSignalSpy waiting(&queue, &AskQueue::waitingChanged);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addPermission(ask(u"per_1"_s, u"ses_c"_s));
    queue.addPermission(ask(u"per_2"_s, u"ses_a"_s));
    queue.addPermission(ask(u"per_3"_s, u"ses_c"_s));
    QCOMPARE(queue.sessionsWaiting(), (QStringList{u"ses_c"_s, u"ses_a"_s}));
    QCOMPARE(waiting.size(), 2); // the third ask added no session
    QVERIFY(click(queue, u"allowOnceButton"_s));
    QCOMPARE(queue.sessionsWaiting(), QStringList{u"ses_c"_s});
    QCOMPARE(waiting.size(), 3);
}

void AskQueueTest::theDialogShowsTheSessionsTitle()
{
    AskQueue queue(m_window);
    queue.setSessionTitle(u"ses_a"_s, u"Fix the build"_s);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addPermission(ask(u"per_1"_s, u"ses_a"_s));
    const auto hasText = [&queue](const QString &text) {
        const QList<QLabel *> labels = queue.currentDialog()->findChildren<QLabel *>();
        return std::any_of(labels.cbegin(), labels.cend(), [&text](const QLabel *l) { return l->text() == text; });
    };
    QVERIFY(hasText(u"In session “Fix the build”"_s));
    queue.setSessionTitle(u"ses_a"_s, u"Fix the release build"_s);
    QVERIFY(hasText(u"In session “Fix the release build”"_s));
}

void AskQueueTest::aCallsAskInTheSessionOnScreenOpensNoDialog()
{
    AskQueue queue(m_window);
    queue.setVisibleSessions(u"ses_a"_s, {});
    QSignalSpy changed(&queue, &AskQueue::callChanged);
    QSignalSpy waiting(&queue, &AskQueue::waitingChanged);
    queue.addPermission(callAsk(u"per_1"_s, u"ses_a"_s, u"call_1"_s));
    QVERIFY(!queue.currentDialog());
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.first().at(1).toString(), u"call_1"_s);
    QCOMPARE(waiting.size(), 1);
    QCOMPARE(queue.sessionsWaiting(), QStringList{u"ses_a"_s});
    const auto found = queue.askForCall(u"msg_1"_s, u"call_1"_s);
    QVERIFY(found);
    QCOMPARE(found->id, u"per_1"_s);
    QVERIFY(!queue.askForCall(u"msg_2"_s, u"call_1"_s));
    // Without a call it has no card: the dialog.
    queue.addPermission(ask(u"per_2"_s, u"ses_a"_s));
    QVERIFY(permissionDialog(queue));
    QCOMPARE(permissionDialog(queue)->request().id, u"per_2"_s);
}

void AskQueueTest::answeringInlineTakesTheAskAndPassesTheAnswerOn()
{
    AskQueue queue(m_window);
    queue.setVisibleSessions(u"ses_a"_s, {});
    queue.addPermission(callAsk(u"per_1"_s, u"ses_a"_s, u"call_1"_s));
    QSignalSpy answered(&queue, &AskQueue::permissionAnswered);
    QSignalSpy changed(&queue, &AskQueue::callChanged);
    // The queue is consistent before the answer goes out.
    connect(&queue, &AskQueue::permissionAnswered, this, [&queue] { QCOMPARE(queue.pendingCount(), 0); });
    queue.answerPermission(u"per_1"_s, PermissionReply::RejectWithMessage, u"use make"_s,
                           ApprovalScope::Session);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(2).toString(), u"use make"_s);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), PermissionReply::RejectWithMessage);
    QCOMPARE(changed.size(), 1);
    QVERIFY(!queue.askForCall(u"msg_1"_s, u"call_1"_s));
    QVERIFY(queue.sessionsWaiting().isEmpty());
    // A second answer, or the engine's report of the first, changes nothing.
    queue.answerPermission(u"per_1"_s, PermissionReply::Once, {}, ApprovalScope::Session);
    queue.resolve(u"per_1"_s);
    QCOMPARE(answered.size(), 1);
}

void AskQueueTest::openingTheSessionOfADialogsAskMovesItIntoItsCard()
{
    AskQueue queue(m_window);
    // The parent on screen: its subagent's ask opens the dialog.
    queue.setVisibleSessions(u"ses_parent"_s, {u"ses_child"_s});
    queue.addPermission(callAsk(u"per_1"_s, u"ses_child"_s, u"call_1"_s));
    QVERIFY(permissionDialog(queue));
    QPointer<QDialog> dialog = queue.currentDialog();
    QSignalSpy answered(&queue, &AskQueue::permissionAnswered);
    queue.setVisibleSessions(u"ses_child"_s, {u"ses_parent"_s});
    QVERIFY(!queue.currentDialog());
    QTRY_VERIFY(!dialog);
    QVERIFY(answered.isEmpty()); // closing the dialog answered nothing
    QVERIFY(queue.askForCall(u"msg_1"_s, u"call_1"_s));
}

void AskQueueTest::theWaitIsTimedPerCall()
{
    AskQueue queue(m_window);
    qint64 now = 10000;
    queue.setClock([&now] { return now; });
    queue.setVisibleSessions(u"ses_a"_s, {});
    QCOMPARE(queue.waitedFor(u"msg_1"_s, u"call_1"_s), 0);
    queue.addPermission(callAsk(u"per_1"_s, u"ses_a"_s, u"call_1"_s));
    now += 4000;
    QCOMPARE(queue.waitedFor(u"msg_1"_s, u"call_1"_s), 4000); // still waiting
    queue.answerPermission(u"per_1"_s, PermissionReply::Once, {}, ApprovalScope::Session);
    now += 1000;
    QCOMPARE(queue.waitedFor(u"msg_1"_s, u"call_1"_s), 4000);
    // A second ask of the same call adds its wait.
    queue.addPermission(callAsk(u"per_2"_s, u"ses_a"_s, u"call_1"_s));
    now += 2500;
    queue.resolve(u"per_2"_s);
    QCOMPARE(queue.waitedFor(u"msg_1"_s, u"call_1"_s), 6500);
    QCOMPARE(queue.waitedFor(u"msg_1"_s, u"call_2"_s), 0);
}

namespace {

// bash asks for every command; the queue is wired to the engine as the
// window wires it, with the engine's session as a subagent's seen from its
// parent, so its asks open the dialog (its card is not on screen).
EngineHarness::Setup askingBash()
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.ownThread = true;
    setup.config.insert(u"permission"_s, QJsonObject{{u"bash"_s, u"ask"_s}});
    return setup;
}

void wire(AskQueue &queue, EngineHarness &h)
{
    h.onEvent<PermissionAsked>(&queue, [&queue](const PermissionAsked &asked) { queue.addPermission(asked.request); });
    h.onEvent<PermissionReplied>(&queue, [&queue](const PermissionReplied &replied) { queue.resolve(replied.requestID); });
    QObject::connect(&queue, &AskQueue::permissionAnswered, &queue,
                     [&h](const QString &id, PermissionReply reply, const QString &message, ApprovalScope scope) {
                         h.engine().replyPermission(id, reply, message, scope);
                     });
    queue.setVisibleSessions(QString(), {h.session()});
}

} // namespace

void AskQueueTest::rejectingInTheDialogStopsTheEnginesLoop()
{
    EngineHarness h(askingBash());
    AskQueue queue(m_window);
    wire(queue, h);
    h.server().enqueue(bashCall(u"echo no"_s, u"call_1"_s));
    h.send(u"echo"_s);
    QTRY_VERIFY_WITH_TIMEOUT(permissionDialog(queue), 10000);
    QCOMPARE(permissionDialog(queue)->request().patterns, QStringList{u"echo no"_s});
    QVERIFY(click(queue, u"rejectButton"_s));
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QCOMPARE(h.server().requests().size(), 1);
    const auto state = reportedState(h, u"call_1"_s);
    QVERIFY(state && std::holds_alternative<ToolError>(*state));
    QVERIFY2(std::get<ToolError>(*state).error.contains(u"rejected"_s), qPrintable(std::get<ToolError>(*state).error));
    QTRY_COMPARE(queue.pendingCount(), 0);
    QVERIFY(!queue.currentDialog());
}

void AskQueueTest::alwaysForTheSessionIsNotAskedAgain()
{
    EngineHarness h(askingBash());
    AskQueue queue(m_window);
    wire(queue, h);
    h.server().enqueue(bashCall(u"echo one"_s, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    h.send(u"echo once"_s);
    QTRY_VERIFY_WITH_TIMEOUT(permissionDialog(queue), 10000);
    QCOMPARE(permissionDialog(queue)->findChild<QPushButton *>(u"alwaysSessionButton"_s)->text(),
             u"&Always allow “echo *” in this session"_s);
    QVERIFY(click(queue, u"alwaysSessionButton"_s));
    const auto first = h.waitFinished();
    QVERIFY(first && !first->error);

    h.server().enqueue(bashCall(u"echo two"_s, u"call_2"_s));
    h.server().enqueue(FakeTurn().text({u"Done again."_s}));
    const auto second = h.prompt(u"echo again"_s);
    QVERIFY(second && !second->error);
    QCOMPARE(h.sink().all<PermissionAsked>().size(), 1);
    QVERIFY(!queue.currentDialog());
    QCOMPARE(queue.pendingCount(), 0);
    const auto state = reportedState(h, u"call_2"_s);
    QVERIFY(state && std::holds_alternative<ToolCompleted>(*state));
    QVERIFY(std::get<ToolCompleted>(*state).output.contains(u"two"_s));
}

QTEST_MAIN(AskQueueTest)
#include "tst_ask_queue.moc"
