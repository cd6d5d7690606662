// The window asking for a proxy's credentials (ProxyCredentialsAsker), with
// provider calls through tinyproxy asking for Basic credentials on
// 127.0.0.1: the dialog comes once, its answer carries the request and is
// kept in the (fake) keychain, a second request asks nobody, cancelling
// fails the request with a clear sentence, and kept credentials are used at
// the next start without a dialog.

#include <QtTest>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QPushButton>

#include "ExternalServer.h"
#include "FakeProviderServer.h"
#include "FakeSecretStore.h"
#include "RefusingProxy.h"
#include "engine/network/EnvironmentProxyFactory.h"
#include "engine/network/ProviderCall.h"
#include "engine/network/ProxyCredentialRequests.h"
#include "ui/settings/SecretLineEdit.h"
#include "ui/window/ProxyCredentialsAsker.h"
#include "ui/window/ProxyCredentialsDialog.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QString User = u"ada"_s;
const QString Password = u"lovelace"_s;

struct Outcome {
    QString text;
    int finishes = 0;
    QList<ProviderError> failures;
    bool done() const { return finishes + failures.size() > 0; }
    QString failure() const { return failures.isEmpty() ? QString() : failures.first().message; }
};

HttpStreamLimits quickLimits()
{
    HttpStreamLimits limits;
    limits.connectTimeout = std::chrono::seconds(10);
    limits.idleTimeout = std::chrono::seconds(10);
    return limits;
}

} // namespace

class ProxyCredentialsAskerTest : public QObject
{
    Q_OBJECT

private:
    ExternalServer m_proxy;
    FakeProviderServer m_server;

    QString proxyName() const { return u"127.0.0.1:%1"_s.arg(m_proxy.port()); }

    // A manager through the proxy with no credentials of its own, as a new
    // engine thread's would be.
    QNetworkAccessManager *freshManager(QObject *owner, const QString &proxy = {})
    {
        auto *manager = new QNetworkAccessManager(owner);
        QProcessEnvironment environment;
        environment.insert(u"http_proxy"_s, u"http://"_s + (proxy.isEmpty() ? proxyName() : proxy));
        manager->setProxyFactory(new EnvironmentProxyFactory(environment));
        return manager;
    }

    // Starts one provider call through `manager`; its outcome lands in `outcome`.
    void call(QNetworkAccessManager *manager, QObject *owner, Outcome *outcome)
    {
        auto *providerCall = new ProviderCall(
            manager, WireProtocol::OpenAIChat,
            HttpRequestSpec{m_server.endpoint(WireProtocol::OpenAIChat),
                            {{"content-type", "application/json"}},
                            R"({"model":"fake-model","stream":true,"messages":[{"role":"user","content":"hi"}]})"},
            quickLimits(), owner);
        connect(providerCall, &ProviderCall::eventReceived, providerCall, [outcome](const ProviderEvent &event) {
            if (const auto *delta = std::get_if<TextDeltaEvent>(&event))
                outcome->text += delta->text;
        });
        connect(providerCall, &ProviderCall::finished, providerCall,
                [outcome](const FinishEvent &) { ++outcome->finishes; });
        connect(providerCall, &ProviderCall::failed, providerCall,
                [outcome](const ProviderError &error) { outcome->failures.append(error); });
        providerCall->start();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_proxy.startTinyproxy(User, Password);
        if (!m_proxy.isRunning())
            QSKIP(qPrintable(m_proxy.skipReason()));
    }

    void cleanup() { QVERIFY(!ProxyCredentialRequests::instance()->isAnswering()); }

    void theDialogComesOnceAndItsAnswerCarriesTheRequest()
    {
        FakeSecretStore secrets;
        QWidget window;
        auto *asker = new ProxyCredentialsAsker(&window, &secrets);
        QList<QPointer<ProxyCredentialsDialog>> dialogs;
        connect(asker, &ProxyCredentialsAsker::dialogShown, this,
                [&dialogs](ProxyCredentialsDialog *dialog) { dialogs.append(dialog); });
        QObject owner;
        QNetworkAccessManager *manager = freshManager(&owner);
        m_server.enqueue(FakeTurn().text({u"signed"_s, u" in"_s}));
        Outcome first;
        call(manager, &owner, &first);

        QTRY_COMPARE_WITH_TIMEOUT(dialogs.size(), 1, 20000);
        ProxyCredentialsDialog *dialog = dialogs.first();
        QVERIFY(dialog->isVisible());
        QVERIFY(!first.done());
        auto *intro = dialog->findChild<QLabel *>(u"proxyCredentialsIntro"_s);
        QVERIFY2(intro->text().contains(proxyName()), qPrintable(intro->text()));
        auto *okButton = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(!okButton->isEnabled()); // no user name yet
        QTest::keyClicks(dialog->findChild<QLineEdit *>(u"proxyUser"_s), User);
        QTest::keyClicks(dialog->findChild<SecretLineEdit *>(u"proxyPassword"_s)->lineEdit(), Password);
        QVERIFY(dialog->findChild<QCheckBox *>(u"proxyRemember"_s)->isChecked());
        QVERIFY(okButton->isEnabled());
        QTest::mouseClick(okButton, Qt::LeftButton);

        QTRY_VERIFY_WITH_TIMEOUT(first.done(), 20000);
        QVERIFY2(first.failures.isEmpty(), qPrintable(first.failure()));
        QCOMPARE(first.text, u"signed in"_s);
        // Kept in the keychain, under the proxy's name.
        QTRY_VERIFY(secrets.keys.contains(ProxyCredentialsAsker::secretId(proxyName())));
        const QJsonObject kept =
            QJsonDocument::fromJson(secrets.keys.value(ProxyCredentialsAsker::secretId(proxyName())).toUtf8()).object();
        QCOMPARE(kept.value("user"_L1).toString(), User);
        QCOMPARE(kept.value("password"_L1).toString(), Password);

        // The second request asks nobody.
        m_server.enqueue(FakeTurn().text({u"again"_s}));
        Outcome second;
        call(manager, &owner, &second);
        QTRY_VERIFY_WITH_TIMEOUT(second.done(), 20000);
        QVERIFY2(second.failures.isEmpty(), qPrintable(second.failure()));
        QCOMPARE(second.text, u"again"_s);
        QCOMPARE(dialogs.size(), 1);
    }

