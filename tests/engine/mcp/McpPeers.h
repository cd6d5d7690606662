#pragma once

#include <QCoro/QCoroTask>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <optional>

// Where the MCP test peers are: the npm packages the mcp_test_servers
// fixture installed (QCODE_MCP_SERVERS) and the scripted peer beside the
// tests (QCODE_MCP_SCRIPTED). Each answer is empty when it cannot run
// here; skipReason() says why, for QSKIP.
namespace qcode::test::McpPeers {

inline QString node()
{
    return QStandardPaths::findExecutable(QStringLiteral("node"));
}

inline QString packageEntry(const QString &package)
{
    const QString dir = qEnvironmentVariable("QCODE_MCP_SERVERS");
    const QString entry = QDir(dir).filePath(QStringLiteral("node_modules/@modelcontextprotocol/%1/dist/index.js").arg(package));
    return !dir.isEmpty() && QFile::exists(entry) ? entry : QString();
}

// The command of an npm peer: node, its entry point, `arguments`.
inline QStringList command(const QString &package, const QStringList &arguments = {})
{
    const QString entry = packageEntry(package);
    if (node().isEmpty() || entry.isEmpty())
        return {};
    return QStringList{node(), entry} + arguments;
}

inline QStringList scripted()
{
    const QString script = qEnvironmentVariable("QCODE_MCP_SCRIPTED");
    if (node().isEmpty() || !QFile::exists(script))
        return {};
    return {node(), script};
}

inline QString skipReason(const QString &package)
{
    if (node().isEmpty())
        return QStringLiteral("node is not installed: the MCP peers cannot run");
    return QStringLiteral("@modelcontextprotocol/%1 is not installed (npm missing or the install failed; see the "
                          "mcp_test_servers_install test's output)").arg(package);
}

// Runs `task` to its end on a nested event loop (QCoro::waitFor needs a
// default-constructible result; Result has none).
template <typename T>
T await(QCoro::Task<T> task)
{
    std::optional<T> out;
    QEventLoop loop;
    QCoro::connect(std::move(task), &loop, [&out, &loop](auto &&value) {
        out.emplace(std::forward<decltype(value)>(value));
        loop.quit();
    });
    if (!out)
        loop.exec();
    return std::move(*out);
}

} // namespace qcode::test::McpPeers
