#include <QCoreApplication>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTranslator>
#include <QVBoxLayout>

#include "ClippedText.h"
#include "EngineHarness.h"
#include "TempTree.h"
#include "ui/permission/PermissionDialog.h"
#include "ui/settings/AppSettings.h"
#include "ui/settings/SettingsDialog.h"
#include "ui/prompt/PromptBox.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// Set by tests/i18n/CMakeLists.txt: where the qcode target's .qm files are built.
const QString QmDir = QStringLiteral(QCODE_QM_DIR);

// A translation installed for one test, removed after it.
class Installed
{
public:
    explicit Installed(const QString &language)
    {
        m_loaded = m_translator.load(u"qcode_"_s + language, QmDir) && QCoreApplication::installTranslator(&m_translator);
    }
    ~Installed() { QCoreApplication::removeTranslator(&m_translator); }
    bool loaded() const { return m_loaded; }

private:
    QTranslator m_translator;
    bool m_loaded = false;
};

PermissionRequest request(const QString &permission, const QStringList &patterns, const QStringList &always,
                          const QJsonObject &metadata)
{
    return PermissionRequest{u"per_"_s + permission, u"ses_1"_s, permission, patterns, metadata, always, std::nullopt};
}

void languages()
{
    QTest::addColumn<QString>("language");
    // German runs long; Chinese is set in another script, with other metrics.
    QTest::newRow("de") << u"de"_s;
    QTest::newRow("zh_CN") << u"zh_CN"_s;
}

QString listed(const QStringList &clipped)
{
    return clipped.join(u'\n');
}

} // namespace

// Layouts survive translation: with the German and then the Chinese texts,
// the main window (a project open), every settings page and the permission
// dialog, each at its own default size, show every label, button and box
// title whole.
class TranslatedLayoutsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void theCheckFindsAClippedLabelAndNotAWrappedOne();
    void theMainWindowShowsItsTextsWhole_data() { languages(); }
    void theMainWindowShowsItsTextsWhole();
    void everySettingsPageShowsItsTextsWhole_data() { languages(); }
    void everySettingsPageShowsItsTextsWhole();
    void thePermissionDialogShowsItsTextsWhole_data() { languages(); }
    void thePermissionDialogShowsItsTextsWhole();
};

void TranslatedLayoutsTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-layout-tests"_s);
    QSettings().clear();
}

void TranslatedLayoutsTest::theCheckFindsAClippedLabelAndNotAWrappedOne()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *clipped = new QLabel(u"A sentence much too long for the forty pixels it is given"_s, &window);
    clipped->setObjectName(u"clipped"_s);
    clipped->setFixedWidth(40);
    auto *wrapped = new QLabel(u"A sentence that wraps onto as many lines as it needs"_s, &window);
    wrapped->setWordWrap(true);
    wrapped->setFixedWidth(40);
    auto *button = new QPushButton(u"A button with a long text"_s, &window);
    button->setFixedWidth(30);
    layout->addWidget(clipped);
    layout->addWidget(wrapped);
    layout->addWidget(button);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    const QStringList found = clippedTexts(&window);
    QCOMPARE(found.size(), 2);
    QVERIFY2(found.at(0).startsWith(u"QLabel \"clipped\""_s) || found.at(1).startsWith(u"QLabel \"clipped\""_s),
             qPrintable(listed(found)));
    button->setFixedWidth(button->sizeHint().width());
    clipped->hide();
    QVERIFY2(clippedTexts(&window).isEmpty(), qPrintable(listed(clippedTexts(&window))));
}

