#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "EngineHarness.h"
#include "model/Store.h"
#include "ui/chat/ChatView.h"
#include "ui/chat/MessageWidget.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"
#include "ui/window/SessionSidebar.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class MainWindowTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void startsWithAnHonestEmptyState();
    void openingAProjectListsItsSessionsNewestFirst();
    void openedFoldersAreRememberedAsRecent();
    void aPathThatIsNotAFolderIsRefused();
    void aPromptToTheFakeProviderAppearsStreamedInTheView();
    void renameAndDeleteSurviveARestart();
    void everyMenuActionHasAShortcutInItsTooltip();

private:
    static bool openAndWait(MainWindow &window, const QString &directory);
};

void MainWindowTest::initTestCase()
{
    // Keeps QSettings and data paths away from the person's own.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

bool MainWindowTest::openAndWait(MainWindow &window, const QString &directory)
{
    QSignalSpy opened(&window, &MainWindow::projectOpened);
    window.openProject(directory);
    return opened.wait(10000);
}

void MainWindowTest::startsWithAnHonestEmptyState()
{
    EngineHarness h;
    MainWindow window(&h.store(), &h.engine());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *pages = window.findChild<QStackedWidget *>();
    QVERIFY(pages);
    QCOMPARE(pages->currentIndex(), 0);
    bool found = false;
    for (QLabel *label : pages->currentWidget()->findChildren<QLabel *>())
        found = found || label->text() == u"Open a project folder"_s;
    QVERIFY(found);
    QVERIFY(window.findChild<QPushButton *>(u"openProjectButton"_s)->isVisible());
}

void MainWindowTest::openingAProjectListsItsSessionsNewestFirst()
{
    EngineHarness h;
    const QString worktree = h.projectDirectory();
    Session older = makeSession(u"global"_s);
    older.title = u"Older"_s;
    older.directory = worktree;
    Session newer = makeSession(u"global"_s);
    newer.title = u"Newer"_s;
    newer.directory = worktree;
    Session elsewhere = makeSession(u"global"_s);
    elsewhere.title = u"Another folder's"_s;
    elsewhere.directory = u"/somewhere/else"_s;
    QVERIFY(h.store().upsertProject(makeProject(u"global"_s, u"/"_s)).ok());
    QVERIFY(h.store().upsertSession(older).ok());
    QVERIFY(h.store().upsertSession(newer).ok());
    QVERIFY(h.store().upsertSession(elsewhere).ok());

    MainWindow window(&h.store(), &h.engine());
    QVERIFY(openAndWait(window, worktree));
    QCOMPARE(window.findChild<QStackedWidget *>()->currentIndex(), 1);
    const QAbstractItemModel *model = window.findChild<QTreeView *>(u"sessionList"_s)->model();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->index(0, 0).data().toString(), u"Newer"_s);
    QCOMPARE(model->index(1, 0).data().toString(), u"Older"_s);
    QCOMPARE(window.controller()->currentSession(), newer.id);
    QVERIFY(window.windowTitle().contains(QFileInfo(worktree).fileName()));
}

void MainWindowTest::openedFoldersAreRememberedAsRecent()
{
    EngineHarness h;
    QTemporaryDir a, b;
    MainWindow window(&h.store(), &h.engine());
    window.openProject(a.path());
    window.openProject(b.path());
    window.openProject(a.path());
    const QStringList recent = QSettings().value(u"projects/recent"_s).toStringList();
    QCOMPARE(recent.mid(0, 2), (QStringList{QDir::cleanPath(a.path()), QDir::cleanPath(b.path())}));
}

void MainWindowTest::aPathThatIsNotAFolderIsRefused()
{
    EngineHarness h;
    MainWindow window(&h.store(), &h.engine());
    QSignalSpy opened(&window, &MainWindow::projectOpened);
    window.openProject(h.projectDirectory() + u"/does-not-exist"_s);
    QCOMPARE(window.findChild<QStackedWidget *>()->currentIndex(), 0);
    QCOMPARE(opened.count(), 0);
}

void MainWindowTest::aPromptToTheFakeProviderAppearsStreamedInTheView()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn().text({u"Hel"_s, u"lo from "_s, u"the model"_s}).usage(10, 5));
    MainWindow window(&h.store(), &h.engine());
    window.resize(900, 700);
    window.show();
    QVERIFY(openAndWait(window, h.projectDirectory()));

    PromptInput input;
    input.parts = {PromptPart::text(u"Say hello"_s)};
    window.controller()->prompt(input);
    ChatView *chat = window.pane()->chatView();
    const auto shownText = [chat] {
        QStringList texts;
        for (int row = 0; row < chat->model()->rowCount(); ++row) {
            if (MessageWidget *widget = chat->widgetAt(row))
                texts.append(widget->markdown());
        }
        return texts.join(u'\n');
    };
    QTRY_VERIFY_WITH_TIMEOUT(shownText().contains(u"Hello from the model"_s), 15000);
    QVERIFY(shownText().contains(u"Say hello"_s));
    QCOMPARE(chat->model()->rowCount(), 2);
    QVERIFY(chat->isAtBottom());
    // The new session is listed and selected.
    QTRY_COMPARE(window.sidebar()->currentSession(), window.controller()->currentSession());
    QTRY_VERIFY(!window.controller()->isBusy(window.controller()->currentSession()));
}

void MainWindowTest::renameAndDeleteSurviveARestart()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    const QString worktree = h.projectDirectory();
    QVERIFY(h.store().upsertProject(makeProject(u"global"_s, u"/"_s)).ok());
    Session keep = makeSession(u"global"_s);
    keep.title = u"Keep me"_s;
    keep.directory = worktree;
    Session drop = makeSession(u"global"_s);
    drop.title = u"Drop me"_s;
    drop.directory = worktree;
    QVERIFY(h.store().upsertSession(keep).ok());
    QVERIFY(h.store().upsertSession(drop).ok());
    {
        MainWindow window(&h.store(), &h.engine());
        QVERIFY(openAndWait(window, worktree));
        SessionTreeModel *sessions = window.controller()->sessions();
        QVERIFY(sessions->setData(sessions->indexOf(keep.id), u"Renamed"_s));
        QTRY_COMPARE(sessions->session(keep.id)->title, u"Renamed"_s);
        window.controller()->remove(drop.id);
        QTRY_VERIFY(!sessions->session(drop.id));
    }
    MainWindow restarted(&h.store(), &h.engine());
    QVERIFY(openAndWait(restarted, worktree));
    const QAbstractItemModel *model = restarted.findChild<QTreeView *>(u"sessionList"_s)->model();
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(model->index(0, 0).data().toString(), u"Renamed"_s);
}

void MainWindowTest::everyMenuActionHasAShortcutInItsTooltip()
{
    EngineHarness h;
    MainWindow window(&h.store(), &h.engine());
    int checked = 0;
    for (QAction *menu : window.menuBar()->actions()) {
        for (QAction *action : menu->menu()->actions()) {
            if (action->isSeparator() || action->menu() || action->menuRole() == QAction::AboutRole)
                continue; // About has no key in any desktop's conventions
            ++checked;
            QVERIFY2(!action->shortcut().isEmpty(), qPrintable(action->text()));
            QVERIFY2(action->toolTip().contains(action->shortcut().toString(QKeySequence::NativeText)),
                     qPrintable(action->toolTip()));
        }
    }
    QVERIFY(checked >= 12);
}

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