    void cancellingFailsTheRequestWithAClearSentence()
    {
        FakeSecretStore secrets;
        QWidget window;
        auto *asker = new ProxyCredentialsAsker(&window, &secrets);
        QList<QPointer<ProxyCredentialsDialog>> dialogs;
        connect(asker, &ProxyCredentialsAsker::dialogShown, this,
                [&dialogs](ProxyCredentialsDialog *dialog) { dialogs.append(dialog); });
        QObject owner;
        Outcome outcome;
        call(freshManager(&owner), &owner, &outcome);
        QTRY_COMPARE_WITH_TIMEOUT(dialogs.size(), 1, 20000);
        QTest::mouseClick(dialogs.first()->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 20000);
        QVERIFY2(outcome.failure().contains(
                     u"the proxy %1 asks for a user name and password, and none was given"_s.arg(proxyName())),
                 qPrintable(outcome.failure()));
        QVERIFY(!outcome.failures.first().retryable);
        QCOMPARE(dialogs.size(), 1);
        QVERIFY(secrets.keys.isEmpty());
    }

    void keptCredentialsAreUsedAtTheNextStartWithoutAsking()
    {
        FakeSecretStore secrets;
        secrets.keys.insert(ProxyCredentialsAsker::secretId(proxyName()),
                            QString::fromUtf8(QJsonDocument(QJsonObject{{u"user"_s, User}, {u"password"_s, Password}})
                                                  .toJson(QJsonDocument::Compact)));
        QWidget window;
        auto *asker = new ProxyCredentialsAsker(&window, &secrets);
        int shown = 0;
        connect(asker, &ProxyCredentialsAsker::dialogShown, this, [&shown] { ++shown; });
        QObject owner;
        m_server.enqueue(FakeTurn().text({u"remembered"_s}));
        Outcome outcome;
        call(freshManager(&owner), &owner, &outcome);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 20000);
        QVERIFY2(outcome.failures.isEmpty(), qPrintable(outcome.failure()));
        QCOMPARE(outcome.text, u"remembered"_s);
        QCOMPARE(shown, 0);
        QCOMPARE(secrets.reads, 1);
    }

    void keptCredentialsTheProxyRefusesLeadToTheDialog()
    {
        // tinyproxy answers wrong credentials with 401; this one with 407.
        RefusingProxy refusing;
        const QString refusingName = u"127.0.0.1:%1"_s.arg(refusing.port());
        FakeSecretStore secrets;
        secrets.keys.insert(ProxyCredentialsAsker::secretId(refusingName),
                            QString::fromUtf8(QJsonDocument(QJsonObject{{u"user"_s, User}, {u"password"_s, u"old"_s}})
                                                  .toJson(QJsonDocument::Compact)));
        QWidget window;
        auto *asker = new ProxyCredentialsAsker(&window, &secrets);
        QList<QPointer<ProxyCredentialsDialog>> dialogs;
        connect(asker, &ProxyCredentialsAsker::dialogShown, this,
                [&dialogs](ProxyCredentialsDialog *dialog) { dialogs.append(dialog); });
        QObject owner;
        Outcome outcome;
        call(freshManager(&owner, refusingName), &owner, &outcome);
        QTRY_COMPARE_WITH_TIMEOUT(dialogs.size(), 1, 20000);
        QVERIFY(refusing.authorizations.contains("Basic " + QByteArray("ada:old").toBase64()));
        // The user name the proxy refused is filled in already.
        QCOMPARE(dialogs.first()->user(), User);
        QTest::keyClicks(dialogs.first()->findChild<SecretLineEdit *>(u"proxyPassword"_s)->lineEdit(), u"new"_s);
        QTest::mouseClick(dialogs.first()->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 20000);
        QVERIFY(refusing.authorizations.contains("Basic " + QByteArray("ada:new").toBase64()));
        // A person's answer refused too ends the request; nobody is asked twice.
        QVERIFY2(outcome.failure().contains(u"refused the user name and password given for it (ada)"_s),
                 qPrintable(outcome.failure()));
        QCOMPARE(dialogs.size(), 1);
    }

    void closingTheWindowAnswersNo()
    {
        FakeSecretStore secrets;
        auto window = std::make_unique<QWidget>();
        auto *asker = new ProxyCredentialsAsker(window.get(), &secrets);
        int shown = 0;
        connect(asker, &ProxyCredentialsAsker::dialogShown, this, [&shown] { ++shown; });
        QObject owner;
        Outcome outcome;
        call(freshManager(&owner), &owner, &outcome);
        QTRY_COMPARE_WITH_TIMEOUT(shown, 1, 20000);
        window.reset();
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 5000);
        QVERIFY2(outcome.failure().contains(u"none was given"_s), qPrintable(outcome.failure()));
    }
};

QTEST_MAIN(ProxyCredentialsAskerTest)
#include "tst_proxy_credentials_asker.moc"
