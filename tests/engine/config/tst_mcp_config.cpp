// The `mcp` map reads as OpenCode reads it: local and remote servers, the
// toggle-only entry a later layer lays over an earlier server, the timeouts;
// and every entry is strict, so a misspelt key is an error at its position.

#include <QDir>
#include <QTest>

#include "TempTree.h"

#include "engine/config/ConfigLoader.h"
#include "engine/config/McpConfig.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class TestMcpConfig : public QObject
{
    Q_OBJECT

    test::TempTree m_tree;

    QString path(const QString &relative) const { return m_tree.path(relative); }

    ConfigLocations locations() const
    {
        ConfigLocations l;
        l.homeDirectory = path(u"home"_s);
        l.globalDirectories = {path(u"home/.config/opencode"_s)};
        l.projectDirectory = path(u"project"_s);
        l.environment = QProcessEnvironment();
        return l;
    }

    LoadedConfig load(const QByteArray &project, const QByteArray &global = {})
    {
        if (!global.isEmpty() && !m_tree.write(u"home/.config/opencode/opencode.json"_s, global))
            return {};
        if (!m_tree.write(u"project/opencode.json"_s, project))
            return {};
        return ConfigLoader::load(locations());
    }

    QStringList messages(const ConfigErrors &errors)
    {
        QStringList out;
        for (const ConfigError &e : errors)
            out.append(e.message);
        return out;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(path(u"project"_s)));
    }

    void localAndRemoteServersAreRead()
    {
        const LoadedConfig loaded = load(R"({
            "mcp": {
                "everything": {"type": "local", "command": ["node", "index.js", "stdio"],
                               "environment": {"PORT": "3001"}, "timeout": 1500},
                "github": {"type": "remote", "url": "https://example.com/mcp",
                           "headers": {"X-Key": "k"}, "oauth": {"clientId": "id", "scope": "repo"},
                           "enabled": false},
                "plain": {"type": "remote", "url": "http://127.0.0.1:1/mcp", "oauth": false}
            },
            "experimental": {"mcp_timeout": 9000}
        })");
        QVERIFY2(loaded.errors.isEmpty(), qPrintable(messages(loaded.errors).join(u'\n')));
        const McpConfig mcp = McpConfig::fromJson(loaded.json);
        QCOMPARE(mcp.servers.size(), 3);
        const McpServerConfig *everything = mcp.server(u"everything"_s);
        QVERIFY(everything);
        QCOMPARE(everything->type, McpServerConfig::Type::Local);
        QCOMPARE(everything->command, (QStringList{u"node"_s, u"index.js"_s, u"stdio"_s}));
        QCOMPARE(everything->environment.value(u"PORT"_s), u"3001"_s);
        QVERIFY(everything->enabled);
        QCOMPARE(mcp.callTimeout(*everything), 1500);
        QCOMPARE(mcp.connectTimeout(*everything), 1500);

        const McpServerConfig *github = mcp.server(u"github"_s);
        QVERIFY(github);
        QCOMPARE(github->type, McpServerConfig::Type::Remote);
        QCOMPARE(github->url, u"https://example.com/mcp"_s);
        QCOMPARE(github->headers.value(u"X-Key"_s), u"k"_s);
        QVERIFY(github->oauthEnabled);
        QCOMPARE(github->oauth.value("clientId"_L1).toString(), u"id"_s);
        QVERIFY(!github->enabled);
        // No own timeout: calls use experimental.mcp_timeout, the connect OpenCode's 30 s.
        QCOMPARE(mcp.callTimeout(*github), 9000);
        QCOMPARE(mcp.connectTimeout(*github), McpConfig::ConnectTimeoutMs);

        QVERIFY(!mcp.server(u"plain"_s)->oauthEnabled);
    }

    void withoutAnyTimeoutCallsWaitSixtySeconds()
    {
        const LoadedConfig loaded = load(R"({"mcp": {"a": {"type": "local", "command": ["x"]}}})");
        QVERIFY(loaded.errors.isEmpty());
        const McpConfig mcp = McpConfig::fromJson(loaded.json);
        QCOMPARE(mcp.callTimeout(mcp.servers.constFirst()), 60000);
    }

    void aLaterLayerTogglesAServerOfAnEarlierOne()
    {
        const LoadedConfig loaded = load(R"({"mcp": {"memory": {"enabled": false}, "stray": {"enabled": true}}})",
                                         R"({"mcp": {"memory": {"type": "local", "command": ["node", "m.js"]}}})");
        QVERIFY2(loaded.errors.isEmpty(), qPrintable(messages(loaded.errors).join(u'\n')));
        const McpConfig mcp = McpConfig::fromJson(loaded.json);
        QCOMPARE(mcp.servers.size(), 1);
        QCOMPARE(mcp.servers.constFirst().name, u"memory"_s);
        QVERIFY(!mcp.servers.constFirst().enabled);
        QCOMPARE(mcp.servers.constFirst().command, (QStringList{u"node"_s, u"m.js"_s}));
        // A toggle with nothing under it is skipped, as OpenCode skips it.
        QCOMPARE(mcp.skipped, QStringList{u"stray"_s});
    }

    void wrongEntriesAreErrorsAtTheirPosition_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("line");
        QTest::newRow("misspelt key") << QByteArray("{\"mcp\": {\"a\": {\"type\": \"local\", \"command\": [\"x\"],\n \"env\": {}}}}")
                                      << u"\"mcp.a.env\" is not a key here"_s << 2;
        QTest::newRow("unknown type") << QByteArray("{\"mcp\": {\"a\": {\"type\": \"stdio\", \"command\": [\"x\"]}}}")
                                      << u"\"mcp.a.type\" must be one of \"local\", \"remote\""_s << 1;
        QTest::newRow("no command") << QByteArray("{\"mcp\": {\n\"a\": {\"type\": \"local\"}}}")
                                    << u"\"mcp.a.command\" is missing"_s << 2;
        QTest::newRow("empty command") << QByteArray("{\"mcp\": {\"a\": {\"type\": \"local\", \"command\": []}}}")
                                       << u"\"mcp.a.command\" must be a list starting with the program"_s << 1;
        QTest::newRow("command text") << QByteArray("{\"mcp\": {\"a\": {\"type\": \"local\", \"command\": \"npx x\"}}}")
                                      << u"\"mcp.a.command\" must be a list of texts"_s << 1;
        QTest::newRow("no url") << QByteArray("{\"mcp\": {\"a\": {\"type\": \"remote\"}}}")
                                << u"\"mcp.a.url\" is missing"_s << 1;
        QTest::newRow("oauth true") << QByteArray("{\"mcp\": {\"a\": {\"type\": \"remote\", \"url\": \"u\", \"oauth\": true}}}")
                                    << u"\"mcp.a.oauth\" must be an object { … } or false"_s << 1;
        QTest::newRow("oauth key") << QByteArray("{\"mcp\": {\"a\": {\"type\": \"remote\", \"url\": \"u\", \"oauth\": {\"id\": \"x\"}}}}")
                                   << u"\"mcp.a.oauth.id\" is not a key here"_s << 1;
        QTest::newRow("zero timeout") << QByteArray("{\"mcp\": {\"a\": {\"type\": \"local\", \"command\": [\"x\"], \"timeout\": 0}}}")
                                      << u"\"mcp.a.timeout\" must be a whole number of at least 1"_s << 1;
        QTest::newRow("env not text") << QByteArray("{\"mcp\": {\"a\": {\"type\": \"local\", \"command\": [\"x\"], \"environment\": {\"A\": 1}}}}")
                                      << u"\"mcp.a.environment.A\" must be text"_s << 1;
        QTest::newRow("toggle with more") << QByteArray("{\"mcp\": {\"a\": {\"enabled\": false, \"command\": [\"x\"]}}}")
                                          << u"\"mcp.a.command\" is not a key here; known keys are \"enabled\""_s << 1;
        QTest::newRow("enabled text") << QByteArray("{\"mcp\": {\"a\": {\"enabled\": \"no\"}}}")
                                      << u"\"mcp.a.enabled\" must be true or false"_s << 1;
        QTest::newRow("entry not object") << QByteArray("{\"mcp\": {\"a\": [\"node\"]}}")
                                          << u"\"mcp.a\" must be an object"_s << 1;
        QTest::newRow("mcp_timeout") << QByteArray("{\"experimental\": {\"mcp_timeout\": -5}}")
                                     << u"\"experimental.mcp_timeout\" must be a whole number of at least 1"_s << 1;
    }

    void wrongEntriesAreErrorsAtTheirPosition()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QFETCH(int, line);
        const LoadedConfig loaded = load(text);
        QCOMPARE(loaded.errors.size(), 1);
        QVERIFY2(loaded.errors.constFirst().message.startsWith(expected),
                 qPrintable(loaded.errors.constFirst().message));
        QCOMPARE(loaded.errors.constFirst().line, line);
        // The file is rejected whole, as with any other wrong key.
        QVERIFY(!loaded.json.contains("mcp"_L1));
    }
};

QTEST_GUILESS_MAIN(TestMcpConfig)
#include "tst_mcp_config.moc"
