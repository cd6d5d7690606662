#pragma once

#include <QJsonObject>
#include <QString>

namespace qcode::McpNames {

// OpenCode's sanitize: every character outside [A-Za-z0-9_-] becomes "_".
QString sanitize(const QString &name);
// The name the model calls and permission rules match: "server_tool".
QString toolKey(const QString &server, const QString &tool);
// The tool's inputSchema as OpenCode passes it on: the server's schema
// with `type` forced to "object", `properties` defaulted to {} and
// `additionalProperties` forced to false; `$schema` is kept.
QJsonObject inputSchema(const QJsonObject &tool);

} // namespace qcode::McpNames
