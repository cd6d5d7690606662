// A proxy that asks for credentials (tinyproxy with BasicAuth on 127.0.0.1):
// provider streams through it, for http and for https through CONNECT, with
// credentials in the proxy address (percent-decoded) and without; and the
// asking through ProxyCredentialRequests — one question for the requests
// waiting on one proxy, the request sent again with the answer, a refusal
// or a wrong answer failing with a sentence naming the proxy, an aborted
// request ignoring a late answer. Wrong credentials are shown with
// RefusingProxy: tinyproxy answers them with 401 instead of 407. The manager gets the factory as its own:
// Qt never sends loopback addresses through the application-wide one.

#include <QtTest>

#include <QNetworkAccessManager>
#include <QPointer>

#include "ExternalServer.h"
#include "FakeProviderServer.h"
#include "RefusingProxy.h"
#include "engine/network/EnvironmentProxyFactory.h"
#include "engine/network/NetworkSetup.h"
#include "engine/network/ProviderCall.h"
#include "engine/network/ProxyCredentialRequests.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QString User = u"ada"_s;
// tinyproxy takes letters, digits and ._- only; the address below spells
// the dot percent-encoded.
const QString Password = u"l0ve.lace"_s;

struct Outcome {
    QString text;
    int finishes = 0;
    QList<ProviderError> failures;
    bool done() const { return finishes + failures.size() > 0; }
    QString failure() const { return failures.isEmpty() ? QString() : failures.first().message; }
};

void record(ProviderCall *call, Outcome *outcome)
{
    QObject::connect(call, &ProviderCall::eventReceived, call, [outcome](const ProviderEvent &event) {
        if (const auto *delta = std::get_if<TextDeltaEvent>(&event))
            outcome->text += delta->text;
    });
    QObject::connect(call, &ProviderCall::finished, call, [outcome](const FinishEvent &) { ++outcome->finishes; });
    QObject::connect(call, &ProviderCall::failed, call,
                     [outcome](const ProviderError &error) { outcome->failures.append(error); });
}

HttpStreamLimits quickLimits()
{
    HttpStreamLimits limits;
    limits.connectTimeout = std::chrono::seconds(10);
    limits.idleTimeout = std::chrono::seconds(10);
    return limits;
}

HttpRequestSpec requestTo(const QUrl &url)
{
    return HttpRequestSpec{url,
                           {{"x-api-key", "test-key"}, {"content-type", "application/json"}},
                           R"({"model":"fake-model","stream":true,"messages":[{"role":"user","content":"hi"}]})"};
}

// The window's part, played by the test: counts the questions and answers
// them with what the test put in `next`.
class Answerer : public QObject
{
public:
    Answerer()
    {
        ProxyCredentialRequests::instance()->addAnswerer();
        connect(ProxyCredentialRequests::instance(), &ProxyCredentialRequests::credentialsWanted, this,
                [this](const QString &proxy, const QString &triedUser) {
                    questions.append(proxy);
                    tried.append(triedUser);
                    if (answerAtOnce)
                        ProxyCredentialRequests::instance()->answer(proxy, next);
                });
    }
    ~Answerer() override { ProxyCredentialRequests::instance()->removeAnswerer(); }

    QStringList questions;
    QStringList tried;
    bool answerAtOnce = true;
    std::optional<ProxyCredentials> next;
};

} // namespace

class ProxyAuthenticationTest : public QObject
{
    Q_OBJECT

private:
    ExternalServer m_proxy;
    FakeProviderServer m_server;
    ExternalServer m_tls;

    QString proxyName() const { return u"127.0.0.1:%1"_s.arg(m_proxy.port()); }

    QNetworkAccessManager *managerThrough(const QString &proxyAddress, QObject *owner)
    {
        auto *manager = new QNetworkAccessManager(owner);
        QProcessEnvironment environment;
        environment.insert(u"http_proxy"_s, proxyAddress);
        environment.insert(u"https_proxy"_s, proxyAddress);
        manager->setProxyFactory(new EnvironmentProxyFactory(environment));
        return manager;
    }

    QUrl providerUrl(bool https)
    {
        QUrl url = m_server.endpoint(WireProtocol::OpenAIChat);
        if (https) {
            url.setScheme(u"https"_s);
            url.setPort(m_tls.port());
        }
        return url;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_proxy.startTinyproxy(User, Password);
        if (!m_proxy.isRunning())
            QSKIP(qPrintable(m_proxy.skipReason()));
        m_tls.startTlsFrontEnd(m_server.port());
        if (m_tls.isRunning()) {
            QString problem;
            QVERIFY2(NetworkSetup::addCertificateAuthorities(m_tls.certificateFile(), &problem) == 1,
                     qPrintable(problem));
        }
    }

    void cleanup() { QVERIFY(!ProxyCredentialRequests::instance()->isAnswering()); }

    void credentialsInTheProxyAddressCarryTheStream_data()
    {
        QTest::addColumn<bool>("https");
        QTest::newRow("http") << false;
        QTest::newRow("https through CONNECT") << true;
    }

