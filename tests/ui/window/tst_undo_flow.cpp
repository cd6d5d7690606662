#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "ui/prompt/PromptBox.h"
#include "ui/window/ContextMeter.h"
#include "ui/window/MainWindow.h"
#include "ui/window/RevertBanner.h"
#include "ui/window/SessionPane.h"
#include "ui/window/TodoPanel.h"

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
    setup.config.insert(u"permission"_s, u"allow"_s);
    return setup;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

FakeTurn planCall(const QString &task, const QString &id)
{
    const QJsonArray todos{QJsonObject{{u"content"_s, task}, {u"status"_s, u"pending"_s}, {u"priority"_s, u"high"_s}}};
    return FakeTurn().toolCall(u"todowrite"_s, QJsonObject{{u"todos"_s, todos}}, id);
}

} // namespace

// Undo and Redo in the window (issue 19, point 18): the banner says what
// was undone, the plan and the context meter follow the history shown,
// and Redo takes its prompt out of the prompt box again.
class UndoFlowTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void undoNamesTheOneFileItRestored();
    void undoCountsTheTwoFilesItRestored();
    void undoPutsThePlanBackAsItWas();
    void undoMeasuresTheContextOfWhatIsLeft();
    void redoEmptiesThePromptBoxAgain();

private:
    bool send(const QString &text);
    bool undo();

    std::unique_ptr<EngineHarness> m_h;
    std::unique_ptr<MainWindow> m_window;
};

void UndoFlowTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

void UndoFlowTest::init()
{
    m_h = std::make_unique<EngineHarness>(editingInGit());
    QVERIFY(m_h->tree().write(u"project/CMakeLists.txt"_s, "project(x)\n"));
    m_window = std::make_unique<MainWindow>(&m_h->store(), &m_h->engine());
    QVERIFY(showWithProject(*m_window, m_h->projectDirectory()));
}

void UndoFlowTest::cleanup()
{
    m_window.reset();
    m_h.reset();
}

bool UndoFlowTest::send(const QString &text)
{
    QSignalSpy finished(&m_h->engine(), &Engine::promptFinished);
    m_window->pane()->promptBox()->setText(text);
    m_window->pane()->promptBox()->submit();
    return finished.wait(15000) && !finished.first().first().value<PromptOutcome>().error;
}

bool UndoFlowTest::undo()
{
    RevertBanner *banner = m_window->pane()->revertBanner();
    m_window->controller()->undo();
    return QTest::qWaitFor([banner] { return !banner->isHidden(); }, 10000);
}

void UndoFlowTest::undoNamesTheOneFileItRestored()
{
    const QString cmake = QDir(m_h->projectDirectory()).filePath(u"CMakeLists.txt"_s);
    // The edit tool changes only a file the model read first.
    m_h->server().enqueue(FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, cmake}}, u"r1"_s));
    m_h->server().enqueue(FakeTurn().toolCall(
        u"edit"_s, QJsonObject{{u"filePath"_s, cmake}, {u"oldString"_s, u"x"_s}, {u"newString"_s, u"y"_s}}, u"c1"_s));
    m_h->server().enqueue(FakeTurn().text({u"Renamed."_s}));
    QVERIFY(send(u"rename the project"_s));
    QCOMPARE(readFile(cmake), QByteArray("project(y)\n"));
    QVERIFY(undo());
    const QString said = m_window->pane()->revertBanner()->text();
    // The source text's plural; qcode_en reads it "1 file".
    QVERIFY2(said.startsWith(u"Undid your last prompt and restored 1 file(s): CMakeLists.txt."_s), qPrintable(said));
    QCOMPARE(readFile(cmake), QByteArray("project(x)\n"));
}

