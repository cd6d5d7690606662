// A project's MCP servers: connected in parallel with a status each
// (connected, disabled, failed with the reason), their tools offered under
// OpenCode's names, listed once and again on list_changed (pages followed),
// a server that dies marked failed and brought back by reconnect().

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

#include "McpPeers.h"
#include "engine/mcp/McpClient.h"
#include "engine/mcp/McpManager.h"
#include "engine/mcp/McpTool.h"

using namespace Qt::StringLiterals;
using namespace qcode;
namespace peers = qcode::test::McpPeers;

namespace {

McpServerConfig local(const QString &name, const QStringList &command, bool enabled = true)
{
    McpServerConfig server;
    server.name = name;
    server.type = McpServerConfig::Type::Local;
    server.command = command;
    server.enabled = enabled;
    return server;
}

QStringList toolNames(const McpManager &manager)
{
    QStringList names;
    for (const auto &tool : manager.tools())
        names.append(tool->name());
    return names;
}

} // namespace

class TestMcpManager : public QObject
{
    Q_OBJECT

    QStringList m_everything;
    QStringList m_scripted;

    std::unique_ptr<McpManager> manager(const QList<McpServerConfig> &servers)
    {
        McpConfig config;
        config.servers = servers;
        auto made = std::make_unique<McpManager>(config, QDir::tempPath(), QProcessEnvironment::systemEnvironment());
        made->connectAll();
        return made;
    }

    static void settle(McpManager &m)
    {
        QTRY_VERIFY_WITH_TIMEOUT(!m.connecting(), 30000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_everything = peers::command(u"server-everything"_s, {u"stdio"_s});
        m_scripted = peers::scripted();
    }

    void init()
    {
        if (m_everything.isEmpty())
            QSKIP(qPrintable(peers::skipReason(u"server-everything"_s)));
        if (m_scripted.isEmpty())
            QSKIP("the scripted MCP peer is missing");
    }

    void everyServerGetsItsStatus()
    {
        auto m = manager({local(u"everything"_s, m_everything), local(u"off"_s, m_everything, false),
                          local(u"broken"_s, {u"/nonexistent/mcp-server"_s})});
        // Disabled from the start, nothing spawned; the others connect.
        QCOMPARE(m->status(u"off"_s).state, McpServerStatus::State::Disabled);
        QVERIFY(m->connecting());
        settle(*m);
        const McpServerStatus everything = m->status(u"everything"_s);
        QCOMPARE(everything.state, McpServerStatus::State::Connected);
        QCOMPARE(everything.toolCount, 13);
        QCOMPARE(everything.toJson(), (QJsonObject{{u"status"_s, u"connected"_s}}));
        const McpServerStatus broken = m->status(u"broken"_s);
        QCOMPARE(broken.state, McpServerStatus::State::Failed);
        QVERIFY2(broken.error.contains(u"/nonexistent/mcp-server"_s), qPrintable(broken.error));
        QCOMPARE(broken.toJson().value("status"_L1).toString(), u"failed"_s);
        QCOMPARE(m->status(u"off"_s).toJson(), (QJsonObject{{u"status"_s, u"disabled"_s}}));
        QVERIFY(!m->client(u"off"_s));

        const QStringList names = toolNames(*m);
        QCOMPARE(names.size(), 13);
        QVERIFY(names.contains(u"everything_echo"_s));
        QVERIFY(names.contains(u"everything_get-tiny-image"_s));
    }

    void settledWaitsForConnectingServers()
    {
        auto m = manager({local(u"everything"_s, m_everything)});
        QVERIFY(m->connecting());
        peers::await([](McpManager *m) -> QCoro::Task<bool> {
            QCoro::Task<> settling = m->settled(60000);
            co_await settling;
            co_return true;
        }(m.get()));
        QCOMPARE(m->status(u"everything"_s).state, McpServerStatus::State::Connected);
    }

    void toolsAreListedOnceAndAgainWhenTheServerSaysTheyChanged()
    {
        auto m = manager({local(u"scripted"_s, m_scripted)});
        settle(*m);
        QCOMPARE(m->status(u"scripted"_s).state, McpServerStatus::State::Connected);
        // Five tools over three pages.
        QCOMPARE(toolNames(*m), (QStringList{u"scripted_echo"_s, u"scripted_garble"_s, u"scripted_crash"_s,
                                             u"scripted_grow"_s, u"scripted_env"_s}));
        QSignalSpy changed(m.get(), &McpManager::toolsChanged);
        const Result<QJsonObject> grown = peers::await(m->client(u"scripted"_s)->callTool(u"grow"_s, {}, {}));
        QVERIFY(grown);
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 10000);
        QVERIFY(toolNames(*m).contains(u"scripted_grown"_s));
        QCOMPARE(m->status(u"scripted"_s).toolCount, 6);
    }

    void aServerThatDiesIsFailedAndCanBeReconnected()
    {
        auto m = manager({local(u"scripted"_s, m_scripted)});
        settle(*m);
        const Result<QJsonObject> crashed = peers::await(m->client(u"scripted"_s)->callTool(u"crash"_s, {}, {}));
        QVERIFY(!crashed);
        QTRY_COMPARE_WITH_TIMEOUT(m->status(u"scripted"_s).state, McpServerStatus::State::Failed, 10000);
        QVERIFY(m->status(u"scripted"_s).error.contains(u"exited with code 3"_s));
        QVERIFY(toolNames(*m).isEmpty());
        QVERIFY(!m->client(u"scripted"_s));

        m->reconnect(u"scripted"_s);
        QCOMPARE(m->status(u"scripted"_s).state, McpServerStatus::State::Connecting);
        settle(*m);
        QCOMPARE(m->status(u"scripted"_s).state, McpServerStatus::State::Connected);
        QCOMPARE(toolNames(*m).size(), 5);

        m->disconnectServer(u"scripted"_s);
        QCOMPARE(m->status(u"scripted"_s).state, McpServerStatus::State::Disabled);
        QVERIFY(toolNames(*m).isEmpty());
    }

    void theEnvironmentOfTheEntryReachesTheServer()
    {
        McpServerConfig entry = local(u"scripted"_s, m_scripted);
        entry.environment.insert(u"QCODE_MCP_TEST"_s, u"from the entry"_s);
        auto m = manager({entry});
        settle(*m);
        QCOMPARE(m->status(u"scripted"_s).state, McpServerStatus::State::Connected);
        const Result<QJsonObject> answer = peers::await(
            m->client(u"scripted"_s)->callTool(u"env"_s, QJsonObject{{u"name"_s, u"QCODE_MCP_TEST"_s}}, {}));
        QVERIFY(answer);
        QCOMPARE(answer->value("content"_L1).toArray().at(0).toObject().value("text"_L1).toString(), u"from the entry"_s);
    }
};

QTEST_GUILESS_MAIN(TestMcpManager)
#include "tst_mcp_manager.moc"