void TranslatedLayoutsTest::theMainWindowShowsItsTextsWhole()
{
    QFETCH(QString, language);
    const Installed translation(language);
    QVERIFY(translation.loaded());
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    h.tools().script(u"read"_s, ToolOutput{u"1: int main()\n"_s, u"main.cpp"_s, {}, {}});
    h.server().enqueue(FakeTurn()
                           .reasoning({u"Reading the file first."_s})
                           .toolCall(u"read"_s, QJsonObject{{u"filePath"_s, u"main.cpp"_s}}, u"call_1"_s)
                           .usage(1200, 40));
    h.server().enqueue(FakeTurn().text({u"It returns zero."_s}).usage(1300, 20));

    MainWindow window(&h.store(), &h.engine());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // Before a project is open, the window invites to open one.
    QVERIFY2(clippedTexts(&window).isEmpty(), qPrintable(listed(clippedTexts(&window))));

    QSignalSpy described(window.controller(), &SessionController::projectDescribed);
    window.openProject(h.projectDirectory());
    QVERIFY(described.wait(10000));
    QTRY_VERIFY2(clippedTexts(&window).isEmpty(), qPrintable(listed(clippedTexts(&window))));

    // A finished turn: reasoning, a tool card, an answer and its footer.
    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    window.pane()->promptBox()->setText(u"What does main return?"_s);
    window.pane()->promptBox()->submit();
    QVERIFY(finished.wait(15000));
    QTRY_VERIFY2(clippedTexts(&window).isEmpty(), qPrintable(listed(clippedTexts(&window))));
}

void TranslatedLayoutsTest::everySettingsPageShowsItsTextsWhole()
{
    QFETCH(QString, language);
    const Installed translation(language);
    QVERIFY(translation.loaded());
    TempTree tree;
    AppSettings app;
    SettingsContext context;
    context.app = &app;
    context.configDirectory = tree.path(u"config/qcode"_s);
    context.dataDirectory = tree.path(u"data"_s);
    context.catalogue = ModelCatalogue::bundled();
    context.environment = QProcessEnvironment();
    context.localServerProbes = {};
    context.translationsDirectory = QmDir;

    SettingsDialog dialog(context);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    for (const QString &page : {u"providers"_s, u"general"_s, u"permissions"_s, u"data"_s}) {
        dialog.showPage(page);
        QCOMPARE(dialog.currentPage(), page);
        QTRY_VERIFY2(clippedTexts(&dialog).isEmpty(), qPrintable(page + u":\n"_s + listed(clippedTexts(&dialog))));
    }
}

void TranslatedLayoutsTest::thePermissionDialogShowsItsTextsWhole()
{
    QFETCH(QString, language);
    const Installed translation(language);
    QVERIFY(translation.loaded());
    QWidget window;
    window.resize(1000, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    const QList<PermissionRequest> requests{
        request(u"bash"_s, {u"git status --short"_s}, {u"git status *"_s},
                {{u"command"_s, u"git status --short"_s}, {u"description"_s, u"Show changes"_s}}),
        request(u"edit"_s, {u"src/main.cpp"_s}, {u"*"_s},
                {{u"filepath"_s, u"/project/src/main.cpp"_s},
                 {u"diff"_s, u"--- /project/src/main.cpp\n+++ /project/src/main.cpp\n@@ -1 +1 @@\n-a\n+b\n"_s}}),
        request(u"external_directory"_s, {u"/etc/ssh/*"_s}, {u"/etc/ssh/*"_s},
                {{u"filepath"_s, u"/etc/ssh/sshd_config"_s}, {u"parentDir"_s, u"/etc/ssh"_s}}),
        request(u"doom_loop"_s, {u"read"_s}, {u"read"_s}, {{u"tool"_s, u"read"_s}}),
    };
    for (const PermissionRequest &asked : requests) {
        PermissionDialog dialog(asked, u"Fix the failing tests in the parser"_s, &window);
        dialog.open();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTRY_VERIFY2(clippedTexts(&dialog).isEmpty(),
                     qPrintable(asked.permission + u":\n"_s + listed(clippedTexts(&dialog))));
        dialog.withdraw();
    }
}

QTEST_MAIN(TranslatedLayoutsTest)
#include "tst_translated_layouts.moc"