void UndoFlowTest::undoCountsTheTwoFilesItRestored()
{
    const QDir project(m_h->projectDirectory());
    m_h->server().enqueue(
        FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, project.filePath(u"CMakeLists.txt"_s)}}, u"r1"_s));
    m_h->server().enqueue(
        FakeTurn()
            .toolCall(u"edit"_s,
                      QJsonObject{{u"filePath"_s, project.filePath(u"CMakeLists.txt"_s)},
                                  {u"oldString"_s, u"x"_s},
                                  {u"newString"_s, u"y"_s}},
                      u"c1"_s)
            .toolCall(u"write"_s, QJsonObject{{u"filePath"_s, project.filePath(u"main.cpp"_s)}, {u"content"_s, u"int main() {}\n"_s}},
                      u"c2"_s));
    m_h->server().enqueue(FakeTurn().text({u"Done."_s}));
    QVERIFY(send(u"start a program"_s));
    QVERIFY(undo());
    const QString said = m_window->pane()->revertBanner()->text();
    QVERIFY2(said.startsWith(u"Undid your last prompt and restored 2 file(s): CMakeLists.txt, main.cpp."_s),
             qPrintable(said));
    QVERIFY(!QFile::exists(project.filePath(u"main.cpp"_s)));
}

void UndoFlowTest::undoPutsThePlanBackAsItWas()
{
    TodoPanel *plan = m_window->pane()->todoPanel();
    m_h->server().enqueue(planCall(u"first plan"_s, u"p1"_s));
    m_h->server().enqueue(FakeTurn().text({u"Planned."_s}));
    QVERIFY(send(u"plan it"_s));
    QTRY_COMPARE(plan->itemTexts().size(), 1);
    QVERIFY(plan->itemTexts().constFirst().contains(u"first plan"_s));
    m_h->server().enqueue(planCall(u"second plan"_s, u"p2"_s));
    m_h->server().enqueue(FakeTurn().text({u"Planned again."_s}));
    QVERIFY(send(u"plan again"_s));
    QTRY_VERIFY(plan->itemTexts().value(0).contains(u"second plan"_s));

    QVERIFY(undo());
    QTRY_VERIFY_WITH_TIMEOUT(plan->itemTexts().value(0).contains(u"first plan"_s), 10000);
    // The engine's copy follows too: the model's todoread sees the same.
    const Result<QList<Todo>> stored = m_h->store().todos(m_window->controller()->currentSession());
    QVERIFY(stored);
    QCOMPARE(stored->value(0).content, u"first plan"_s);

    m_window->controller()->redo();
    QTRY_VERIFY_WITH_TIMEOUT(plan->itemTexts().value(0).contains(u"second plan"_s), 10000);
}

void UndoFlowTest::undoMeasuresTheContextOfWhatIsLeft()
{
    m_h->server().enqueue(FakeTurn().text({u"Short."_s}).usage(100, 20));
    QVERIFY(send(u"first"_s));
    m_h->server().enqueue(FakeTurn().text({u"Long."_s}).usage(1000, 50));
    QVERIFY(send(u"second"_s));
    SessionController *controller = m_window->controller();
    QTRY_COMPARE(controller->contextTokens(), qint64(1050));
    const QString before = m_window->pane()->contextMeter()->text();

    QVERIFY(undo());
    QTRY_COMPARE(controller->contextTokens(), qint64(120));
    QVERIFY2(m_window->pane()->contextMeter()->text() != before, qPrintable(before));
    m_window->controller()->redo();
    QTRY_COMPARE_WITH_TIMEOUT(controller->contextTokens(), qint64(1050), 10000);
    QCOMPARE(m_window->pane()->contextMeter()->text(), before);
}

void UndoFlowTest::redoEmptiesThePromptBoxAgain()
{
    m_h->server().enqueue(FakeTurn().text({u"One."_s}));
    QVERIFY(send(u"the first prompt"_s));
    m_h->server().enqueue(FakeTurn().text({u"Two."_s}));
    QVERIFY(send(u"the second prompt"_s));
    PromptBox *box = m_window->pane()->promptBox();
    QVERIFY(box->text().isEmpty());
    QVERIFY(undo());
    QCOMPARE(box->text(), u"the second prompt"_s);
    RevertBanner *banner = m_window->pane()->revertBanner();
    m_window->controller()->redo();
    QTRY_VERIFY_WITH_TIMEOUT(banner->isHidden(), 10000);
    QCOMPARE(box->text(), QString());
}

QTEST_MAIN(UndoFlowTest)
#include "tst_undo_flow.moc"
