#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QUrl>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "ui/chat/tool/DiffView.h"
#include "ui/chat/tool/ToolCard.h"
#include "ui/prompt/PromptBox.h"
#include "ui/window/ChangesPanel.h"
#include "ui/window/ChangesTracker.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionPane.h"
#include "ui/window/ShortcutsDialog.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

EngineHarness::Setup editingInGit()
{
    EngineHarness::Setup setup;
    setup.gitRepository = true;
    setup.builtinTools = true;
    setup.ownThread = true;
    // Edits go through; a command asks, so a turn can be held mid-way.
    setup.config.insert(u"permission"_s, QJsonObject{{u"*"_s, u"allow"_s}, {u"bash"_s, u"ask"_s}});
    return setup;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

// The edit tool changes only a file the model read first.
FakeTurn readCall(const QString &path, const QString &id)
{
    return FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, path}}, id);
}

FakeTurn editCall(const QString &path, const QString &oldText, const QString &newText, const QString &id)
{
    return FakeTurn().toolCall(
        u"edit"_s, QJsonObject{{u"filePath"_s, path}, {u"oldString"_s, oldText}, {u"newString"_s, newText}}, id);
}

// The rows of the panel's list as "file +A -D".
QStringList rows(ChangesPanel *panel)
{
    auto *list = panel->findChild<QListWidget *>(u"changesList"_s);
    QStringList shown;
    for (int row = 0; row < list->count(); ++row) {
        const QListWidgetItem *item = list->item(row);
        shown.append(u"%1 +%2 -%3"_s.arg(item->data(ChangesPanel::FileRole).toString())
                         .arg(item->data(ChangesPanel::AdditionsRole).toLongLong())
                         .arg(item->data(ChangesPanel::DeletionsRole).toLongLong()));
    }
    return shown;
}

// Records the URLs the panel hands the desktop, instead of opening them.
class UrlCatcher : public QObject
{
    Q_OBJECT

public:
    QList<QUrl> urls;

public Q_SLOTS:
    void open(const QUrl &url) { urls.append(url); }
};

} // namespace

class ChangesPanelTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void theShortcutTogglesThePanelAndTheSheetListsIt();
    void listsEveryChangedFileWithItsCounts();
    void selectingAFileShowsItsDiffAgainstTheSessionsStart();
    void revertingOneFileRestoresItAndKeepsTheOther();
    void thePanelFollowsANewEditLive();
    void openHandsTheFileToTheDesktop();
    void anEditCardLinksToItsFileInThePanel();

private:
    // Opens the window on the harness's project, sends one prompt whose
    // step edits a.txt (one line) and writes new.txt (two lines), and
    // waits for the turn to end.
    bool editTwoFiles();
    bool send(const QString &text);

    std::unique_ptr<EngineHarness> m_h;
    std::unique_ptr<MainWindow> m_window;
    QString m_a;
    QString m_new;
};

void ChangesPanelTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

void ChangesPanelTest::init()
{
    m_h = std::make_unique<EngineHarness>(editingInGit());
    const QDir project(m_h->projectDirectory());
    m_a = project.filePath(u"a.txt"_s);
    m_new = project.filePath(u"new.txt"_s);
    QVERIFY(m_h->tree().write(u"project/a.txt"_s, "one\ntwo\nthree\n"));
    QVERIFY(m_h->tree().write(u"project/b.txt"_s, "alpha\nbeta\n"));
    m_window = std::make_unique<MainWindow>(&m_h->store(), &m_h->engine());
    QVERIFY(showWithProject(*m_window, m_h->projectDirectory()));
}

void ChangesPanelTest::cleanup()
{
    m_window.reset();
    m_h.reset();
}

bool ChangesPanelTest::send(const QString &text)
{
    QSignalSpy finished(&m_h->engine(), &Engine::promptFinished);
    m_window->pane()->promptBox()->setText(text);
    m_window->pane()->promptBox()->submit();
    return finished.wait(15000) && !finished.first().first().value<PromptOutcome>().error;
}

