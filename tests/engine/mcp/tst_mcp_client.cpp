// The JSON-RPC client and the stdio transport against the real npm MCP
// servers (reference §4, §9): the handshake and version negotiation, tool
// listing and calls, errors, progress that restarts the timeout, a timeout
// and an abort that cancel on the server; and against the scripted peer
// what no real server does on demand: a garbled line, a crash mid-call,
// tools/list in pages. A spawn failure is the connect's error.

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <QCoro/QCoroTask>

#include "McpPeers.h"
#include "engine/mcp/McpClient.h"
#include "engine/mcp/McpStdioTransport.h"
#include "engine/session/loop/AbortSignal.h"

using namespace Qt::StringLiterals;
using namespace qcode;
namespace peers = qcode::test::McpPeers;

namespace {

using peers::await;

std::unique_ptr<McpClient> clientFor(const QStringList &command)
{
    return std::make_unique<McpClient>(
        new McpStdioTransport(u"test"_s, command, QProcessEnvironment::systemEnvironment(), QDir::tempPath()));
}

QString firstText(const QJsonObject &result)
{
    return result.value("content"_L1).toArray().at(0).toObject().value("text"_L1).toString();
}

} // namespace

class TestMcpClient : public QObject
{
    Q_OBJECT

    QStringList m_everything;

    // A client connected to server-everything (stdio).
    std::unique_ptr<McpClient> everything()
    {
        auto client = clientFor(m_everything);
        const Result<void> connected = await(client->connectToServer(30000));
        if (!connected)
            qWarning() << connected.errorMessage();
        return connected ? std::move(client) : nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_everything = peers::command(u"server-everything"_s, {u"stdio"_s});
    }

    void init()
    {
        if (m_everything.isEmpty() && QString::fromLatin1(QTest::currentTestFunction()) != "aBadCommandFailsWithTheSpawnError"_L1)
            QSKIP(qPrintable(peers::skipReason(u"server-everything"_s)));
    }

    void theHandshakeNegotiatesAndListsTools()
    {
        auto client = everything();
        QVERIFY(client);
        QCOMPARE(client->protocolVersion(), u"2025-11-25"_s);
        QCOMPARE(client->serverInfo().value("name"_L1).toString(), u"mcp-servers/everything"_s);
        QVERIFY(client->hasCapability(u"tools"_s));
        QVERIFY(client->hasCapability(u"prompts"_s));
        const Result<QList<QJsonObject>> tools = await(client->listTools(30000));
        QVERIFY2(tools, qPrintable(tools.errorMessage()));
        // No client capabilities declared: the peer hides the roots, sampling and elicitation tools.
        QCOMPARE(tools->size(), 13);
        QStringList names;
        for (const QJsonObject &tool : *tools)
            names.append(tool.value("name"_L1).toString());
        QVERIFY(names.contains(u"echo"_s));
        QVERIFY(names.contains(u"get-tiny-image"_s));
    }

    void anOlderVersionIsAcceptedAndAnUnknownOneGetsTheServers()
    {
        auto older = clientFor(m_everything);
        QVERIFY(await(older->connectToServer(30000, u"2024-11-05"_s)));
        QCOMPARE(older->protocolVersion(), u"2024-11-05"_s);
        auto future = clientFor(m_everything);
        QVERIFY(await(future->connectToServer(30000, u"2099-01-01"_s)));
        QCOMPARE(future->protocolVersion(), u"2025-11-25"_s);
    }