    void credentialsInTheProxyAddressCarryTheStream()
    {
        QFETCH(bool, https);
        if (https && !m_tls.isRunning())
            QSKIP(qPrintable(m_tls.skipReason()));
        m_server.enqueue(FakeTurn().text({u"past"_s, u" the proxy"_s}));
        QObject owner;
        QNetworkAccessManager *manager =
            managerThrough(u"http://ada:l0ve%2Elace@127.0.0.1:%1"_s.arg(m_proxy.port()), &owner);
        auto *call = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(https)), quickLimits(),
                                      &owner);
        Outcome outcome;
        record(call, &outcome);
        call->start();
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 20000);
        QVERIFY2(outcome.failures.isEmpty(), qPrintable(outcome.failure()));
        QCOMPARE(outcome.text, u"past the proxy"_s);
        if (https)
            QVERIFY(m_proxy.log().contains(QByteArray("CONNECT 127.0.0.1:" + QByteArray::number(m_tls.port()))));
    }

    void withoutCredentialsTheStreamFailsNamingTheProxy_data() { credentialsInTheProxyAddressCarryTheStream_data(); }

    void withoutCredentialsTheStreamFailsNamingTheProxy()
    {
        QFETCH(bool, https);
        if (https && !m_tls.isRunning())
            QSKIP(qPrintable(m_tls.skipReason()));
        const int requestsBefore = int(m_server.requests().size());
        QObject owner;
        QNetworkAccessManager *manager = managerThrough(u"http://127.0.0.1:%1"_s.arg(m_proxy.port()), &owner);
        auto *call = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(https)), quickLimits(),
                                      &owner);
        Outcome outcome;
        record(call, &outcome);
        call->start();
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 20000);
        QCOMPARE(outcome.finishes, 0);
        const QString message = outcome.failure();
        QVERIFY2(message.contains(u"the proxy %1 asks for a user name and password"_s.arg(proxyName())),
                 qPrintable(message));
        QVERIFY2(message.contains(u"http://user:password@host:port"_s), qPrintable(message));
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void wrongCredentialsInTheAddressAreSaidSo()
    {
        RefusingProxy refusing;
        QObject owner;
        QNetworkAccessManager *manager = managerThrough(u"http://ada:wrong@127.0.0.1:%1"_s.arg(refusing.port()), &owner);
        auto *call = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(false)), quickLimits(),
                                      &owner);
        Outcome outcome;
        record(call, &outcome);
        call->start();
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 20000);
        QVERIFY2(outcome.failure().contains(u"the proxy 127.0.0.1:%1 refused the user name and password in its "
                                            "address (ada)"_s.arg(refusing.port())),
                 qPrintable(outcome.failure()));
        QVERIFY2(!outcome.failure().contains(u"wrong"_s), "the password is not repeated");
        QVERIFY(!outcome.failures.first().retryable);
        QVERIFY(refusing.authorizations.contains("Basic " + QByteArray("ada:wrong").toBase64()));
    }

    void requestsWaitingOnOneProxyShareOneQuestionAndGoThroughWithTheAnswer()
    {
        Answerer answerer;
        answerer.answerAtOnce = false;
        m_server.enqueue(FakeTurn().text({u"first"_s}));
        m_server.enqueue(FakeTurn().text({u"second"_s}));
        QObject owner;
        QNetworkAccessManager *manager = managerThrough(u"http://127.0.0.1:%1"_s.arg(m_proxy.port()), &owner);
        Outcome first;
        Outcome second;
        for (Outcome *outcome : {&first, &second}) {
            auto *call = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(false)),
                                          quickLimits(), &owner);
            record(call, outcome);
            call->start();
        }
        QTRY_COMPARE_WITH_TIMEOUT(ProxyCredentialRequests::instance()->waiting(proxyName()), 2, 20000);
        QCOMPARE(answerer.questions, QStringList{proxyName()});
        QCOMPARE(answerer.tried, QStringList{QString()});
        QVERIFY(!first.done() && !second.done());
        ProxyCredentialRequests::instance()->answer(proxyName(), ProxyCredentials{User, Password, true});
        QTRY_VERIFY_WITH_TIMEOUT(first.done() && second.done(), 20000);
        QVERIFY2(first.failures.isEmpty(), qPrintable(first.failure()));
        QVERIFY2(second.failures.isEmpty(), qPrintable(second.failure()));
        QCOMPARE(QStringList({first.text, second.text}).size(), 2);

        // The manager keeps what it was given: the next request asks nobody.
        m_server.enqueue(FakeTurn().text({u"third"_s}));
        auto *call = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(false)), quickLimits(),
                                      &owner);
        Outcome third;
        record(call, &third);
        call->start();
        QTRY_VERIFY_WITH_TIMEOUT(third.done(), 20000);
        QVERIFY2(third.failures.isEmpty(), qPrintable(third.failure()));
        QCOMPARE(third.text, u"third"_s);
        QCOMPARE(answerer.questions.size(), 1);
    }

    void aRefusedQuestionFailsTheRequestClearly()
    {
        Answerer answerer;
        answerer.next = std::nullopt;
        QObject owner;
        QNetworkAccessManager *manager = managerThrough(u"http://127.0.0.1:%1"_s.arg(m_proxy.port()), &owner);
        auto *call = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(false)), quickLimits(),
                                      &owner);
        Outcome outcome;
        record(call, &outcome);
        call->start();
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 20000);
        QCOMPARE(answerer.questions.size(), 1);
        QVERIFY2(outcome.failure().contains(u"the proxy %1 asks for a user name and password, and none was given"_s
                                                .arg(proxyName())),
                 qPrintable(outcome.failure()));
    }

    void aPersonsWrongAnswerIsAskedForOnce()
    {
        RefusingProxy refusing;
        Answerer answerer;
        answerer.next = ProxyCredentials{User, u"not it"_s, true};
        QObject owner;
        QNetworkAccessManager *manager = managerThrough(u"http://127.0.0.1:%1"_s.arg(refusing.port()), &owner);
        auto *call = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(false)), quickLimits(),
                                      &owner);
        Outcome outcome;
        record(call, &outcome);
        call->start();
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 20000);
        QCOMPARE(answerer.questions.size(), 1);
        QVERIFY2(outcome.failure().contains(u"refused the user name and password given for it (ada)"_s),
                 qPrintable(outcome.failure()));
        QVERIFY(refusing.authorizations.contains("Basic " + QByteArray("ada:not it").toBase64()));
    }

    void keptCredentialsThatFailLeadToAPersonsAnswer()
    {
        // The window answers first from the keychain (not a person); when
        // those are refused it is asked again, and a person answers.
        RefusingProxy refusing;
        Answerer answerer;
        answerer.next = ProxyCredentials{User, u"stale"_s, false};
        QObject owner;
        connect(ProxyCredentialRequests::instance(), &ProxyCredentialRequests::credentialsWanted, &owner,
                [&answerer] { answerer.next = ProxyCredentials{User, u"typed"_s, true}; });
        QNetworkAccessManager *manager = managerThrough(u"http://127.0.0.1:%1"_s.arg(refusing.port()), &owner);
        auto *call = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(false)), quickLimits(),
                                      &owner);
        Outcome outcome;
        record(call, &outcome);
        call->start();
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 20000);
        QCOMPARE(answerer.tried, QStringList({QString(), User}));
        QVERIFY(refusing.authorizations.contains("Basic " + QByteArray("ada:stale").toBase64()));
        QVERIFY(refusing.authorizations.contains("Basic " + QByteArray("ada:typed").toBase64()));
        QVERIFY2(outcome.failure().contains(u"refused the user name and password given for it (ada)"_s),
                 qPrintable(outcome.failure()));
    }

    void anAbortedRequestIgnoresALateAnswer()
    {
        Answerer answerer;
        answerer.answerAtOnce = false;
        QObject owner;
        QNetworkAccessManager *manager = managerThrough(u"http://127.0.0.1:%1"_s.arg(m_proxy.port()), &owner);
        QPointer<ProviderCall> call = new ProviderCall(manager, WireProtocol::OpenAIChat,
                                                       requestTo(providerUrl(false)), quickLimits(), &owner);
        Outcome outcome;
        record(call, &outcome);
        call->start();
        QTRY_COMPARE_WITH_TIMEOUT(ProxyCredentialRequests::instance()->waiting(proxyName()), 1, 20000);
        call->abort();
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.failures.first().kind, ProviderError::Kind::Aborted);
        const int requestsBefore = int(m_server.requests().size());
        ProxyCredentialRequests::instance()->answer(proxyName(), ProxyCredentials{User, Password, true});
        // A destroyed one too.
        auto *destroyed = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(false)),
                                           quickLimits(), &owner);
        destroyed->start();
        QTRY_COMPARE_WITH_TIMEOUT(ProxyCredentialRequests::instance()->waiting(proxyName()), 1, 20000);
        delete destroyed;
        ProxyCredentialRequests::instance()->answer(proxyName(), std::nullopt);
        QTest::qWait(200);
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void aWindowThatClosesAnswersNo()
    {
        auto answerer = std::make_unique<Answerer>();
        answerer->answerAtOnce = false;
        QObject owner;
        QNetworkAccessManager *manager = managerThrough(u"http://127.0.0.1:%1"_s.arg(m_proxy.port()), &owner);
        auto *call = new ProviderCall(manager, WireProtocol::OpenAIChat, requestTo(providerUrl(false)), quickLimits(),
                                      &owner);
        Outcome outcome;
        record(call, &outcome);
        call->start();
        QTRY_COMPARE_WITH_TIMEOUT(ProxyCredentialRequests::instance()->waiting(proxyName()), 1, 20000);
        answerer.reset();
        QTRY_VERIFY_WITH_TIMEOUT(outcome.done(), 5000);
        QCOMPARE(ProxyCredentialRequests::instance()->waiting(proxyName()), 0);
        QVERIFY2(outcome.failure().contains(u"none was given"_s), qPrintable(outcome.failure()));
    }
};

QTEST_GUILESS_MAIN(ProxyAuthenticationTest)
#include "tst_proxy_authentication.moc"
