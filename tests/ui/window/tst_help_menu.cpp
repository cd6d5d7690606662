#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidget>

#include "EngineHarness.h"
#include "ui/window/MainWindow.h"
#include "ui/window/ShortcutsDialog.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QMenu *menuTitled(MainWindow &window, const QString &title)
{
    for (QAction *action : window.menuBar()->actions()) {
        if (action->menu() && action->menu()->title().remove(u'&') == title)
            return action->menu();
    }
    return nullptr;
}

QAction *actionTitled(QMenu *menu, const QString &text)
{
    for (QAction *action : menu->actions()) {
        if (action->text().remove(u'&') == text)
            return action;
    }
    return nullptr;
}

} // namespace

// Help: the keyboard shortcuts sheet, the guide and About.
class HelpMenuTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(u"qcode-tests"_s);
        QCoreApplication::setApplicationVersion(u"9.8.7"_s);
        QSettings().clear();
    }

    void theHelpMenuOffersTheShortcutsTheGuideAndAbout()
    {
        EngineHarness h;
        MainWindow window(&h.store(), &h.engine());
        QMenu *help = menuTitled(window, u"Help"_s);
        QVERIFY(help);
        QVERIFY(actionTitled(help, u"Keyboard Shortcuts"_s));
        QCOMPARE(actionTitled(help, u"Keyboard Shortcuts"_s)->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Slash));
        QVERIFY(actionTitled(help, u"qcode Guide"_s));
        QVERIFY(!actionTitled(help, u"qcode Guide"_s)->shortcut().isEmpty());
        QAction *about = actionTitled(help, u"About qcode"_s);
        QVERIFY(about);
        QCOMPARE(about->menuRole(), QAction::AboutRole);
    }

    void theShortcutsSheetListsEveryMenuKeyAndThePromptBoxKeys()
    {
        EngineHarness h;
        MainWindow window(&h.store(), &h.engine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        actionTitled(menuTitled(window, u"Help"_s), u"Keyboard Shortcuts"_s)->trigger();
        auto *sheet = window.findChild<ShortcutsDialog *>();
        QVERIFY(sheet);
        QTRY_VERIFY(sheet->isVisible());
        QStringList rows;
        QTreeWidget *list = sheet->list();
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            rows.append(list->topLevelItem(i)->text(0) + u" | "_s + list->topLevelItem(i)->text(1));
        int menuKeys = 0;
        for (QAction *menu : window.menuBar()->actions()) {
            for (QAction *action : menu->menu()->actions()) {
                if (action->shortcut().isEmpty() || action->menu())
                    continue;
                ++menuKeys;
                const QString row = action->shortcut().toString(QKeySequence::NativeText) + u" | "_s + action->statusTip();
                QVERIFY2(rows.contains(row), qPrintable(row));
            }
        }
        QVERIFY(menuKeys >= 15);
        QVERIFY(rows.contains(u"Shift+Enter | New line"_s));
        QVERIFY(rows.contains(u"In the prompt box | "_s));
        QVERIFY(rows.contains(u"Ctrl+. / Ctrl+Shift+. | Next / previous agent"_s));
        QVERIFY(std::any_of(rows.cbegin(), rows.cend(),
                            [](const QString &row) { return row.startsWith(u"Tab / Shift+Tab | Leave the prompt box"_s); }));
        sheet->close();
    }

    void aboutNamesTheVersion()
    {
        EngineHarness h;
        MainWindow window(&h.store(), &h.engine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        actionTitled(menuTitled(window, u"Help"_s), u"About qcode"_s)->trigger();
        auto *box = window.findChild<QMessageBox *>(u"aboutBox"_s);
        QVERIFY(box);
        QVERIFY(box->text().contains(u"9.8.7"_s));
        box->close();
    }
};

QTEST_MAIN(HelpMenuTest)
#include "tst_help_menu.moc"
