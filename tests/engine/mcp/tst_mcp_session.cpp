// A session whose model calls MCP tools, end to end through the engine:
// the project's servers connect when it loads, their tools reach the
// request under OpenCode's names, permission rules apply by those names
// (wildcards too), calls run as tool parts, isError is the part's error,
// a server that crashes mid-call fails the part and the session goes on;
// a bad command and `enabled: false` cost nothing.

#include <QJsonArray>
#include <QTest>

#include "EngineHarness.h"
#include "FakeTurn.h"
#include "McpPeers.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;
namespace peers = qcode::test::McpPeers;

namespace {

QList<ToolPart> toolParts(const QList<MessageWithParts> &messages, const QString &tool)
{
    QList<ToolPart> tools;
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            if (const ToolPart *found = part.as<ToolPart>(); found && found->tool == tool)
                tools.append(*found);
        }
    }
    return tools;
}

QStringList offeredTools(const QJsonObject &body)
{
    QStringList names;
    for (const QJsonValue &tool : body.value("tools"_L1).toArray())
        names.append(tool["function"_L1]["name"_L1].toString());
    return names;
}

QJsonObject localServer(const QStringList &command, bool enabled = true)
{
    QJsonObject entry{{u"type"_s, u"local"_s}, {u"command"_s, QJsonArray::fromStringList(command)}};
    if (!enabled)
        entry.insert(u"enabled"_s, false);
    return entry;
}

} // namespace

class TestMcpSession : public QObject
{
    Q_OBJECT

    QStringList m_everything;
    QStringList m_scripted;

    EngineHarness::Setup setup(const QJsonObject &permission)
    {
        EngineHarness::Setup s;
        s.builtinTools = true;
        s.mcpFirstPromptWait = std::chrono::seconds(60);
        s.config.insert(u"mcp"_s, QJsonObject{{u"everything"_s, localServer(m_everything)},
                                              {u"scripted"_s, localServer(m_scripted)},
                                              {u"off"_s, localServer(m_everything, false)},
                                              {u"broken"_s, localServer({u"/nonexistent/mcp-server"_s})}});
        s.config.insert(u"permission"_s, permission);
        return s;
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

    void theModelCallsAnMcpToolAndRulesApplyByItsName()
    {
        // QJsonObject sorts keys: the narrower deny comes after the wildcard.
        EngineHarness::Setup s = setup(QJsonObject{{u"everything_*"_s, u"allow"_s}, {u"everything_get-sum"_s, u"deny"_s},
                                                   {u"scripted_*"_s, u"allow"_s}});
        // The legacy toggles work by the same names, wildcards too.
        s.config.insert(u"tools"_s, QJsonObject{{u"scripted_g*"_s, false}});
        EngineHarness h(s);
        h.server().enqueue(FakeTurn().toolCall(u"everything_echo"_s, QJsonObject{{u"message"_s, u"via qcode"_s}}, u"call_echo"_s));
        h.server().enqueue(FakeTurn().text({u"done"_s}));
        const auto outcome = h.prompt(u"echo something"_s, {}, 90000);
        QVERIFY(outcome);
        QVERIFY(!outcome->error);

        const QStringList offered = offeredTools(h.requestBody(0));
        QVERIFY2(offered.contains(u"everything_echo"_s), qPrintable(offered.join(u", "_s)));
        QVERIFY(offered.contains(u"scripted_env"_s));
        // A deny for every pattern takes the tool out of the request.
        QVERIFY(!offered.contains(u"everything_get-sum"_s));
        QVERIFY(!offered.contains(u"scripted_grow"_s));
        QVERIFY(!offered.contains(u"scripted_garble"_s));
        // Built-in tools first, then the servers'.
        QVERIFY(offered.indexOf(u"bash"_s) < offered.indexOf(u"everything_echo"_s));
        const QJsonArray tools = h.requestBody(0).value("tools"_L1).toArray();
        for (const QJsonValue &tool : tools) {
            if (tool["function"_L1]["name"_L1] == "everything_echo"_L1)
                QCOMPARE(tool["function"_L1]["parameters"_L1]["additionalProperties"_L1], QJsonValue(false));
        }

        const QList<ToolPart> echo = toolParts(h.messages(), u"everything_echo"_s);
        QCOMPARE(echo.size(), 1);
        const auto *completed = std::get_if<ToolCompleted>(&echo.first().state);
        QVERIFY(completed);
        QCOMPARE(completed->output, u"Echo: via qcode"_s);
        QVERIFY(h.sentText(1).contains(u"Echo: via qcode"_s));
    }

    void anAskRuleAsksUnderTheToolsName()
    {
        EngineHarness h(setup(QJsonObject{{u"everything_*"_s, u"ask"_s}}));
        QList<PermissionRequest> asked;
        h.onEvent<PermissionAsked>(this, [&asked, &h](const PermissionAsked &event) {
            asked.append(event.request);
            h.engine().replyPermission(event.request.id, PermissionReply::Once);
        });
        h.server().enqueue(FakeTurn().toolCall(u"everything_get-sum"_s, QJsonObject{{u"a"_s, 1}, {u"b"_s, 2}}, u"call_sum"_s));
        h.server().enqueue(FakeTurn().text({u"3"_s}));
        const auto outcome = h.prompt(u"add"_s, {}, 90000);
        QVERIFY(outcome && !outcome->error);
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first().permission, u"everything_get-sum"_s);
        QCOMPARE(asked.first().patterns, QStringList{u"*"_s});
        const QList<ToolPart> sum = toolParts(h.messages(), u"everything_get-sum"_s);
        QCOMPARE(sum.size(), 1);
        QVERIFY(std::get_if<ToolCompleted>(&sum.first().state));
    }

