// `qcode run` behind a proxy that asks for credentials (tinyproxy with
// BasicAuth on 127.0.0.1): nobody can be asked in a headless run, so it
// fails at once, non-zero, with a sentence naming the proxy and what to do.
// The provider's address is a name, not 127.0.0.1 — Qt never sends loopback
// addresses through a proxy — and the proxy refuses before looking it up.

#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include "ExternalServer.h"
#include "FakeProviderServer.h"
#include "RefusingProxy.h"
#include "RunSandbox.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

constexpr int RunTimeoutMs = 60000;

struct RunResult {
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
};

} // namespace

class RunProxyEndToEndTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void aProxyWantingCredentialsFailsTheRunClearly();
    void credentialsTheProxyRefusesAreNamedWithoutThePassword();

private:
    RunResult run(const QString &proxyAddress);

    ExternalServer m_proxy;
    std::unique_ptr<RunSandbox> m_sandbox;
    FakeProviderServer m_server;
};

void RunProxyEndToEndTest::initTestCase()
{
    m_proxy.startTinyproxy(u"ada"_s, u"lovelace"_s);
    if (!m_proxy.isRunning())
        QSKIP(qPrintable(m_proxy.skipReason()));
}

void RunProxyEndToEndTest::init()
{
    m_sandbox = std::make_unique<RunSandbox>();
    QVERIFY(m_sandbox->isValid());
    QUrl provider = m_server.baseUrl();
    provider.setHost(u"provider.invalid"_s);
    QVERIFY(m_sandbox->writeConfig(provider, provider));
}

RunResult RunProxyEndToEndTest::run(const QString &proxyAddress)
{
    QProcess process;
    process.setProgram(QStringLiteral(QCODE_BINARY));
    process.setArguments({u"run"_s, u"hi"_s});
    QProcessEnvironment environment = m_sandbox->environment();
    for (const char *name : {"http_proxy", "https_proxy", "all_proxy", "no_proxy"}) {
        environment.remove(QString::fromLatin1(name));
        environment.remove(QString::fromLatin1(name).toUpper());
    }
    environment.insert(u"http_proxy"_s, proxyAddress);
    environment.insert(u"https_proxy"_s, proxyAddress);
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(m_sandbox->projectDirectory());
    QSignalSpy finished(&process, &QProcess::finished);
    process.start();
    if (!process.waitForStarted(RunTimeoutMs))
        return {};
    process.closeWriteChannel();
    if (!finished.wait(RunTimeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    RunResult result;
    result.crashed = process.exitStatus() != QProcess::NormalExit;
    result.exitCode = process.exitCode();
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

void RunProxyEndToEndTest::aProxyWantingCredentialsFailsTheRunClearly()
{
    const RunResult result = run(u"http://127.0.0.1:%1"_s.arg(m_proxy.port()));
    QVERIFY(!result.crashed);
    QVERIFY2(result.exitCode != 0, qPrintable(result.err));
    QVERIFY2(result.err.contains(u"proxy 127.0.0.1:%1 asks for a user name and password"_s.arg(m_proxy.port())),
             qPrintable(result.err));
    QVERIFY2(result.err.contains(u"http://user:password@host:port"_s), qPrintable(result.err));
    QCOMPARE(result.out, QString());
    QCOMPARE(m_server.requests().size(), 0);
}

void RunProxyEndToEndTest::credentialsTheProxyRefusesAreNamedWithoutThePassword()
{
    // tinyproxy answers wrong credentials with 401; this one with 407.
    RefusingProxy refusing;
    const RunResult result = run(u"http://ada:wrongpass@127.0.0.1:%1"_s.arg(refusing.port()));
    QVERIFY(!result.crashed);
    QVERIFY2(result.exitCode != 0, qPrintable(result.err));
    QVERIFY2(result.err.contains(u"proxy 127.0.0.1:%1 refused the user name and password in its address (ada)"_s
                                     .arg(refusing.port())),
             qPrintable(result.err));
    QVERIFY2(!result.err.contains(u"wrongpass"_s), qPrintable(result.err));
}

QTEST_GUILESS_MAIN(RunProxyEndToEndTest)
#include "tst_run_proxy_end_to_end.moc"