bool ChangesPanelTest::editTwoFiles()
{
    m_h->server().enqueue(readCall(m_a, u"call_read"_s));
    m_h->server().enqueue(editCall(m_a, u"two"_s, u"TWO"_s, u"call_edit"_s)
                              .toolCall(u"write"_s, QJsonObject{{u"filePath"_s, m_new}, {u"content"_s, u"hello\nworld\n"_s}},
                                        u"call_write"_s));
    m_h->server().enqueue(FakeTurn().text({u"Edited."_s}));
    return send(u"edit the files"_s);
}

void ChangesPanelTest::theShortcutTogglesThePanelAndTheSheetListsIt()
{
    auto *action = m_window->findChild<QAction *>(u"changesAction"_s);
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    QVERIFY(m_window->changesPanel()->isHidden());
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window->pane()->promptBox()->editor(), Qt::Key_G, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(m_window->changesPanel()->isVisible());
    QVERIFY(m_window->changesTracker()->isActive());
    QVERIFY(m_window->changesPanel()->width() > 100);
    action->trigger();
    QVERIFY(m_window->changesPanel()->isHidden());
    QVERIFY(!m_window->changesTracker()->isActive());

    ShortcutsDialog sheet(m_window->menuBar());
    const QList<QTreeWidgetItem *> listed =
        sheet.list()->findItems(action->shortcut().toString(QKeySequence::NativeText), Qt::MatchExactly, 0);
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed.constFirst()->text(1), action->statusTip());
}

void ChangesPanelTest::listsEveryChangedFileWithItsCounts()
{
    QVERIFY(editTwoFiles());
    m_window->showChanges();
    ChangesPanel *panel = m_window->changesPanel();
    QTRY_COMPARE_WITH_TIMEOUT(rows(panel), (QStringList{u"a.txt +1 -1"_s, u"new.txt +2 -0"_s}), 10000);
    QVERIFY2(panel->summaryText().contains(u"+3"_s) && panel->summaryText().contains(u"−1"_s),
             qPrintable(panel->summaryText()));
    // b.txt was never touched: it is not listed.
    QVERIFY(!panel->files().contains(u"b.txt"_s));
}

void ChangesPanelTest::selectingAFileShowsItsDiffAgainstTheSessionsStart()
{
    QVERIFY(editTwoFiles());
    m_window->showChanges();
    ChangesPanel *panel = m_window->changesPanel();
    QTRY_COMPARE_WITH_TIMEOUT(panel->files().size(), 2, 10000);
    panel->selectFile(u"a.txt"_s);
    QCOMPARE(panel->currentFile(), u"a.txt"_s);
    const QString diff = panel->diffView()->unifiedDiff();
    QVERIFY2(diff.contains(u"\n-two"_s) && diff.contains(u"\n+TWO"_s), qPrintable(diff));
    QVERIFY(!diff.contains(u"hello"_s));
    panel->selectFile(u"new.txt"_s);
    QVERIFY2(panel->diffView()->unifiedDiff().contains(u"+hello"_s), qPrintable(panel->diffView()->unifiedDiff()));
    QVERIFY(panel->diffView()->isVisible());
}

