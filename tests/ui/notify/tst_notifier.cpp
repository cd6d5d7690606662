// Desktop alerts: only when the person looks elsewhere, only for news (a
// short turn is none), and never when switched off.

#include <QTest>
#include <QWidget>

#include "ui/notify/Notifier.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class NotifierTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nothingWhileTheWindowIsActive();
    void anAskAlertsWhileTheWindowIsInactive();
    void aShortTurnIsNoNews();
    void aFailureAlerts();
    void nothingWhenSwitchedOff();
};

void NotifierTest::nothingWhileTheWindowIsActive()
{
    QWidget window;
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    Notifier notifier(&window);
    notifier.permissionNeeded(u"Fix the tests"_s, u"Run a command"_s);
    notifier.questionAsked(u"Fix the tests"_s, u"Which test first?"_s);
    notifier.taskFinished(u"Fix the tests"_s, 60000);
    notifier.taskFailed(u"Fix the tests"_s, u"The provider is down."_s);
    QCOMPARE(notifier.alertsShown(), 0);
}

void NotifierTest::anAskAlertsWhileTheWindowIsInactive()
{
    QWidget window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QWidget elsewhere; // the person is in another window
    elsewhere.show();
    elsewhere.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&elsewhere));
    QVERIFY(!window.isActiveWindow());
    Notifier notifier(&window);
    notifier.permissionNeeded(u"Fix the tests"_s, u"Run a command"_s);
    QCOMPARE(notifier.alertsShown(), 1);
    notifier.questionAsked(u"Fix the tests"_s, u"Which test first?"_s);
    QCOMPARE(notifier.alertsShown(), 2);
}

void NotifierTest::aShortTurnIsNoNews()
{
    QWidget window; // never shown: never active
    Notifier notifier(&window);
    notifier.taskFinished(u"Quick one"_s, Notifier::FinishedThresholdMs - 1);
    QCOMPARE(notifier.alertsShown(), 0);
    notifier.taskFinished(u"Long one"_s, Notifier::FinishedThresholdMs + 90000);
    QCOMPARE(notifier.alertsShown(), 1);
}

void NotifierTest::aFailureAlerts()
{
    QWidget window;
    Notifier notifier(&window);
    notifier.taskFailed(u"Long one"_s, u"The provider is down."_s);
    QCOMPARE(notifier.alertsShown(), 1);
}

void NotifierTest::nothingWhenSwitchedOff()
{
    QWidget window;
    Notifier notifier(&window);
    notifier.setEnabled(false);
    QVERIFY(!notifier.isEnabled());
    notifier.permissionNeeded(u"Fix the tests"_s, u"Run a command"_s);
    notifier.taskFailed(u"Fix the tests"_s, u"The provider is down."_s);
    QCOMPARE(notifier.alertsShown(), 0);
    notifier.setEnabled(true);
    notifier.permissionNeeded(u"Fix the tests"_s, u"Run a command"_s);
    QCOMPARE(notifier.alertsShown(), 1);
}

QTEST_MAIN(NotifierTest)
#include "tst_notifier.moc"
