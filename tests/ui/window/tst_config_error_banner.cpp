#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "ui/prompt/PromptBox.h"
#include "ui/window/ConfigErrorBanner.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

// A project whose opencode.json is broken: the window says so above the
// prompt box with the file, line and column, opens the file on request,
// and keeps what was typed instead of sending it — until the fixed file is
// reloaded.
class ConfigErrorBannerTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void aBrokenConfigShowsTheErrorAndOpensTheFile();
    void sendingIsRefusedAndTheTextStaysUntilTheFixIsReloaded();
};

namespace {

const QByteArray BrokenConfig = "{\n  \"permission\": {\n    \"bash\": \"deny\"\n    \"edit\": \"ask\"\n  }\n}\n";

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

} // namespace

void ConfigErrorBannerTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

void ConfigErrorBannerTest::aBrokenConfigShowsTheErrorAndOpensTheFile()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    const QString config = QDir(h.projectDirectory()).filePath(u"opencode.json"_s);
    QVERIFY(writeFile(config, BrokenConfig));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));

    ConfigErrorBanner *banner = window.pane()->configErrorBanner();
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->text().contains(QDir::toNativeSeparators(config) + u":4:5: "_s), qPrintable(banner->text()));
    QList<QUrl> opened;
    banner->setFileOpener([&opened](const QUrl &url) { opened.append(url); });
    QVERIFY(banner->openButton()->isEnabled());
    QTest::mouseClick(banner->openButton(), Qt::LeftButton);
    QCOMPARE(opened, QList<QUrl>{QUrl::fromLocalFile(config)});
}

void ConfigErrorBannerTest::sendingIsRefusedAndTheTextStaysUntilTheFixIsReloaded()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    const QString config = QDir(h.projectDirectory()).filePath(u"opencode.json"_s);
    QFile original(config);
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QByteArray good = original.readAll();
    original.close();
    QVERIFY(writeFile(config, BrokenConfig));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));

    PromptBox *box = window.pane()->promptBox();
    box->setText(u"run the tests"_s);
    box->submit();
    QCOMPARE(box->text(), u"run the tests"_s);
    QVERIFY2(box->notice().contains(u":4:5: "_s), qPrintable(box->notice()));
    QCOMPARE(int(h.server().requests().size()), 0);

    // Fixed on disk, then "Reload" on the banner.
    QVERIFY(writeFile(config, good));
    QSignalSpy described(window.controller(), &SessionController::projectDescribed);
    QTest::mouseClick(window.pane()->configErrorBanner()->reloadButton(), Qt::LeftButton);
    QVERIFY(described.wait(10000));
    QVERIFY(!window.pane()->configErrorBanner()->isVisible());

    h.server().enqueue(FakeTurn().text({u"Done."_s}).usage(5, 1));
    box->submit();
    QCOMPARE(box->text(), QString());
    QTRY_COMPARE_WITH_TIMEOUT(int(h.server().requests().size()), 1, 10000);
}

QTEST_MAIN(ConfigErrorBannerTest)
#include "tst_config_error_banner.moc"
