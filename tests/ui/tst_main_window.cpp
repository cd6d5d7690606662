#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "TempDatabase.h"
#include "model/Store.h"
#include "ui/window/MainWindow.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class MainWindowTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void startsWithAnHonestEmptyState();
    void openingAFolderWithoutSessionsSaysSo();
    void openingAProjectListsItsSessionsNewestFirst();
    void openedFoldersAreRememberedAsRecent();
    void aPathThatIsNotAFolderIsRefused();
};

void MainWindowTest::initTestCase()
{
    // Keeps QSettings and data paths away from the person's own.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

void MainWindowTest::startsWithAnHonestEmptyState()
{
    TempDatabase db;
    auto store = db.open();
    MainWindow window(store.get());
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

void MainWindowTest::openingAFolderWithoutSessionsSaysSo()
{
    TempDatabase db;
    auto store = db.open();
    QTemporaryDir project;
    MainWindow window(store.get());
    window.openProject(project.path());
    QCOMPARE(window.findChild<QStackedWidget *>()->currentIndex(), 1);
    QVERIFY(window.findChild<QLabel *>(u"projectHint"_s)->text().startsWith("No sessions"_L1));
    QCOMPARE(window.findChild<QListView *>(u"sessionList"_s)->model()->rowCount(), 0);
    QVERIFY(window.windowTitle().contains(QFileInfo(project.path()).fileName()));
}

void MainWindowTest::openingAProjectListsItsSessionsNewestFirst()
{
    TempDatabase db;
    auto store = db.open();
    QTemporaryDir folder;
    const QString worktree = QDir::cleanPath(folder.path());
    QVERIFY(store->upsertProject(makeProject(u"p1"_s, worktree)).ok());
    Session older = makeSession(u"p1"_s);
    older.title = u"Older"_s;
    Session newer = makeSession(u"p1"_s);
    newer.title = u"Newer"_s;
    QVERIFY(store->upsertSession(older).ok());
    QVERIFY(store->upsertSession(newer).ok());

    MainWindow window(store.get());
    window.openProject(worktree);
    const QAbstractItemModel *model = window.findChild<QListView *>(u"sessionList"_s)->model();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->index(0, 0).data().toString(), u"Newer"_s);
    QCOMPARE(model->index(1, 0).data().toString(), u"Older"_s);
}

void MainWindowTest::openedFoldersAreRememberedAsRecent()
{
    TempDatabase db;
    auto store = db.open();
    QTemporaryDir a, b;
    MainWindow window(store.get());
    window.openProject(a.path());
    window.openProject(b.path());
    window.openProject(a.path());
    const QStringList recent = QSettings().value(u"projects/recent"_s).toStringList();
    QCOMPARE(recent.mid(0, 2), (QStringList{QDir::cleanPath(a.path()), QDir::cleanPath(b.path())}));
}

void MainWindowTest::aPathThatIsNotAFolderIsRefused()
{
    TempDatabase db;
    auto store = db.open();
    MainWindow window(store.get());
    window.openProject(db.folder() + u"/does-not-exist"_s);
    QCOMPARE(window.findChild<QStackedWidget *>()->currentIndex(), 0);
    QVERIFY(window.projectDirectory().isEmpty());
}

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
