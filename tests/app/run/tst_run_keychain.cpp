// `qcode run` reads the API keys saved in the OS keychain, as the app
// does: RunCommand in this process, with an in-memory keychain, against a
// FakeProviderServer whose provider has no key but the keychain's.

#include <QBuffer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include "FakeProviderServer.h"
#include "FakeSecretStore.h"
#include "FakeTurn.h"
#include "TempTree.h"
#include "RunCommand.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

constexpr int RunTimeoutMs = 30000;

struct Outcome {
    int exitStatus = -1;
    QString out;
    QString err;
};

} // namespace

class RunKeychainTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void keyOnlyInTheKeychainReachesTheProvider();
    void aFailingKeychainLeavesTheConfigKeyInUse();

private:
    // opencode.json with one provider, "keyed", at the fake server; its key
    // is `apiKey` when given, else none.
    void writeConfig(const std::optional<QString> &apiKey);
    Outcome run();

    std::unique_ptr<TempTree> m_tree;
    std::unique_ptr<FakeProviderServer> m_server;
    FakeSecretStore m_keychain;
};

void RunKeychainTest::init()
{
    m_tree = std::make_unique<TempTree>();
    m_server = std::make_unique<FakeProviderServer>();
    QVERIFY(m_server->isListening());
    QVERIFY(m_tree->write(u"project/README.md"_s, "# project\n"));
    m_keychain = FakeSecretStore();
}

void RunKeychainTest::writeConfig(const std::optional<QString> &apiKey)
{
    QJsonObject options{{u"baseURL"_s, QString(m_server->baseUrl().toString() + u"/v1"_s)}};
    if (apiKey)
        options.insert(u"apiKey"_s, *apiKey);
    const QJsonObject model{{u"name"_s, u"Keyed Model"_s},
                            {u"limit"_s, QJsonObject{{u"context"_s, 100000}, {u"output"_s, 4000}}}};
    const QJsonObject provider{{u"npm"_s, u"@ai-sdk/openai-compatible"_s},
                               {u"name"_s, u"Keyed"_s},
                               {u"options"_s, options},
                               {u"models"_s, QJsonObject{{u"keyed-model"_s, model}}}};
    const QJsonObject config{{u"model"_s, u"keyed/keyed-model"_s},
                             {u"provider"_s, QJsonObject{{u"keyed"_s, provider}}}};
    QVERIFY(m_tree->write(u"config/opencode.json"_s, QJsonDocument(config).toJson()));
}

Outcome RunKeychainTest::run()
{
    RunRequest request;
    request.directory = m_tree->path(u"project"_s);
    request.message = u"hello"_s;
    QBuffer out, err;
    out.open(QIODevice::WriteOnly);
    err.open(QIODevice::WriteOnly);

    EngineOptions options;
    options.databasePath = m_tree->path(u"data/qcode.db"_s);
    options.dataDirectory = m_tree->path(u"data"_s);
    options.environment = QProcessEnvironment(); // no key from the environment
    options.generateTitles = false;
    options.secrets = &m_keychain;
    const QString home = m_tree->path(u"home"_s), config = m_tree->path(u"config"_s);
    const QProcessEnvironment environment = options.environment;
    options.locations = [home, config, environment](const QString &directory, const QString &worktree) {
        return ConfigLocations{home, {config}, directory, worktree, environment};
    };

    Outcome outcome;
    {
        RunCommand command(std::move(request), &out, &err);
        QSignalSpy finished(&command, &RunCommand::finished);
        command.start(std::move(options));
        if (finished.wait(RunTimeoutMs))
            outcome.exitStatus = finished.first().first().toInt();
    }
    outcome.out = QString::fromUtf8(out.data());
    outcome.err = QString::fromUtf8(err.data());
    return outcome;
}

void RunKeychainTest::keyOnlyInTheKeychainReachesTheProvider()
{
    writeConfig(std::nullopt);
    m_keychain.keys.insert(u"keyed"_s, u"sk-from-the-keychain"_s);
    m_server->enqueue(FakeTurn().text({u"Hi."_s}).usage(3, 1));
    const Outcome outcome = run();
    QVERIFY2(outcome.exitStatus == RunExit::Finished, qPrintable(outcome.err));
    QCOMPARE(outcome.out, u"Hi.\n"_s);
    QCOMPARE(m_server->requests().size(), 1);
    QCOMPARE(m_server->requests().first().header("authorization"), QByteArray("Bearer sk-from-the-keychain"));
}

void RunKeychainTest::aFailingKeychainLeavesTheConfigKeyInUse()
{
    writeConfig(u"sk-from-the-config"_s);
    m_keychain.failure = u"No keychain service available"_s;
    m_server->enqueue(FakeTurn().text({u"Still here."_s}).usage(3, 1));
    const Outcome outcome = run();
    QVERIFY2(outcome.exitStatus == RunExit::Finished, qPrintable(outcome.err));
    QCOMPARE(outcome.out, u"Still here.\n"_s);
    QCOMPARE(m_server->requests().first().header("authorization"), QByteArray("Bearer sk-from-the-config"));
}

QTEST_GUILESS_MAIN(RunKeychainTest)
#include "tst_run_keychain.moc"
