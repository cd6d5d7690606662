// `qcode mcp list`: every configured server with its status and tool
// count, connected as a prompt connects it; a broken config is an error.

#include <QBuffer>

#include <algorithm>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "McpCommand.h"
#include "McpPeers.h"
#include "TempTree.h"

using namespace Qt::StringLiterals;
using namespace qcode;
namespace peers = qcode::test::McpPeers;

class TestMcpCommand : public QObject
{
    Q_OBJECT

    test::TempTree m_tree;

    struct Ran {
        int status = -1;
        QString out;
        QString err;
    };

    Ran run(const QByteArray &config, const QStringList &arguments = {u"list"_s})
    {
        Ran ran;
        if (!m_tree.write(u"project/opencode.json"_s, config))
            return ran;
        ConfigLocations locations;
        locations.homeDirectory = m_tree.path(u"home"_s);
        locations.globalDirectories = {m_tree.path(u"home/.config/opencode"_s)};
        locations.projectDirectory = m_tree.path(u"project"_s);
        locations.environment = QProcessEnvironment();
        QBuffer out;
        QBuffer err;
        out.open(QIODevice::WriteOnly);
        err.open(QIODevice::WriteOnly);
        McpCommand command(locations, QProcessEnvironment::systemEnvironment(), &out, &err);
        ran.status = command.run(arguments);
        ran.out = QString::fromLocal8Bit(out.data());
        ran.err = QString::fromLocal8Bit(err.data());
        return ran;
    }

private Q_SLOTS:
    void init() { QVERIFY(m_tree.reset()); }

    void listsEachServerWithItsStatusAndTools()
    {
        const QStringList everything = peers::command(u"server-everything"_s, {u"stdio"_s});
        if (everything.isEmpty())
            QSKIP(qPrintable(peers::skipReason(u"server-everything"_s)));
        const QJsonObject mcp{
            {u"everything"_s, QJsonObject{{u"type"_s, u"local"_s}, {u"command"_s, QJsonArray::fromStringList(everything)}}},
            {u"off"_s, QJsonObject{{u"type"_s, u"local"_s}, {u"command"_s, QJsonArray{u"x"_s}}, {u"enabled"_s, false}}},
            {u"broken"_s, QJsonObject{{u"type"_s, u"local"_s}, {u"command"_s, QJsonArray{u"/nonexistent/mcp-server"_s}}}}};
        const Ran ran = run(QJsonDocument(QJsonObject{{u"mcp"_s, mcp}}).toJson());
        QCOMPARE(ran.status, 0);
        const QStringList lines = ran.out.split(u'\n');
        // Without a translator Qt leaves the plural as "tool(s)".
        QVERIFY2(lines.contains(u"everything  connected (13 tool(s))"_s), qPrintable(ran.out));
        QVERIFY2(lines.contains(u"off         disabled"_s), qPrintable(ran.out));
        QVERIFY2(std::any_of(lines.begin(), lines.end(),
                             [](const QString &l) {
                                 return l.startsWith(u"broken      failed: "_s) && l.contains(u"/nonexistent/mcp-server"_s);
                             }),
                 qPrintable(ran.out));
        QVERIFY(ran.out.contains(u"    /nonexistent/mcp-server"_s));
    }

    void noServersSaysSo()
    {
        const Ran ran = run("{}");
        QCOMPARE(ran.status, 0);
        QCOMPARE(ran.out, u"No MCP servers are configured.\n"_s);
    }

    void aBrokenConfigIsAnError()
    {
        const Ran ran = run(R"({"mcp": {"a": {"type": "local", "cmd": ["x"]}}})");
        QCOMPARE(ran.status, 1);
        QVERIFY2(ran.err.contains(u"\"mcp.a.cmd\" is not a key here"_s), qPrintable(ran.err));
        QVERIFY(ran.out.isEmpty());
    }

    void anUnknownSubcommandIsABadArgument()
    {
        const Ran ran = run("{}", {u"frobnicate"_s});
        QCOMPARE(ran.status, 2);
        QVERIFY(ran.err.contains(u"frobnicate"_s));
    }
};

QTEST_GUILESS_MAIN(TestMcpCommand)
#include "tst_mcp_command.moc"
