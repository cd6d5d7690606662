// EnvironmentProxyFactory: which proxy a request takes (Settings, then the
// proxy variables in either case, then the system), what no_proxy exempts,
// and requests that really go through tinyproxy on 127.0.0.1: http, https
// through CONNECT, and a proxy asking for credentials. Those use the
// factory as the manager's own: Qt never sends loopback addresses through the
// application-wide factory, so the product's local servers stay direct.

#include <QtTest>

#include <QNetworkAccessManager>
#include <QNetworkProxyFactory>

#include "ExternalServer.h"
#include "FakeProviderServer.h"
#include "FakeStreamEncoder.h"
#include "engine/network/EnvironmentProxyFactory.h"
#include "engine/network/NetworkSetup.h"
#include "engine/network/ReplyStream.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QProcessEnvironment environment(const QList<std::pair<QString, QString>> &variables)
{
    QProcessEnvironment result;
    for (const auto &[name, value] : variables)
        result.insert(name, value);
    return result;
}

QNetworkProxy proxyFor(EnvironmentProxyFactory &factory, const QString &url)
{
    const QList<QNetworkProxy> proxies = factory.queryProxy(QNetworkProxyQuery(QUrl(url)));
    return proxies.isEmpty() ? QNetworkProxy(QNetworkProxy::DefaultProxy) : proxies.first();
}

QString hostAndPort(const QNetworkProxy &proxy)
{
    return proxy.type() == QNetworkProxy::NoProxy ? u"direct"_s : proxy.hostName() + u':' + QString::number(proxy.port());
}

// What one stream ended with.
struct Ending {
    bool succeeded = false;
    QString failure;
    QByteArray body;
    bool done() const { return succeeded || !failure.isEmpty(); }
};

void watch(ReplyStream *stream, Ending *ending)
{
    QObject::connect(stream, &ReplyStream::bodyReceived, stream, [ending](const QByteArray &bytes) { ending->body += bytes; });
    QObject::connect(stream, &ReplyStream::succeeded, stream, [ending] { ending->succeeded = true; });
    QObject::connect(stream, &ReplyStream::httpFailed, stream, [ending](int status, const ReplyStream::Headers &, const QByteArray &) {
        ending->failure = u"HTTP %1"_s.arg(status);
    });
    QObject::connect(stream, &ReplyStream::transportFailed, stream,
                     [ending](ReplyStream::Failure, const QString &detail) { ending->failure = detail; });
}

HttpRequestSpec requestTo(const QUrl &url)
{
    return HttpRequestSpec{url, {{"content-type", "application/json"}}, R"({"stream":true})"};
}

} // namespace

class EnvironmentProxyFactoryTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { QNetworkProxyFactory::setApplicationProxyFactory(nullptr); }

    void readsTheProxyVariablesInEitherCase()
    {
        EnvironmentProxyFactory upper(environment({{u"HTTPS_PROXY"_s, u"http://secure.example:3128"_s},
                                                   {u"HTTP_PROXY"_s, u"plain.example:8080"_s}}));
        QCOMPARE(hostAndPort(proxyFor(upper, u"https://api.example.com/v1"_s)), u"secure.example:3128"_s);
        QCOMPARE(hostAndPort(proxyFor(upper, u"http://api.example.com/v1"_s)), u"plain.example:8080"_s);

        EnvironmentProxyFactory lower(environment({{u"https_proxy"_s, u"http://low.example:1"_s},
                                                   {u"HTTPS_PROXY"_s, u"http://high.example:2"_s}}));
        // The lower-case form wins where both are set, as in curl.
        QCOMPARE(hostAndPort(proxyFor(lower, u"https://api.example.com"_s)), u"low.example:1"_s);
    }

    void allProxyServesEverySchemeWithoutItsOwn()
    {
        EnvironmentProxyFactory factory(environment({{u"ALL_PROXY"_s, u"socks5://socks.example:1080"_s},
                                                     {u"http_proxy"_s, u"http://plain.example:8080"_s}}));
        const QNetworkProxy https = proxyFor(factory, u"https://api.example.com"_s);
        QCOMPARE(https.type(), QNetworkProxy::Socks5Proxy);
        QCOMPARE(hostAndPort(https), u"socks.example:1080"_s);
        QCOMPARE(hostAndPort(proxyFor(factory, u"http://api.example.com"_s)), u"plain.example:8080"_s);
    }

    void noProxyExemptsHostsSubdomainsPortsAndRanges()
    {
        const QString list = u"localhost, .corp.example,*.internal, 10.0.0.0/8 ,exact.example:8443"_s;
        QVERIFY(EnvironmentProxyFactory::isExempt(list, u"localhost"_s, 80));
        QVERIFY(EnvironmentProxyFactory::isExempt(list, u"git.corp.example"_s, 443));
        QVERIFY(EnvironmentProxyFactory::isExempt(list, u"corp.example"_s, 443));
        QVERIFY(EnvironmentProxyFactory::isExempt(list, u"a.b.internal"_s, 443));
        QVERIFY(EnvironmentProxyFactory::isExempt(list, u"10.1.2.3"_s, 11434));
        QVERIFY(EnvironmentProxyFactory::isExempt(list, u"exact.example"_s, 8443));
        QVERIFY(!EnvironmentProxyFactory::isExempt(list, u"exact.example"_s, 443));
        QVERIFY(!EnvironmentProxyFactory::isExempt(list, u"notcorp.example"_s, 443));
        QVERIFY(!EnvironmentProxyFactory::isExempt(list, u"127.0.0.1"_s, 80));
        QVERIFY(EnvironmentProxyFactory::isExempt(u"*"_s, u"anything.example"_s, 1));

        EnvironmentProxyFactory factory(environment({{u"HTTPS_PROXY"_s, u"http://proxy.example:3128"_s},
                                                     {u"NO_PROXY"_s, u"localhost,127.0.0.1"_s}}));
        QCOMPARE(hostAndPort(proxyFor(factory, u"https://127.0.0.1:11434/v1"_s)), u"direct"_s);
        QCOMPARE(hostAndPort(proxyFor(factory, u"https://api.example.com"_s)), u"proxy.example:3128"_s);
    }

    void theProxySetInSettingsOverridesTheEnvironment()
    {
        EnvironmentProxyFactory factory(environment({{u"HTTPS_PROXY"_s, u"http://env.example:3128"_s},
                                                     {u"no_proxy"_s, u"local.example"_s}}),
                                        u"http://settings.example:8888"_s);
        QCOMPARE(hostAndPort(proxyFor(factory, u"https://api.example.com"_s)), u"settings.example:8888"_s);
        QCOMPARE(hostAndPort(proxyFor(factory, u"https://local.example"_s)), u"direct"_s);
    }

    void credentialsComeFromTheAddressOrAreAddedForThatProxy()
    {
        const QNetworkProxy fromAddress = EnvironmentProxyFactory::proxyFromText(u"http://ada:p%40ss@proxy.example:3128"_s);
        QCOMPARE(fromAddress.user(), u"ada"_s);
        QCOMPARE(fromAddress.password(), u"p@ss"_s);

        EnvironmentProxyFactory factory(environment({{u"https_proxy"_s, u"proxy.example:3128"_s}}));
        QVERIFY(proxyFor(factory, u"https://api.example.com"_s).user().isEmpty());
        factory.setCredentials(u"proxy.example:3128"_s, u"grace"_s, u"secret"_s);
        QCOMPARE(proxyFor(factory, u"https://api.example.com"_s).user(), u"grace"_s);
        QCOMPARE(proxyFor(factory, u"https://api.example.com"_s).password(), u"secret"_s);
    }

    void anUnusableProxyInSettingsIsReportedNotGuessed()
    {
        QCOMPARE(EnvironmentProxyFactory::proxyFromText(u"http://"_s).type(), QNetworkProxy::NoProxy);
        NetworkSetup::Options options;
        options.environment = QProcessEnvironment();
        options.proxy = u"http://"_s;
        const QStringList problems = NetworkSetup::apply(options);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains(u"http://"_s), qPrintable(problems.first()));
    }

    void aPlainRequestGoesThroughTinyproxy()
    {
        ExternalServer proxy;
        proxy.startTinyproxy();
        if (!proxy.isRunning())
            QSKIP(qPrintable(proxy.skipReason()));
        FakeProviderServer server;
        const FakeTurn turn = FakeTurn().text({u"through"_s, u" the proxy"_s});
        server.enqueue(turn);
        // Upper case, which Qt's own system factory would not read.
        QNetworkAccessManager manager;
        manager.setProxyFactory(new EnvironmentProxyFactory(
            environment({{u"HTTP_PROXY"_s, u"http://127.0.0.1:%1"_s.arg(proxy.port())}})));
        ReplyStream stream(&manager, requestTo(server.endpoint(WireProtocol::OpenAIChat)), {});
        Ending ending;
        watch(&stream, &ending);
        QTRY_VERIFY_WITH_TIMEOUT(ending.done(), 15000);
        QVERIFY2(ending.succeeded, qPrintable(ending.failure));
        QCOMPARE(ending.body, FakeStreamEncoder::encode(WireProtocol::OpenAIChat, turn).join());
        // tinyproxy names itself in the Via header of what it forwards.
        QVERIFY2(server.requests().at(0).header("via").contains("tinyproxy"), server.requests().at(0).header("via"));
    }

    void anHttpsRequestTunnelsThroughTinyproxyWithConnect()
    {
        ExternalServer proxy;
        proxy.startTinyproxy();
        if (!proxy.isRunning())
            QSKIP(qPrintable(proxy.skipReason()));
        FakeProviderServer server;
        ExternalServer tls;
        tls.startTlsFrontEnd(server.port());
        if (!tls.isRunning())
            QSKIP(qPrintable(tls.skipReason()));
        QString problem;
        QVERIFY2(NetworkSetup::addCertificateAuthorities(tls.certificateFile(), &problem) == 1, qPrintable(problem));
        const FakeTurn turn = FakeTurn().text({u"tunnelled"_s});
        server.enqueue(turn);
        QUrl url = server.endpoint(WireProtocol::AnthropicMessages);
        url.setScheme(u"https"_s);
        url.setPort(tls.port());
        QNetworkAccessManager manager;
        manager.setProxyFactory(new EnvironmentProxyFactory(
            environment({{u"https_proxy"_s, u"http://127.0.0.1:%1"_s.arg(proxy.port())}})));
        ReplyStream stream(&manager, requestTo(url), {});
        Ending ending;
        watch(&stream, &ending);
        QTRY_VERIFY_WITH_TIMEOUT(ending.done(), 15000);
        QVERIFY2(ending.succeeded, qPrintable(ending.failure));
        QCOMPARE(ending.body, FakeStreamEncoder::encode(WireProtocol::AnthropicMessages, turn).join());
        const QByteArray connect = "CONNECT 127.0.0.1:" + QByteArray::number(tls.port());
        QVERIFY2(proxy.log().contains(connect), proxy.log().right(2000).constData());
    }

    void aProxyWantingCredentialsItLacksIsSaidClearly()
    {
        ExternalServer proxy;
        proxy.startTinyproxy(u"ada"_s, u"lovelace"_s);
        if (!proxy.isRunning())
            QSKIP(qPrintable(proxy.skipReason()));
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"let in"_s}));
        {
            QNetworkAccessManager manager;
            manager.setProxyFactory(new EnvironmentProxyFactory(
                environment({{u"http_proxy"_s, u"http://127.0.0.1:%1"_s.arg(proxy.port())}})));
            ReplyStream stream(&manager, requestTo(server.endpoint(WireProtocol::OpenAIChat)), {});
            Ending ending;
            watch(&stream, &ending);
            QTRY_VERIFY_WITH_TIMEOUT(ending.done(), 15000);
            QVERIFY(!ending.succeeded);
            QVERIFY2(ending.failure.contains(u"the proxy 127.0.0.1:%1 asks for a user name and password"_s.arg(proxy.port())),
                     qPrintable(ending.failure));
            QCOMPARE(server.requests().size(), 0);
        }
        // With them in the address it goes through.
        QNetworkAccessManager manager;
        manager.setProxyFactory(new EnvironmentProxyFactory(
            environment({{u"http_proxy"_s, u"http://ada:lovelace@127.0.0.1:%1"_s.arg(proxy.port())}})));
        ReplyStream stream(&manager, requestTo(server.endpoint(WireProtocol::OpenAIChat)), {});
        Ending ending;
        watch(&stream, &ending);
        QTRY_VERIFY_WITH_TIMEOUT(ending.done(), 15000);
        QVERIFY2(ending.succeeded, qPrintable(ending.failure));
        QCOMPARE(server.requests().size(), 1);
    }
};

QTEST_GUILESS_MAIN(EnvironmentProxyFactoryTest)
#include "tst_environment_proxy_factory.moc"
