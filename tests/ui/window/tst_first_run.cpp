#include <QJsonArray>
#include <QJsonObject>
#include <QPushButton>
#include <QToolButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "EngineHarness.h"
#include "FakeSecretStore.h"
#include "WindowTestSupport.h"
#include "ui/prompt/PromptBox.h"
#include "ui/settings/SettingsDialog.h"
#include "engine/config/FallbackSecretStore.h"
#include "ui/window/KeychainNotice.h"
#include "ui/window/MainWindow.h"
#include "ui/window/NoProviderBanner.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

// What a person meets on a first start: no provider yet says so at once
// and leads to Settings; a prompt sent meanwhile is kept, not lost.
class FirstRunTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void withoutAProviderTheWindowSaysSoAndOffersToConnectOne();
    void aPromptSentWithoutAModelStaysInTheBoxAndMakesNoSession();
    void withAProviderNoBannerShowsAndPromptsAreSent();
    void withoutAKeychainOneShortNoticeIsShownOncePerStart();
};

namespace {

// The fake provider switched off: no key, no config provider, no server.
EngineHarness::Setup withoutProviders()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    setup.config.insert(u"disabled_providers"_s, QJsonArray{u"fake"_s});
    return setup;
}

// A desktop with no Secret Service: every keychain call fails.
class AbsentKeychain : public SecretStore
{
public:
    QCoro::Task<Result<std::optional<QString>>> readKey(QString) override { co_return Error{u"No keychain"_s}; }
    QCoro::Task<Result<void>> writeKey(QString, QString) override { co_return Error{u"No keychain"_s}; }
    QCoro::Task<Result<void>> deleteKey(QString) override { co_return Error{u"No keychain"_s}; }
};

} // namespace

void FirstRunTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

void FirstRunTest::withoutAProviderTheWindowSaysSoAndOffersToConnectOne()
{
    EngineHarness h(withoutProviders());
    MainWindow window(&h.store(), &h.engine());
    window.setLocalServerProbes({});
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QVERIFY(window.controller()->project().models.isEmpty());

    NoProviderBanner *banner = window.pane()->noProviderBanner();
    QVERIFY(banner->isVisible());
    QVERIFY(banner->text().contains(u"No provider"_s));
    auto *button = banner->findChild<QPushButton *>(u"connectProviderButton"_s);
    QVERIFY(button && button->isVisible());
    QVERIFY(button->text().startsWith(u"Connect a provider"_s));
    button->click();
    QVERIFY(window.settingsDialog());
    QCOMPARE(window.settingsDialog()->currentPage(), u"providers"_s);
    window.settingsDialog()->close();
}

void FirstRunTest::aPromptSentWithoutAModelStaysInTheBoxAndMakesNoSession()
{
    EngineHarness h(withoutProviders());
    MainWindow window(&h.store(), &h.engine());
    window.setLocalServerProbes({});
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QVERIFY(window.controller()->currentSession().isEmpty());

    PromptBox *box = window.pane()->promptBox();
    QSignalSpy submitted(box, &PromptBox::submitted);
    box->setText(u"Explain this project"_s);
    box->submit();
    QCOMPARE(submitted.count(), 0);
    QCOMPARE(box->text(), u"Explain this project"_s);
    QCOMPARE(box->notice(), NoProviderBanner::sendingNotice());
    QVERIFY(window.controller()->currentSession().isEmpty());
    QCOMPARE(window.controller()->sessions()->rowCount(), 0);
}

void FirstRunTest::withAProviderNoBannerShowsAndPromptsAreSent()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn().text({u"Hi"_s}).usage(3, 1));
    QTemporaryDir keys;
    FakeSecretStore keychain; // a keychain that answers
    FallbackSecretStore secrets(&keychain, FallbackSecretStore::filePathIn(keys.path()));
    MainWindow window(&h.store(), &h.engine());
    window.setSecretStore(&secrets);
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QVERIFY(!window.pane()->noProviderBanner()->isVisible());
    QVERIFY(!window.pane()->keychainNotice()->isVisible());

    PromptBox *box = window.pane()->promptBox();
    QSignalSpy submitted(box, &PromptBox::submitted);
    box->setText(u"Hello"_s);
    box->submit();
    QCOMPARE(submitted.count(), 1);
    QVERIFY(box->text().isEmpty());
    QTRY_VERIFY(!window.controller()->currentSession().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(window.controller()->chat()->rowCount(), 2, 15000);
}

void FirstRunTest::withoutAKeychainOneShortNoticeIsShownOncePerStart()
{
    QTemporaryDir keys;
    AbsentKeychain keychain;
    FallbackSecretStore secrets(&keychain, FallbackSecretStore::filePathIn(keys.path()));
    EngineHarness::Setup setup;
    setup.ownThread = true;
    setup.secrets = &secrets;
    EngineHarness h(setup);
    MainWindow window(&h.store(), &h.engine());
    window.setSecretStore(&secrets);
    QVERIFY(showWithProject(window, h.projectDirectory()));

    KeychainNotice *notice = window.pane()->keychainNotice();
    QTRY_VERIFY(notice->isVisible());
    QCOMPARE(notice->text(), u"Keys are read from environment variables and the config because no system keychain "
                             "is running."_s);
    // No sentence per provider anywhere else.
    QVERIFY(!window.controller()->project().problems.join(u' ').contains(u"keychain"_s, Qt::CaseInsensitive));
    QVERIFY(!window.pane()->promptBox()->notice().contains(u"keychain"_s, Qt::CaseInsensitive));

    notice->closeButton()->click();
    QVERIFY(!notice->isVisible());
    // Closing Settings reads the project again; the notice stays closed.
    QSignalSpy described(window.controller(), &SessionController::projectDescribed);
    window.controller()->reloadProject();
    QVERIFY(described.wait(10000));
    QVERIFY(!notice->isVisible());
}

QTEST_MAIN(FirstRunTest)
#include "tst_first_run.moc"
