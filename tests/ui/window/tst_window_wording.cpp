#include <QFileDialog>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QTreeView>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "engine/session/loop/TitleGenerator.h"
#include "model/Store.h"
#include "ui/settings/AppSettings.h"
#include "ui/settings/SettingsDialog.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

// The window speaks to people: no database path, no config file path, no
// ISO timestamps where a title goes.
class WindowWordingTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void theStatusBarNeverShowsTheDatabasePath();
    void aSessionStillWithoutATitleIsCalledNewSession();
    void settingsOfferToShowTheConfigFileInsteadOfPrintingItsPath();
    void exportSuggestsAFileInTheDocumentsFolderNamedAfterTheTitle();
};

void WindowWordingTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

void WindowWordingTest::theStatusBarNeverShowsTheDatabasePath()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(!window.statusBar()->currentMessage().contains(h.store().path()));
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QVERIFY(!window.statusBar()->currentMessage().contains(h.store().path()));
    for (QLabel *label : window.statusBar()->findChildren<QLabel *>())
        QVERIFY2(!label->text().contains(u".db"_s), qPrintable(label->text()));
}

void WindowWordingTest::aSessionStillWithoutATitleIsCalledNewSession()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    QVERIFY(h.store().upsertProject(makeProject(u"global"_s, u"/"_s)).ok());
    Session untitled = makeSession(u"global"_s);
    untitled.directory = h.projectDirectory();
    untitled.title = TitleGenerator::defaultTitle(untitled.time.created, false);
    QVERIFY(h.store().upsertSession(untitled).ok());

    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QCOMPARE(window.controller()->currentSession(), untitled.id);
    const QAbstractItemModel *list = window.findChild<QTreeView *>(u"sessionList"_s)->model();
    QCOMPARE(list->index(0, 0).data().toString(), u"New session"_s);
    QVERIFY(!list->index(0, 0).data(Qt::ToolTipRole).toString().contains(untitled.title));
    auto *title = window.pane()->findChild<QLabel *>(u"sessionTitle"_s);
    QCOMPARE(title->text(), u"New session"_s);
    QVERIFY(!title->toolTip().contains(untitled.id));

    // The title, once it comes, replaces it.
    window.controller()->rename(untitled.id, u"Fix the flaky build"_s);
    QTRY_COMPARE(title->text(), u"Fix the flaky build"_s);
    QCOMPARE(list->index(0, 0).data().toString(), u"Fix the flaky build"_s);
}

void WindowWordingTest::settingsOfferToShowTheConfigFileInsteadOfPrintingItsPath()
{
    AppSettings app;
    SettingsContext context;
    context.app = &app;
    context.configDirectory = u"/tmp/somewhere/qcode-config"_s;
    context.localServerProbes = {};
    context.environment = QProcessEnvironment();
    SettingsDialog dialog(std::move(context));
    auto *note = dialog.findChild<QLabel *>(u"configFileNote"_s);
    QVERIFY(note);
    QVERIFY(!note->text().contains(u"/tmp/somewhere"_s));
    QVERIFY(note->text().contains(u"Show config file"_s));
    QVERIFY(note->text().contains(u"<a "_s));
}

void WindowWordingTest::exportSuggestsAFileInTheDocumentsFolderNamedAfterTheTitle()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    QVERIFY(h.store().upsertProject(makeProject(u"global"_s, u"/"_s)).ok());
    Session session = makeSession(u"global"_s);
    session.directory = h.projectDirectory();
    session.title = u"Fix the build"_s;
    QVERIFY(h.store().upsertSession(session).ok());
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    window.exportSession({});
    auto *dialog = window.findChild<QFileDialog *>(u"exportDialog"_s);
    QVERIFY(dialog);
    const QString suggested = dialog->selectedFiles().value(0);
    QVERIFY2(suggested.endsWith(u"/Fix the build.md"_s), qPrintable(suggested));
    QVERIFY2(!suggested.startsWith(h.projectDirectory()), qPrintable(suggested));
    QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (documents.isEmpty() || !QFileInfo(documents).isDir())
        documents = QDir::homePath();
    QCOMPARE(QFileInfo(suggested).absolutePath(), QDir::cleanPath(documents));
    dialog->close();
}

QTEST_MAIN(WindowWordingTest)
#include "tst_window_wording.moc"
