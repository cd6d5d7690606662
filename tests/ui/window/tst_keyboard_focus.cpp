#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "ui/prompt/AgentPicker.h"
#include "ui/prompt/ModelPicker.h"
#include "ui/prompt/PromptBox.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionPane.h"
#include "ui/window/SessionSidebar.h"
#include "ui/window/ShortcutsDialog.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

// Issue 19, point 19: the window works from the keyboard. Tab leaves the
// prompt box and walks every control in a sensible order, each showing
// that it has the focus; the shortcut sheet lists every key the window has.
class KeyboardFocusTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void tabLeavesThePromptBoxThroughItsControls();
    void tabWalksTheWholeWindowAndComesBack();
    void everyTabStopShowsThatItHasTheFocus();
    void theShortcutSheetListsEveryShortcutOfTheWindow();

private:
    // The window's Tab stops from the prompt box on, once round: Tab is
    // pressed until the focus is back in the prompt box or on a stop seen before.
    static QList<QWidget *> tabChain(MainWindow &window);
    static bool showActive(MainWindow &window, EngineHarness &h);
    static QString nameOf(const QWidget *widget);
};

void KeyboardFocusTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

bool KeyboardFocusTest::showActive(MainWindow &window, EngineHarness &h)
{
    if (!showWithProject(window, h.projectDirectory()))
        return false;
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
}

QString KeyboardFocusTest::nameOf(const QWidget *widget)
{
    if (!widget)
        return u"(nothing)"_s;
    QString name = widget->objectName();
    for (const QWidget *parent = widget->parentWidget(); name.isEmpty() && parent; parent = parent->parentWidget())
        name = u"inside "_s + parent->objectName();
    return QString::fromLatin1(widget->metaObject()->className()) + u' ' + name;
}

QList<QWidget *> KeyboardFocusTest::tabChain(MainWindow &window)
{
    QPlainTextEdit *editor = window.pane()->promptBox()->editor();
    editor->setFocus(Qt::TabFocusReason);
    QList<QWidget *> chain;
    for (int step = 0; step < 80; ++step) {
        QWidget *from = QApplication::focusWidget();
        if (!from)
            break;
        QTest::keyClick(from, Qt::Key_Tab);
        QWidget *to = QApplication::focusWidget();
        if (!to || to == editor || chain.contains(to))
            break;
        chain.append(to);
    }
    return chain;
}

void KeyboardFocusTest::tabLeavesThePromptBoxThroughItsControls()
{
    EngineHarness h;
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showActive(window, h));
    PromptBox *box = window.pane()->promptBox();
    box->editor()->setFocus();
    QTRY_VERIFY(box->editor()->hasFocus());
    const QString agent = box->currentAgent();

    const QList<QWidget *> expected{box->attachButton(), box->agentPicker(), box->modelPicker(),
                                    box->findChild<QWidget *>(u"sendButton"_s)};
    for (QWidget *next : expected) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QVERIFY2(QApplication::focusWidget() == next,
                 qPrintable(u"Tab went to %1, not %2"_s.arg(nameOf(QApplication::focusWidget()), nameOf(next))));
    }
    // Tab moved the focus; it did not switch the agent. Ctrl+. does, as
    // the agent picker's tooltip says.
    QCOMPARE(box->currentAgent(), agent);
    QVERIFY2(box->agentPicker()->toolTip().contains(u"Ctrl+."_s), qPrintable(box->agentPicker()->toolTip()));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ShiftModifier);
    QCOMPARE(QApplication::focusWidget(), box->modelPicker());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ShiftModifier);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ShiftModifier);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ShiftModifier);
    QCOMPARE(QApplication::focusWidget(), box->editor());
}

void KeyboardFocusTest::tabWalksTheWholeWindowAndComesBack()
{
    EngineHarness h;
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showActive(window, h));
    const QList<QWidget *> chain = tabChain(window);
    QStringList names;
    for (QWidget *stop : chain)
        names.append(nameOf(stop));
    // Round the window and back to the prompt box, never stuck in a control.
    QVERIFY2(QApplication::focusWidget() == window.pane()->promptBox()->editor(), qPrintable(names.join(u", "_s)));
    for (QWidget *stop : chain) {
        QVERIFY2(stop->isVisible() && stop->isEnabled(), qPrintable(nameOf(stop)));
        QVERIFY2(window.isAncestorOf(stop), qPrintable(nameOf(stop)));
    }
    // On the way: the session search and list, and the conversation.
    QVERIFY2(chain.contains(window.sidebar()->searchField()), qPrintable(names.join(u", "_s)));
    QVERIFY2(chain.contains(window.sidebar()->view()), qPrintable(names.join(u", "_s)));
    QVERIFY2(chain.contains(window.pane()->chatView()), qPrintable(names.join(u", "_s)));
    // The prompt box's own controls come first, right after it.
    QVERIFY(chain.size() >= 4);
    QCOMPARE(chain.at(0), window.pane()->promptBox()->attachButton());
}

void KeyboardFocusTest::everyTabStopShowsThatItHasTheFocus()
{
    EngineHarness h;
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showActive(window, h));
    const QList<QWidget *> chain = tabChain(window);
    QVERIFY(!chain.isEmpty());
    for (QWidget *stop : chain) {
        // Without the focus (it is on the prompt box), then with it.
        window.pane()->promptBox()->editor()->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(!stop->hasFocus());
        const QImage without = stop->grab().toImage();
        stop->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(stop->hasFocus());
        const QImage with = stop->grab().toImage();
        QVERIFY2(with != without, qPrintable(u"%1 looks the same with and without the focus"_s.arg(nameOf(stop))));
    }
}

void KeyboardFocusTest::theShortcutSheetListsEveryShortcutOfTheWindow()
{
    EngineHarness h;
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showActive(window, h));
    ShortcutsDialog sheet(window.menuBar(), &window);
    QStringList keys;
    QTreeWidget *list = sheet.list();
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        keys.append(list->topLevelItem(i)->text(0).split(u", "_s));
    int checked = 0;
    for (const QAction *action : window.findChildren<QAction *>()) {
        for (const QKeySequence &shortcut : action->shortcuts()) {
            ++checked;
            const QString key = shortcut.toString(QKeySequence::NativeText);
            QVERIFY2(keys.contains(key), qPrintable(u"%1 (%2) is not on the sheet"_s.arg(key, action->text())));
        }
    }
    QVERIFY(checked >= 16);
    // The session list's Delete key, which no menu shows.
    QVERIFY(keys.contains(QKeySequence(QKeySequence::Delete).toString(QKeySequence::NativeText)));
}

QTEST_MAIN(KeyboardFocusTest)
#include "tst_keyboard_focus.moc"
