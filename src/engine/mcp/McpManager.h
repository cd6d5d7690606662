#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QProcessEnvironment>
#include <QString>

#include <QCoro/QCoroTask>

#include <memory>
#include <vector>

#include "McpServerStatus.h"
#include "engine/config/McpConfig.h"
#include "engine/tool/ToolSource.h"

class QNetworkAccessManager;

namespace qcode {

class McpClient;
class McpTool;

// A project's MCP servers (OpenCode's MCP state of an instance): every
// enabled server is connected in parallel when the project opens, without
// holding anything up; a prompt waits for them a few seconds at most
// (settled()). Each has a status; one that dies is marked failed and
// can be reconnected. tools/list is asked once per connection, and again
// when the server says notifications/tools/list_changed (OpenCode lists
// every step); the tools are offered to the registry as a ToolSource.
class McpManager : public QObject, public ToolSource
{
    Q_OBJECT

public:
    // `environment` is what local servers start with (their `environment`
    // laid over it); they run in `directory`.
    McpManager(McpConfig config, QString directory, QProcessEnvironment environment,
               QNetworkAccessManager *network = nullptr, QObject *parent = nullptr);
    ~McpManager() override;

    const McpConfig &config() const { return m_config; }
    // Starts every enabled server; disabled ones are marked so.
    void connectAll();
    // (Re)connects one server, enabled or not; the old connection is closed.
    void reconnect(const QString &name);
    // Closes one server's connection; its status becomes disabled.
    void disconnectServer(const QString &name);
    // Done when no server is connecting any more, or after `maxWaitMs`.
    QCoro::Task<> settled(int maxWaitMs);
    bool connecting() const;

    QList<McpServerStatus> statuses() const;
    McpServerStatus status(const QString &name) const;
    // The live connection of a connected server, else null.
    McpClient *client(const QString &name) const;

    std::vector<std::shared_ptr<Tool>> tools() const override;

Q_SIGNALS:
    void statusChanged(const QString &name);
    void toolsChanged(const QString &name);
    void allSettled();

private:
    struct Server;
    QCoro::Task<> connectServer(QString name);
    QCoro::Task<> refreshTools(QString name);
    void setStatus(Server &server, McpServerStatus::State state, const QString &error = {});
    void drop(Server &server);

    McpConfig m_config;
    QString m_directory;
    QProcessEnvironment m_environment;
    QNetworkAccessManager *m_network;
    std::vector<std::unique_ptr<Server>> m_servers;
    Server *find(const QString &name) const;
};

} // namespace qcode
