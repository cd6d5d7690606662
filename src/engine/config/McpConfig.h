#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace qcode {

// One entry of the merged `mcp` map, as OpenCode reads it. Entries are
// validated per file by ConfigSchema; this reads the merged result, where
// a later layer's `{enabled: false}` has been laid over an earlier server.
struct McpServerConfig {
    enum class Type { Local, Remote };

    QString name;
    Type type = Type::Local;
    QStringList command;                 // local: argv, the program first
    QMap<QString, QString> environment;  // local: added to qcode's own environment
    QString url;                         // remote
    QMap<QString, QString> headers;      // remote
    bool oauthEnabled = true;            // remote: `oauth: false` turns OAuth off
    QJsonObject oauth;                   // remote: clientId, clientSecret, scope
    bool enabled = true;
    std::optional<int> timeoutMs;        // per-server; connect and calls
};

struct McpConfig {
    Q_DECLARE_TR_FUNCTIONS(McpConfig)

public:
    QList<McpServerConfig> servers;      // in the config's key order
    std::optional<int> defaultTimeoutMs; // experimental.mcp_timeout
    QStringList skipped;                 // names ignored because they have no type after merging

    // OpenCode's defaults (its schema text claims 5000; the real values are these).
    static constexpr int ConnectTimeoutMs = 30000;
    static constexpr int CallTimeoutMs = 60000;

    const McpServerConfig *server(const QString &name) const;
    int connectTimeout(const McpServerConfig &server) const { return server.timeoutMs.value_or(ConnectTimeoutMs); }
    int callTimeout(const McpServerConfig &server) const
    {
        return server.timeoutMs.value_or(defaultTimeoutMs.value_or(CallTimeoutMs));
    }

    static McpConfig fromJson(const QJsonObject &mergedConfig);
};

} // namespace qcode
