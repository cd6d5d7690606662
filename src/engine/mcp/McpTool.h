#pragma once

#include <QJsonObject>
#include <QPointer>
#include <QString>

#include "engine/tool/Tool.h"

namespace qcode {

class McpManager;

// One tool of one MCP server, offered as "server_tool" (McpNames). A call
// asks the permission of that name (pattern "*"), then runs tools/call on
// the server's current connection with the call's timeout, abort and a
// progress token; progress shows on the card and restarts the timeout.
class McpTool : public Tool
{
public:
    McpTool(QPointer<McpManager> manager, QString server, QJsonObject definition, int timeoutMs);

    QString name() const override { return m_key; }
    QString description() const override;
    QJsonObject parameters() const override { return m_schema; }
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

    QString server() const { return m_server; }
    QString toolName() const;

private:
    QPointer<McpManager> m_manager;
    QString m_server;
    QJsonObject m_definition;
    QString m_key;
    QJsonObject m_schema;
    int m_timeoutMs;
};

} // namespace qcode
