// NetworkSetup's certificate authorities and TLS through ReplyStream: an
// untrusted certificate is an error naming the host and the problem, extra
// authorities from Settings or the environment join the system's, and a
// provider stream runs over HTTP/2 through nghttpx on 127.0.0.1.

#include <QtTest>

#include <QNetworkAccessManager>
#include <QSslConfiguration>

#include "ExternalServer.h"
#include "FakeProviderServer.h"
#include "FakeStreamEncoder.h"
#include "engine/network/NetworkSetup.h"
#include "engine/network/ProviderCall.h"
#include "engine/network/ReplyStream.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

struct Ending {
    bool succeeded = false;
    QString failure;
    QByteArray body;
    int reads = 0;
    bool done() const { return succeeded || !failure.isEmpty(); }
};

void watch(ReplyStream *stream, Ending *ending)
{
    QObject::connect(stream, &ReplyStream::bodyReceived, stream, [ending](const QByteArray &bytes) {
        ending->body += bytes;
        ++ending->reads;
    });
    QObject::connect(stream, &ReplyStream::succeeded, stream, [ending] { ending->succeeded = true; });
    QObject::connect(stream, &ReplyStream::httpFailed, stream,
                     [ending](int status, const ReplyStream::Headers &, const QByteArray &) {
                         ending->failure = u"HTTP %1"_s.arg(status);
                     });
    QObject::connect(stream, &ReplyStream::transportFailed, stream,
                     [ending](ReplyStream::Failure, const QString &detail) { ending->failure = detail; });
}

HttpRequestSpec requestTo(const QUrl &url)
{
    return HttpRequestSpec{url, {{"content-type", "application/json"}, {"x-api-key", "test-key"}},
                           R"({"model":"fake-model","stream":true})"};
}

QUrl throughFrontEnd(QUrl url, const ExternalServer &tls)
{
    url.setScheme(u"https"_s);
    url.setPort(tls.port());
    return url;
}

} // namespace

class NetworkSetupTest : public QObject
{
    Q_OBJECT

private:
    FakeProviderServer m_server;
    ExternalServer m_tls;

private Q_SLOTS:
    void initTestCase() { m_tls.startTlsFrontEnd(m_server.port()); }

    // First: the test's authority is not yet added.
    void anUntrustedCertificateIsAnErrorNamingTheHostAndTheProblem()
    {
        if (!m_tls.isRunning())
            QSKIP(qPrintable(m_tls.skipReason()));
        QNetworkAccessManager manager;
        ReplyStream stream(&manager, requestTo(throughFrontEnd(m_server.endpoint(WireProtocol::OpenAIChat), m_tls)), {});
        Ending ending;
        watch(&stream, &ending);
        QTRY_VERIFY_WITH_TIMEOUT(ending.done(), 15000);
        QVERIFY(!ending.succeeded);
        QVERIFY2(ending.failure.contains(u"127.0.0.1"_s), qPrintable(ending.failure));
        QVERIFY2(ending.failure.contains(u"self signed"_s, Qt::CaseInsensitive)
                     || ending.failure.contains(u"self-signed"_s, Qt::CaseInsensitive),
                 qPrintable(ending.failure));
        QCOMPARE(m_server.requests().size(), 0);
    }

    void aCertificateFileThatIsMissingOrEmptyIsReported()
    {
        NetworkSetup::Options options;
        options.environment = QProcessEnvironment();
        options.environment.insert(u"NODE_EXTRA_CA_CERTS"_s, u"/nonexistent/company-ca.pem"_s);
        QTemporaryFile empty;
        QVERIFY(empty.open());
        options.certificateFile = empty.fileName();
        const QStringList problems = NetworkSetup::apply(options);
        QCOMPARE(problems.size(), 2);
        QVERIFY2(problems.at(0).contains(empty.fileName()) && problems.at(0).contains(u"no PEM certificate"_s),
                 qPrintable(problems.at(0)));
        QVERIFY2(problems.at(1).contains(u"NODE_EXTRA_CA_CERTS"_s) && problems.at(1).contains(u"company-ca.pem"_s),
                 qPrintable(problems.at(1)));
    }