void ChangesPanelTest::revertingOneFileRestoresItAndKeepsTheOther()
{
    QVERIFY(editTwoFiles());
    QCOMPARE(readFile(m_a), QByteArray("one\nTWO\nthree\n"));
    m_window->showChanges(u"a.txt"_s);
    ChangesPanel *panel = m_window->changesPanel();
    QTRY_COMPARE_WITH_TIMEOUT(panel->currentFile(), u"a.txt"_s, 10000);
    panel->findChild<QPushButton *>(u"revertFileButton"_s)->click();
    QTRY_COMPARE_WITH_TIMEOUT(panel->files(), QStringList{u"new.txt"_s}, 10000);
    QCOMPARE(readFile(m_a), QByteArray("one\ntwo\nthree\n"));
    QCOMPARE(readFile(m_new), QByteArray("hello\nworld\n"));

    // A file the session created goes when it is reverted.
    panel->selectFile(u"new.txt"_s);
    panel->findChild<QPushButton *>(u"revertFileButton"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(panel->files().isEmpty(), 10000);
    QVERIFY(!QFile::exists(m_new));
    QVERIFY(panel->findChild<QWidget *>(u"changesEmpty"_s)->isVisible());
}

void ChangesPanelTest::thePanelFollowsANewEditLive()
{
    m_window->showChanges();
    ChangesPanel *panel = m_window->changesPanel();
    QVERIFY(editTwoFiles());
    QTRY_COMPARE_WITH_TIMEOUT(panel->files(), (QStringList{u"a.txt"_s, u"new.txt"_s}), 10000);
    // The next turn edits b.txt, then waits for a command's permission:
    // b.txt is listed while the turn still runs.
    const QString b = QDir(m_h->projectDirectory()).filePath(u"b.txt"_s);
    m_h->server().enqueue(readCall(b, u"call_read_b"_s));
    m_h->server().enqueue(editCall(b, u"beta"_s, u"BETA\ngamma"_s, u"call_b"_s));
    m_h->server().enqueue(FakeTurn().toolCall(
        u"bash"_s, QJsonObject{{u"command"_s, u"echo hold"_s}, {u"description"_s, u"Hold"_s}}, u"call_hold"_s));
    QSignalSpy finished(&m_h->engine(), &Engine::promptFinished);
    m_window->pane()->promptBox()->setText(u"edit b"_s);
    m_window->pane()->promptBox()->submit();
    QTRY_COMPARE_WITH_TIMEOUT(rows(panel), (QStringList{u"a.txt +1 -1"_s, u"b.txt +2 -1"_s, u"new.txt +2 -0"_s}),
                              10000);
    QVERIFY(m_window->controller()->isBusy(m_window->controller()->currentSession()));
    m_window->controller()->abort();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
}

void ChangesPanelTest::openHandsTheFileToTheDesktop()
{
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(u"file"_s, &catcher, "open");
    QVERIFY(editTwoFiles());
    m_window->showChanges(u"a.txt"_s);
    ChangesPanel *panel = m_window->changesPanel();
    QTRY_COMPARE_WITH_TIMEOUT(panel->currentFile(), u"a.txt"_s, 10000);
    panel->findChild<QPushButton *>(u"openFileButton"_s)->click();
    QDesktopServices::unsetUrlHandler(u"file"_s);
    QCOMPARE(catcher.urls, QList<QUrl>{QUrl::fromLocalFile(m_a)});
}

void ChangesPanelTest::anEditCardLinksToItsFileInThePanel()
{
    m_h->server().enqueue(readCall(m_a, u"call_read"_s));
    m_h->server().enqueue(editCall(m_a, u"two"_s, u"TWO"_s, u"call_edit"_s));
    m_h->server().enqueue(FakeTurn().text({u"Edited."_s}));
    QVERIFY(send(u"edit a"_s));
    ChatView *chat = m_window->pane()->chatView();
    QTRY_VERIFY(newestCard(chat));
    ToolCard *card = newestCard(chat);
    QTRY_COMPARE(card->statusKind(), ToolStatus::Kind::Done);
    // Small: shown expanded, with its link.
    QVERIFY(card->isExpanded());
    auto *link = card->findChild<QLabel *>(u"toolShowChanges"_s);
    QVERIFY(link);
    QVERIFY(link->isVisible());
    QVERIFY(m_window->changesPanel()->isHidden());
    Q_EMIT link->linkActivated(u"changes"_s);
    QVERIFY(m_window->changesPanel()->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->changesPanel()->currentFile(), u"a.txt"_s, 10000);
}

QTEST_MAIN(ChangesPanelTest)
#include "tst_changes_panel.moc"