    void aCallAnswersAndAnUnknownMethodIsAnErrorTheSessionSurvives()
    {
        auto client = everything();
        QVERIFY(client);
        const Result<QJsonObject> echo = await(client->callTool(u"echo"_s, QJsonObject{{u"message"_s, u"hello"_s}}, {}));
        QVERIFY2(echo, qPrintable(echo.errorMessage()));
        QCOMPARE(firstText(*echo), u"Echo: hello"_s);
        const Result<QJsonObject> unknown = await(client->request(u"nonexistent/method"_s, {}, {}));
        QVERIFY(!unknown);
        QCOMPARE(unknown.errorMessage(), u"MCP error -32601: Method not found"_s);
        const Result<QJsonObject> sum = await(client->callTool(u"get-sum"_s, QJsonObject{{u"a"_s, 2}, {u"b"_s, 40}}, {}));
        QVERIFY(sum);
        QCOMPARE(firstText(*sum), u"The sum of 2 and 40 is 42."_s);
    }

    void progressRestartsTheTimeout()
    {
        auto client = everything();
        QVERIFY(client);
        QList<double> progress;
        McpClient::RequestOptions options;
        // Shorter than the whole call, longer than a step: only progress keeps it alive.
        options.timeoutMs = 1500;
        options.onProgress = [&progress](double done, double, const QString &) { progress.append(done); };
        const Result<QJsonObject> result = await(client->callTool(
            u"trigger-long-running-operation"_s, QJsonObject{{u"duration"_s, 2}, {u"steps"_s, 4}}, options));
        QVERIFY2(result, qPrintable(result.errorMessage()));
        QVERIFY(firstText(*result).startsWith(u"Long running operation completed"_s));
        QCOMPARE(progress, (QList<double>{1, 2, 3, 4}));
    }

    void aTimeoutCancelsOnTheServerAndTheLateResultIsDropped()
    {
        auto client = everything();
        QVERIFY(client);
        McpClient::RequestOptions options;
        options.timeoutMs = 300;
        options.resetTimeoutOnProgress = false;
        const Result<QJsonObject> result = await(client->callTool(
            u"trigger-long-running-operation"_s, QJsonObject{{u"duration"_s, 1}, {u"steps"_s, 1}}, options));
        QVERIFY(!result);
        QCOMPARE(result.errorMessage(), u"MCP error -32001: Request timed out"_s);
        // The call's own end passes; the conversation goes on.
        QTest::qWait(1200);
        const Result<QJsonObject> echo = await(client->callTool(u"echo"_s, QJsonObject{{u"message"_s, u"after"_s}}, {}));
        QVERIFY(echo);
        QCOMPARE(firstText(*echo), u"Echo: after"_s);
    }

    void anAbortEndsTheCallAtOnce()
    {
        auto client = everything();
        QVERIFY(client);
        AbortSignal abort;
        McpClient::RequestOptions options;
        options.abort = &abort;
        options.onProgress = [&abort](double, double, const QString &) { abort.abort(); };
        const Result<QJsonObject> result = await(client->callTool(
            u"trigger-long-running-operation"_s, QJsonObject{{u"duration"_s, 30}, {u"steps"_s, 60}}, options));
        QVERIFY(!result);
        QCOMPARE(result.errorMessage(), u"The call was aborted."_s);
        const Result<QJsonObject> echo = await(client->callTool(u"echo"_s, QJsonObject{{u"message"_s, u"x"_s}}, {}));
        QVERIFY(echo);
    }

