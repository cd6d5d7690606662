// Asks inline (issue 19, point 12): a permission ask or a question appears
// in the card of the call that asks, with its choices and their mnemonics;
// the card reads "Waiting for you"; the session list marks the session that
// waits until it is answered; an ask of a session not on screen waits for
// it; the person is alerted only when the window is not active. Driven end
// to end: a real engine on the fake provider, in the window.

#include <QAbstractButton>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "ui/chat/ChatView.h"
#include "ui/chat/tool/ToolCard.h"
#include "ui/notify/Notifier.h"
#include "ui/permission/AskQueue.h"
#include "ui/permission/PermissionAskPanel.h"
#include "ui/permission/QuestionAskPanel.h"
#include "ui/permission/QuestionPage.h"
#include "ui/prompt/PromptBox.h"
#include "ui/window/AskWiring.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

EngineHarness::Setup askingBash()
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.ownThread = true;
    setup.config.insert(u"permission"_s, QJsonObject{{u"bash"_s, u"ask"_s}});
    return setup;
}

FakeTurn bashCall(const QString &command, const QString &callID)
{
    return FakeTurn().toolCall(u"bash"_s, QJsonObject{{u"command"_s, command}, {u"description"_s, u"Print"_s}}, callID);
}

ToolCard *card(MainWindow &window)
{
    return newestCard(window.pane()->chatView());
}

// The button of the ask in the newest card, once on screen.
QPushButton *askButton(MainWindow &window, const QString &name)
{
    ToolCard *newest = card(window);
    QWidget *panel = newest ? newest->askPanel() : nullptr;
    auto *button = panel ? panel->findChild<QPushButton *>(name) : nullptr;
    return button && button->isVisible() ? button : nullptr;
}

bool waiting(MainWindow &window, const QString &sessionID)
{
    return window.controller()->sessions()->indexOf(sessionID).data(SessionTreeModel::WaitingRole).toBool();
}

AskQueue *queue(MainWindow &window)
{
    return window.findChild<AskWiring *>()->queue();
}

void send(MainWindow &window, const QString &text)
{
    window.pane()->promptBox()->setText(text);
    window.pane()->promptBox()->submit();
}

} // namespace

class InlineAsksTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void anAskAppearsInItsCardAndAllowOnceRunsTheTool();
    void altOAllowsOnceFromThePromptBox();
    void rejectingWithAMessageSendsItToTheAgent();
    void alwaysForThisSessionAnswersTheNextIdenticalAsk();
    void anAskOfAnotherSessionWaitsMarkedUntilItIsOpened();
    void aQuestionIsAnsweredByItsDefaultButtonAndTheAnswerStays();
    void theAlertComesOnlyWhenTheWindowIsInactive();
};

void InlineAsksTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

