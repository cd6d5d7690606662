#include "McpTool.h"

#include "McpClient.h"
#include "McpManager.h"
#include "McpNames.h"
#include "McpToolResult.h"
#include "engine/tool/ToolPermission.h"

using namespace Qt::StringLiterals;

namespace qcode {

McpTool::McpTool(QPointer<McpManager> manager, QString server, QJsonObject definition, int timeoutMs)
    : m_manager(std::move(manager))
    , m_server(std::move(server))
    , m_definition(std::move(definition))
    , m_key(McpNames::toolKey(m_server, toolName()))
    , m_schema(McpNames::inputSchema(m_definition))
    , m_timeoutMs(timeoutMs)
{
}

QString McpTool::toolName() const
{
    return m_definition.value("name"_L1).toString();
}

QString McpTool::description() const
{
    return m_definition.value("description"_L1).toString();
}

QCoro::Task<ToolResult> McpTool::execute(QJsonObject arguments, ToolContext context)
{
    PermissionRequest ask;
    ask.permission = m_key;
    ask.patterns = {u"*"_s};
    ask.always = {u"*"_s};
    // Named: GCC 12 destroys temporaries of a co_await expression twice.
    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
    const std::optional<ToolFailure> refused = co_await asking;
    if (refused)
        co_return *refused;
    McpClient *client = m_manager ? m_manager->client(m_server) : nullptr;
    if (!client)
        co_return ToolFailure{u"The MCP server \"%1\" is not connected."_s.arg(m_server)};
    McpClient::RequestOptions options;
    options.timeoutMs = m_timeoutMs;
    options.abort = context.abort;
    const auto progress = context.progress;
    options.onProgress = [progress](double done, double total, const QString &message) {
        if (!progress)
            return;
        QJsonObject metadata{{u"progress"_s, done}};
        if (total > 0)
            metadata.insert(u"total"_s, total);
        if (!message.isEmpty())
            metadata.insert(u"message"_s, message);
        progress(total > 0 ? u"%1/%2"_s.arg(done).arg(total) : QString::number(done), metadata);
    };
    QCoro::Task<Result<QJsonObject>> calling = client->callTool(toolName(), arguments, options);
    const Result<QJsonObject> result = co_await calling;
    if (!result)
        co_return ToolFailure{result.errorMessage()};
    co_return McpToolResult::convert(*result);
}

} // namespace qcode