    void anIsErrorResultIsThePartsErrorAndACrashFailsTheCallOnly()
    {
        EngineHarness h(setup(QJsonObject{{u"*"_s, u"allow"_s}}));
        h.server().enqueue(FakeTurn()
                               .toolCall(u"everything_simulate-research-query"_s, QJsonObject{{u"topic"_s, u"x"_s}}, u"call_research"_s)
                               .toolCall(u"scripted_crash"_s, QJsonObject(), u"call_crash"_s));
        h.server().enqueue(FakeTurn().text({u"both failed"_s}));
        const auto outcome = h.prompt(u"try"_s, {}, 90000);
        QVERIFY(outcome);
        QVERIFY(!outcome->error);

        const QList<ToolPart> research = toolParts(h.messages(), u"everything_simulate-research-query"_s);
        QCOMPARE(research.size(), 1);
        const auto *error = std::get_if<ToolError>(&research.first().state);
        QVERIFY(error);
        QVERIFY2(error->error.contains(u"requires task augmentation"_s), qPrintable(error->error));

        const QList<ToolPart> crash = toolParts(h.messages(), u"scripted_crash"_s);
        QCOMPARE(crash.size(), 1);
        const auto *crashed = std::get_if<ToolError>(&crash.first().state);
        QVERIFY(crashed);
        QVERIFY2(crashed->error.contains(u"exited with code 3"_s), qPrintable(crashed->error));

        // The session went on: the model read both errors and answered.
        QVERIFY(h.sentText(1).contains(u"requires task augmentation"_s));
        QVERIFY(h.sentText(1).contains(u"exited with code 3"_s));

        // The dead server's tools are gone from the next step.
        h.server().enqueue(FakeTurn().text({u"ok"_s}));
        const auto again = h.prompt(u"again"_s, {}, 90000);
        QVERIFY(again && !again->error);
        const QStringList offered = offeredTools(h.requestBody(2));
        QVERIFY(!offered.contains(u"scripted_echo"_s));
        QVERIFY(offered.contains(u"everything_echo"_s));
    }
};

QTEST_GUILESS_MAIN(TestMcpSession)
#include "tst_mcp_session.moc"
