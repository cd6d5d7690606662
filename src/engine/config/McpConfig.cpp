#include "McpConfig.h"

#include <QJsonArray>

#include "ConfigLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QMap<QString, QString> stringMap(const QJsonValue &value)
{
    QMap<QString, QString> out;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.value().isString())
            out.insert(it.key(), it.value().toString());
    }
    return out;
}

std::optional<int> timeout(const QJsonValue &value)
{
    if (!value.isDouble() || value.toDouble() < 1)
        return std::nullopt;
    return int(qMin(value.toDouble(), 1e9));
}

} // namespace

const McpServerConfig *McpConfig::server(const QString &name) const
{
    for (const McpServerConfig &s : servers) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

McpConfig McpConfig::fromJson(const QJsonObject &mergedConfig)
{
    McpConfig config;
    config.defaultTimeoutMs = timeout(mergedConfig.value("experimental"_L1).toObject().value("mcp_timeout"_L1));
    const QJsonObject map = mergedConfig.value("mcp"_L1).toObject();
    // QJsonObject sorts its keys; OpenCode connects in the file's order, but
    // the order only decides the order of tools in a request, so sorted is stable.
    for (auto it = map.begin(); it != map.end(); ++it) {
        const QJsonObject entry = it.value().toObject();
        const QString type = entry.value("type"_L1).toString();
        if (type != "local"_L1 && type != "remote"_L1) {
            qCInfo(lcConfig).noquote() << "Ignoring MCP config entry without type:" << it.key();
            config.skipped.append(it.key());
            continue;
        }
        McpServerConfig server;
        server.name = it.key();
        server.enabled = entry.value("enabled"_L1).toBool(true);
        server.timeoutMs = timeout(entry.value("timeout"_L1));
        if (type == "local"_L1) {
            server.type = McpServerConfig::Type::Local;
            for (const QJsonValue &arg : entry.value("command"_L1).toArray())
                server.command.append(arg.toString());
            server.environment = stringMap(entry.value("environment"_L1));
        } else {
            server.type = McpServerConfig::Type::Remote;
            server.url = entry.value("url"_L1).toString();
            server.headers = stringMap(entry.value("headers"_L1));
            const QJsonValue oauth = entry.value("oauth"_L1);
            server.oauthEnabled = !(oauth.isBool() && !oauth.toBool());
            server.oauth = oauth.toObject();
        }
        config.servers.append(server);
    }
    return config;
}

} // namespace qcode