    void theMemoryServerAnswersWithStructuredContent()
    {
        const QStringList memory = peers::command(u"server-memory"_s);
        if (memory.isEmpty())
            QSKIP(qPrintable(peers::skipReason(u"server-memory"_s)));
        QTemporaryDir dir;
        auto client = std::make_unique<McpClient>(new McpStdioTransport(
            u"memory"_s, memory,
            [&dir] {
                QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
                e.insert(u"MEMORY_FILE_PATH"_s, dir.filePath(u"memory.jsonl"_s));
                return e;
            }(),
            dir.path()));
        QVERIFY(await(client->connectToServer(30000)));
        QCOMPARE(client->serverInfo().value("name"_L1).toString(), u"memory-server"_s);
        QVERIFY(!client->hasCapability(u"prompts"_s));
        const Result<QList<QJsonObject>> tools = await(client->listTools(30000));
        QVERIFY(tools);
        QCOMPARE(tools->size(), 9);
        const QJsonObject entity{{u"name"_s, u"qcode"_s}, {u"entityType"_s, u"project"_s},
                                 {u"observations"_s, QJsonArray{u"C++/Qt"_s}}};
        const Result<QJsonObject> created = await(
            client->callTool(u"create_entities"_s, QJsonObject{{u"entities"_s, QJsonArray{entity}}}, {}));
        QVERIFY2(created, qPrintable(created.errorMessage()));
        const Result<QJsonObject> graph = await(client->callTool(u"read_graph"_s, {}, {}));
        QVERIFY(graph);
        QVERIFY(graph->value("structuredContent"_L1).isObject());
        QCOMPARE(graph->value("structuredContent"_L1)["entities"_L1][0]["name"_L1].toString(), u"qcode"_s);
    }

    void aBadCommandFailsWithTheSpawnError()
    {
        auto client = clientFor({u"/nonexistent/mcp-server"_s});
        const Result<void> connected = await(client->connectToServer(30000));
        QVERIFY(!connected);
        QVERIFY2(connected.errorMessage().contains(u"/nonexistent/mcp-server"_s), qPrintable(connected.errorMessage()));
        QVERIFY(!client->isOpen());
    }

    void aGarbledLineIsAnErrorAndTheCallStillAnswers()
    {
        const QStringList scripted = peers::scripted();
        if (scripted.isEmpty())
            QSKIP("node or the scripted peer is missing");
        auto client = clientFor(scripted);
        QVERIFY(await(client->connectToServer(30000)));
        QSignalSpy errors(client.get(), &McpClient::protocolError);
        const Result<QJsonObject> result = await(client->callTool(u"garble"_s, {}, {}));
        QVERIFY2(result, qPrintable(result.errorMessage()));
        QCOMPARE(firstText(*result), u"still here"_s);
        QCOMPARE(errors.size(), 2);
        QVERIFY(errors.at(0).at(0).toString().contains(u"this is not JSON-RPC"_s));
        QVERIFY(client->isOpen());
    }

    void toolsListIsFollowedThroughItsPages()
    {
        const QStringList scripted = peers::scripted();
        if (scripted.isEmpty())
            QSKIP("node or the scripted peer is missing");
        auto client = clientFor(scripted);
        QVERIFY(await(client->connectToServer(30000)));
        const Result<QList<QJsonObject>> tools = await(client->listTools(30000));
        QVERIFY(tools);
        // Three pages of two.
        QCOMPARE(tools->size(), 5);
        QCOMPARE(tools->at(4).value("name"_L1).toString(), u"env"_s);
    }

    void aServerThatDiesMidCallFailsTheCallAndSaysSo()
    {
        const QStringList scripted = peers::scripted();
        if (scripted.isEmpty())
            QSKIP("node or the scripted peer is missing");
        auto client = clientFor(scripted);
        QVERIFY(await(client->connectToServer(30000)));
        QSignalSpy closed(client.get(), &McpClient::closed);
        const Result<QJsonObject> result = await(client->callTool(u"crash"_s, {}, {}));
        QVERIFY(!result);
        QVERIFY2(result.errorMessage().startsWith(u"MCP error -32000: "_s), qPrintable(result.errorMessage()));
        QVERIFY2(result.errorMessage().contains(u"exited with code 3"_s), qPrintable(result.errorMessage()));
        QCOMPARE(closed.size(), 1);
        QVERIFY(!client->isOpen());
        const Result<QJsonObject> after = await(client->callTool(u"echo"_s, {}, {}));
        QCOMPARE(after.errorMessage(), u"MCP error -32000: Connection closed"_s);
    }
};

QTEST_GUILESS_MAIN(TestMcpClient)
#include "tst_mcp_client.moc"
