#include "McpManager.h"

#include <QTimer>

#include "McpClient.h"
#include "McpLogging.h"
#include "McpStdioTransport.h"
#include "McpTool.h"
#include "engine/session/NextEmission.h"

using namespace Qt::StringLiterals;

namespace qcode {

struct McpManager::Server {
    McpServerConfig config;
    McpServerStatus status;
    QPointer<McpClient> client;
    std::vector<std::shared_ptr<Tool>> tools;
    // Which connection attempt is current: an older one that finishes late is ignored.
    int generation = 0;
    bool listing = false;
    bool listAgain = false;
};

namespace {

// Emits done() once, at the manager's allSettled() or at the deadline.
class SettleWait : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    void fire()
    {
        if (m_fired)
            return;
        m_fired = true;
        Q_EMIT done();
    }

Q_SIGNALS:
    void done();

private:
    bool m_fired = false;
};

} // namespace

McpManager::McpManager(McpConfig config, QString directory, QProcessEnvironment environment,
                       QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_directory(std::move(directory))
    , m_environment(std::move(environment))
    , m_network(network)
{
    for (const McpServerConfig &entry : m_config.servers) {
        auto server = std::make_unique<Server>();
        server->config = entry;
        server->status.name = entry.name;
        server->status.state = entry.enabled ? McpServerStatus::State::Connecting : McpServerStatus::State::Disabled;
        m_servers.push_back(std::move(server));
    }
}

McpManager::~McpManager()
{
    for (auto &server : m_servers) {
        if (server->client)
            server->client->close();
        delete server->client.data();
    }
}

McpManager::Server *McpManager::find(const QString &name) const
{
    for (const auto &server : m_servers) {
        if (server->config.name == name)
            return server.get();
    }
    return nullptr;
}

void McpManager::connectAll()
{
    for (const auto &server : m_servers) {
        if (server->config.enabled)
            QCoro::connect(connectServer(server->config.name), this, [] {});
        else
            setStatus(*server, McpServerStatus::State::Disabled);
    }
}

void McpManager::reconnect(const QString &name)
{
    Server *server = find(name);
    if (!server)
        return;
    drop(*server);
    setStatus(*server, McpServerStatus::State::Connecting);
    QCoro::connect(connectServer(name), this, [] {});
}

void McpManager::disconnectServer(const QString &name)
{
    Server *server = find(name);
    if (!server)
        return;
    drop(*server);
    ++server->generation;
    setStatus(*server, McpServerStatus::State::Disabled);
}

void McpManager::drop(Server &server)
{
    if (server.client) {
        McpClient *client = server.client;
        server.client = nullptr;
        client->disconnect(this);
        client->close();
        client->deleteLater();
    }
    if (!server.tools.empty()) {
        server.tools.clear();
        Q_EMIT toolsChanged(server.config.name);
    }
}

void McpManager::setStatus(Server &server, McpServerStatus::State state, const QString &error)
{
    server.status.state = state;
    server.status.error = error;
    server.status.toolCount = int(server.tools.size());
    if (state == McpServerStatus::State::Failed)
        qCWarning(lcMcp).noquote() << "MCP server" << server.config.name << "failed:" << error;
    Q_EMIT statusChanged(server.config.name);
    if (!connecting())
        Q_EMIT allSettled();
}

bool McpManager::connecting() const
{
    return std::any_of(m_servers.begin(), m_servers.end(), [](const auto &server) {
        return server->status.state == McpServerStatus::State::Connecting;
    });
}

QCoro::Task<> McpManager::connectServer(QString name)
{
    QPointer<McpManager> self(this);
    Server *server = find(name);
    const int generation = ++server->generation;
    const McpServerConfig config = server->config;
    McpTransport *transport = nullptr;
    if (config.type == McpServerConfig::Type::Local) {
        QProcessEnvironment environment = m_environment;
        for (auto it = config.environment.begin(); it != config.environment.end(); ++it)
            environment.insert(it.key(), it.value());
        transport = new McpStdioTransport(name, config.command, environment, m_directory);
    } else {
        setStatus(*server, McpServerStatus::State::Failed,
                  tr("Remote MCP servers (%1) are not supported yet.").arg(config.url));
        co_return;
    }
    QPointer<McpClient> client = new McpClient(transport, this);
    const int timeout = m_config.connectTimeout(config);
    // Named: GCC 12 destroys temporaries of a co_await expression twice.
    QCoro::Task<Result<void>> connecting = client->connectToServer(timeout);
    const Result<void> connected = co_await connecting;
    // The server was reconnected, disconnected or the manager closed meanwhile.
    if (!self || !(server = find(name)) || server->generation != generation) {
        if (client)
            client->deleteLater();
        co_return;
    }
    if (!connected || !client) {
        if (client)
            client->deleteLater();
        setStatus(*server, McpServerStatus::State::Failed,
                  connected ? u"MCP error -32000: Connection closed"_s : connected.errorMessage());
        co_return;
    }
    server->client = client;
    connect(client, &McpClient::closed, this, [this, name](const QString &reason) {
        Server *dead = find(name);
        if (!dead || !dead->client)
            return;
        drop(*dead);
        setStatus(*dead, McpServerStatus::State::Failed, reason);
    });
    connect(client, &McpClient::toolsChanged, this, [this, name] { QCoro::connect(refreshTools(name), this, [] {}); });
    server->listing = true;
    QCoro::Task<Result<QList<QJsonObject>>> listing = client->listTools(timeout);
    const Result<QList<QJsonObject>> listed = co_await listing;
    if (!self || !(server = find(name)) || server->generation != generation)
        co_return;
    server->listing = false;
    if (!listed) {
        qCWarning(lcMcp).noquote() << name << "tools/list:" << listed.errorMessage();
        drop(*server);
        setStatus(*server, McpServerStatus::State::Failed, u"Failed to get tools"_s);
        co_return;
    }
    server->tools.clear();
    for (const QJsonObject &tool : *listed)
        server->tools.push_back(std::make_shared<McpTool>(QPointer<McpManager>(this), name, tool, m_config.callTimeout(config)));
    setStatus(*server, McpServerStatus::State::Connected);
    Q_EMIT toolsChanged(name);
    if (std::exchange(server->listAgain, false))
        QCoro::connect(refreshTools(name), this, [] {});
}

QCoro::Task<> McpManager::refreshTools(QString name)
{
    QPointer<McpManager> self(this);
    Server *server = find(name);
    if (!server || !server->client)
        co_return;
    // A change announced while a list is on its way: list once more after it.
    if (server->listing) {
        server->listAgain = true;
        co_return;
    }
    server->listing = true;
    const int generation = server->generation;
    QPointer<McpClient> client = server->client;
    QCoro::Task<Result<QList<QJsonObject>>> listing = client->listTools(m_config.connectTimeout(server->config));
    const Result<QList<QJsonObject>> listed = co_await listing;
    if (!self || !(server = find(name)) || server->generation != generation)
        co_return;
    server->listing = false;
    if (!listed) {
        // OpenCode drops a server whose tools cannot be listed.
        drop(*server);
        setStatus(*server, McpServerStatus::State::Failed, listed.errorMessage());
        co_return;
    }
    server->tools.clear();
    for (const QJsonObject &tool : *listed)
        server->tools.push_back(
            std::make_shared<McpTool>(QPointer<McpManager>(this), name, tool, m_config.callTimeout(server->config)));
    server->status.toolCount = int(server->tools.size());
    qCInfo(lcMcp) << name << "now has" << server->tools.size() << "tools";
    Q_EMIT toolsChanged(name);
    Q_EMIT statusChanged(name);
    if (std::exchange(server->listAgain, false))
        QCoro::connect(refreshTools(name), this, [] {});
}

QCoro::Task<> McpManager::settled(int maxWaitMs)
{
    if (!connecting())
        co_return;
    auto wait = std::make_unique<SettleWait>();
    SettleWait *waiting = wait.get();
    connect(this, &McpManager::allSettled, waiting, &SettleWait::fire);
    QTimer::singleShot(maxWaitMs, waiting, &SettleWait::fire);
    NextEmission done(waiting, &SettleWait::done);
    co_await done;
}

QList<McpServerStatus> McpManager::statuses() const
{
    QList<McpServerStatus> out;
    for (const auto &server : m_servers)
        out.append(server->status);
    return out;
}

McpServerStatus McpManager::status(const QString &name) const
{
    if (const Server *server = find(name))
        return server->status;
    return McpServerStatus{name, McpServerStatus::State::Disabled, {}, 0};
}

McpClient *McpManager::client(const QString &name) const
{
    const Server *server = find(name);
    return server ? server->client.data() : nullptr;
}

std::vector<std::shared_ptr<Tool>> McpManager::tools() const
{
    std::vector<std::shared_ptr<Tool>> out;
    for (const auto &server : m_servers) {
        if (server->status.state == McpServerStatus::State::Connected)
            out.insert(out.end(), server->tools.begin(), server->tools.end());
    }
    return out;
}

} // namespace qcode

#include "McpManager.moc"