void InlineAsksTest::anAskAppearsInItsCardAndAllowOnceRunsTheTool()
{
    EngineHarness h(askingBash());
    h.server().enqueue(bashCall(u"echo from-the-tool"_s, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"All done."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    send(window, u"run it"_s);

    QTRY_VERIFY_WITH_TIMEOUT(askButton(window, u"allowOnceButton"_s), 10000);
    QVERIFY(!queue(window)->currentDialog()); // in the card, not a dialog
    for (const QString &name : {u"alwaysSessionButton"_s, u"alwaysProjectButton"_s, u"rejectButton"_s, u"sendButton"_s})
        QVERIFY2(askButton(window, name), qPrintable(name));
    QVERIFY(card(window)->askPanel()->findChild<QLineEdit *>(u"messageEdit"_s));
    QCOMPARE(askButton(window, u"allowOnceButton"_s)->text(), u"Allow &once"_s);
    QCOMPARE(askButton(window, u"alwaysSessionButton"_s)->text(), u"&Always allow “echo *” in this session"_s);
    // "Always" in words, never Markdown.
    const QString note = card(window)->askPanel()->findChild<QLabel *>(u"alwaysNote"_s)->text();
    QVERIFY2(!note.isEmpty() && !note.contains(u'`'), qPrintable(note));
    QCOMPARE(card(window)->statusKind(), ToolStatus::Kind::Waiting);
    QCOMPARE(card(window)->statusText(), u"Waiting for you"_s);

    QTest::mouseClick(askButton(window, u"allowOnceButton"_s), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(card(window)->statusKind(), ToolStatus::Kind::Done, 10000);
    QVERIFY(!card(window)->askPanel());
    QTRY_VERIFY(!window.controller()->isBusy(window.controller()->currentSession()));
    QVERIFY(h.server().requests().size() == 2);
    QVERIFY(h.sentText(1).contains(u"from-the-tool"_s));
}

void InlineAsksTest::altOAllowsOnceFromThePromptBox()
{
    EngineHarness h(askingBash());
    h.server().enqueue(bashCall(u"echo by-keyboard"_s, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"All done."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    send(window, u"run it"_s);
    QTRY_VERIFY_WITH_TIMEOUT(askButton(window, u"allowOnceButton"_s), 10000);

    QWidget *typing = window.pane()->promptBox()->editor();
    typing->setFocus();
    QTRY_VERIFY(typing->hasFocus());
    QTest::keyClick(typing, Qt::Key_O, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(card(window)->statusKind(), ToolStatus::Kind::Done, 10000);
    QVERIFY(card(window)->title().contains(u"echo by-keyboard"_s));
}

void InlineAsksTest::rejectingWithAMessageSendsItToTheAgent()
{
    EngineHarness h(askingBash());
    h.server().enqueue(bashCall(u"rm -rf build"_s, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"Fine, I will use make clean."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    send(window, u"clean up"_s);
    QTRY_VERIFY_WITH_TIMEOUT(askButton(window, u"sendButton"_s), 10000);
    auto *message = card(window)->askPanel()->findChild<QLineEdit *>(u"messageEdit"_s);
    QVERIFY(!askButton(window, u"sendButton"_s)->isEnabled()); // nothing to send yet
    message->setFocus();
    QTest::keyClicks(message, u"use make clean instead"_s);
    QTest::keyClick(message, Qt::Key_Return);

    QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 10000);
    QCOMPARE(h.server().requests().size(), 2); // the agent read the words and answered
    QVERIFY2(h.sentText(1).contains(u"use make clean instead"_s), qPrintable(h.sentText(1)));
    QTRY_COMPARE(card(window)->statusKind(), ToolStatus::Kind::Rejected);
    QVERIFY(!card(window)->askPanel());
}

void InlineAsksTest::alwaysForThisSessionAnswersTheNextIdenticalAsk()
{
    EngineHarness h(askingBash());
    h.server().enqueue(bashCall(u"echo one"_s, u"call_1"_s));
    h.server().enqueue(bashCall(u"echo two"_s, u"call_2"_s));
    h.server().enqueue(FakeTurn().text({u"Both done."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    int asked = 0;
    h.onEvent<PermissionAsked>(this, [&asked](const PermissionAsked &) { ++asked; });
    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    send(window, u"echo twice"_s);
    QTRY_VERIFY_WITH_TIMEOUT(askButton(window, u"alwaysSessionButton"_s), 10000);
    askButton(window, u"alwaysSessionButton"_s)->click();

    QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 10000);
    QCOMPARE(asked, 1);
    QCOMPARE(h.server().requests().size(), 3);
    QVERIFY(h.sentText(2).contains(u"two"_s));
    QTRY_COMPARE(card(window)->statusKind(), ToolStatus::Kind::Done);
    QVERIFY(card(window)->title().contains(u"echo two"_s));
    QVERIFY(!card(window)->askPanel());
    QCOMPARE(queue(window)->pendingCount(), 0);
}

void InlineAsksTest::anAskOfAnotherSessionWaitsMarkedUntilItIsOpened()
{
    EngineHarness h(askingBash());
    h.server().enqueue(bashCall(u"echo later"_s, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    send(window, u"run it"_s);
    QTRY_VERIFY_WITH_TIMEOUT(askButton(window, u"allowOnceButton"_s), 10000);
    const QString asking = window.controller()->currentSession();
    QTRY_VERIFY(waiting(window, asking));

    // Another session on screen: the ask waits, marked, without a dialog.
    const QString other = window.controller()->newSession();
    QCOMPARE(window.controller()->currentSession(), other);
    QTRY_VERIFY(!card(window));
    QVERIFY(!queue(window)->currentDialog());
    QCOMPARE(queue(window)->pendingCount(), 1);
    QVERIFY(waiting(window, asking));
    QVERIFY(!waiting(window, other));

    // Opening it again shows the ask in its card.
    window.controller()->showSession(asking);
    QTRY_VERIFY_WITH_TIMEOUT(askButton(window, u"allowOnceButton"_s), 10000);
    QCOMPARE(card(window)->statusText(), u"Waiting for you"_s);
    askButton(window, u"allowOnceButton"_s)->click();
    QTRY_VERIFY(!waiting(window, asking));
    QTRY_COMPARE_WITH_TIMEOUT(card(window)->statusKind(), ToolStatus::Kind::Done, 10000);
}

void InlineAsksTest::aQuestionIsAnsweredByItsDefaultButtonAndTheAnswerStays()
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.ownThread = true;
    EngineHarness h(setup);
    const QJsonObject question{
        {u"question"_s, u"Which colour should the button be?"_s},
        {u"header"_s, u"Colour"_s},
        {u"options"_s, QJsonArray{QJsonObject{{u"label"_s, u"Red"_s}, {u"description"_s, u"Loud"_s}},
                                  QJsonObject{{u"label"_s, u"Blue"_s}, {u"description"_s, u"Calm"_s}}}},
    };
    h.server().enqueue(
        FakeTurn().toolCall(u"question"_s, QJsonObject{{u"questions"_s, QJsonArray{question}}}, u"call_q"_s));
    h.server().enqueue(FakeTurn().text({u"Blue it is."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    send(window, u"style the button"_s);

    QTRY_VERIFY_WITH_TIMEOUT(card(window) && qobject_cast<QuestionAskPanel *>(card(window)->askPanel()), 10000);
    auto *panel = qobject_cast<QuestionAskPanel *>(card(window)->askPanel());
    QVERIFY(!queue(window)->currentDialog());
    QCOMPARE(card(window)->statusText(), u"Waiting for you"_s);
    auto *answer = panel->findChild<QPushButton *>(u"answerButton"_s);
    auto *dismiss = panel->findChild<QPushButton *>(u"dismissButton"_s);
    QVERIFY(answer->isDefault());
    QVERIFY(!dismiss->isDefault() && !dismiss->autoDefault());
    QVERIFY(!answer->isEnabled()); // nothing picked yet

    QAbstractButton *blue = panel->pages().first()->choices().at(1);
    QCOMPARE(blue->text(), u"Blue"_s);
    blue->setFocus();
    QTest::keyClick(blue, Qt::Key_Space);
    QVERIFY(blue->isChecked());
    QTest::keyClick(blue, Qt::Key_Return); // Enter answers, as the default button

    QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 10000);
    QVERIFY2(h.sentText(1).contains(u"Blue"_s), qPrintable(h.sentText(1)));
    QTRY_COMPARE(card(window)->statusKind(), ToolStatus::Kind::Done);
    QVERIFY(!card(window)->askPanel());
    // The chosen answer stays on the card.
    QVERIFY2(card(window)->subtitle().contains(u"Blue"_s), qPrintable(card(window)->subtitle()));
}

void InlineAsksTest::theAlertComesOnlyWhenTheWindowIsInactive()
{
    EngineHarness h(askingBash());
    h.server().enqueue(bashCall(u"echo one"_s, u"call_1"_s));
    h.server().enqueue(bashCall(u"echo two"_s, u"call_2"_s));
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    Notifier *notifier = window.findChild<AskWiring *>()->notifier();
    notifier->setEnabled(true);
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    send(window, u"echo twice"_s);
    QTRY_VERIFY_WITH_TIMEOUT(askButton(window, u"allowOnceButton"_s), 10000);
    QCOMPARE(notifier->alertsShown(), 0); // the person sees it here

    QWidget elsewhere;
    elsewhere.resize(200, 100);
    elsewhere.show();
    elsewhere.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&elsewhere));
    QVERIFY(!window.isActiveWindow());
    askButton(window, u"allowOnceButton"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(card(window)->title().contains(u"echo two"_s) && card(window)->askPanel(), 10000);
    QTRY_COMPARE(notifier->alertsShown(), 1);
    askButton(window, u"allowOnceButton"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(window.controller()->currentSession()), 10000);
}

QTEST_MAIN(InlineAsksTest)
#include "tst_inline_asks.moc"