    void theSystemBundleNamedByTheEnvironmentIsTrustedAlreadyAndNotReadAgain()
    {
        const QString bundle = u"/etc/ssl/certs/ca-certificates.crt"_s;
        if (!QFileInfo::exists(bundle))
            QSKIP("this system has no /etc/ssl/certs/ca-certificates.crt");
        const qsizetype before = QSslConfiguration::defaultConfiguration().caCertificates().size();
        NetworkSetup::Options options;
        options.environment = QProcessEnvironment();
        options.environment.insert(u"SSL_CERT_FILE"_s, bundle);
        options.environment.insert(u"NODE_EXTRA_CA_CERTS"_s, bundle);
        QCOMPARE(NetworkSetup::apply(options), QStringList());
        QCOMPARE(QSslConfiguration::defaultConfiguration().caCertificates().size(), before);
    }

    void extraAuthoritiesFromTheEnvironmentJoinTheSystemOnes()
    {
        if (!m_tls.isRunning())
            QSKIP(qPrintable(m_tls.skipReason()));
        const qsizetype before = QSslConfiguration::defaultConfiguration().caCertificates().size();
        NetworkSetup::Options options;
        options.environment = QProcessEnvironment();
        options.environment.insert(u"NODE_EXTRA_CA_CERTS"_s, m_tls.certificateFile());
        QCOMPARE(NetworkSetup::apply(options), QStringList());
        QCOMPARE(QSslConfiguration::defaultConfiguration().caCertificates().size(), before + 1);

        const FakeTurn turn = FakeTurn().text({u"trusted"_s});
        m_server.enqueue(turn);
        QNetworkAccessManager manager;
        ReplyStream stream(&manager, requestTo(throughFrontEnd(m_server.endpoint(WireProtocol::OpenAIChat), m_tls)), {});
        Ending ending;
        watch(&stream, &ending);
        QTRY_VERIFY_WITH_TIMEOUT(ending.done(), 15000);
        QVERIFY2(ending.succeeded, qPrintable(ending.failure));
        QCOMPARE(ending.body, FakeStreamEncoder::encode(WireProtocol::OpenAIChat, turn).join());
    }

    void aProviderStreamRunsOverHttp2WhereTheServerOffersIt()
    {
        if (!m_tls.isRunning())
            QSKIP(qPrintable(m_tls.skipReason()));
        QString problem;
        QVERIFY2(NetworkSetup::addCertificateAuthorities(m_tls.certificateFile(), &problem) > 0, qPrintable(problem));
        const FakeTurn turn = FakeTurn().text({u"one"_s, u" two"_s, u" three"_s})
                                  .trickle(std::chrono::milliseconds(5), 64);
        m_server.enqueue(turn);
        QNetworkAccessManager manager;
        ReplyStream stream(&manager, requestTo(throughFrontEnd(m_server.endpoint(WireProtocol::AnthropicMessages), m_tls)),
                           {});
        Ending ending;
        watch(&stream, &ending);
        QTRY_VERIFY_WITH_TIMEOUT(ending.done(), 15000);
        QVERIFY2(ending.succeeded, qPrintable(ending.failure));
        QCOMPARE(stream.protocol(), QByteArray("h2"));
        QCOMPARE(ending.body, FakeStreamEncoder::encode(WireProtocol::AnthropicMessages, turn).join());
        // Passed on as it came, not gathered.
        QVERIFY2(ending.reads > 1, qPrintable(QString::number(ending.reads)));
        QCOMPARE(m_server.requests().last().header("x-api-key"), QByteArray("test-key"));

        // And a whole provider call over it decodes the same events.
        m_server.enqueue(turn);
        ProviderCall call(&manager, WireProtocol::AnthropicMessages,
                          requestTo(throughFrontEnd(m_server.endpoint(WireProtocol::AnthropicMessages), m_tls)));
        QString text;
        connect(&call, &ProviderCall::eventReceived, this, [&text](const ProviderEvent &event) {
            if (const auto *delta = std::get_if<TextDeltaEvent>(&event))
                text += delta->text;
        });
        call.start();
        QTRY_VERIFY_WITH_TIMEOUT(call.isDone(), 15000);
        QCOMPARE(call.state(), ProviderCall::State::Finished);
        QCOMPARE(text, u"one two three"_s);
    }
};

QTEST_GUILESS_MAIN(NetworkSetupTest)
#include "tst_network_setup.moc"
