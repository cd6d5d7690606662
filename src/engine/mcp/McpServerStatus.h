#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

namespace qcode {

// Where one configured MCP server stands: OpenCode's MCPStatus values
// (connected, disabled, failed with its error, needs_auth), and
// "connecting" while qcode waits for it.
struct McpServerStatus {
    Q_DECLARE_TR_FUNCTIONS(McpServerStatus)

public:
    enum class State { Connecting, Connected, Disabled, Failed, NeedsAuth };

    QString name;
    State state = State::Connecting;
    QString error;     // Failed: why
    int toolCount = 0; // Connected: tools listed

    // OpenCode's wire form: {"status": "failed", "error": "…"}.
    QJsonObject toJson() const;
    // "connected", "failed" …: the wire value.
    QString stateName() const;
    // For the person: "connected (13 tools)", "failed: …".
    QString describe() const;
};

} // namespace qcode
