#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <QCoro/QCoroTask>

#include <functional>
#include <memory>

#include "engine/session/loop/AbortSignal.h"
#include "model/Result.h"

namespace qcode {

class McpTransport;
class McpPendingRequest;

// One JSON-RPC 2.0 conversation with one MCP server over a transport:
// requests with integer ids from 0, notifications, responses and errors;
// the initialize handshake (reference §4) with version negotiation; and
// the calls qcode makes. A request ends in its result or an Error whose
// text is the SDK's "MCP error <code>: <message>", so the model reads what
// OpenCode's would. A message the server garbles is logged and skipped;
// the conversation goes on.
class McpClient : public QObject
{
    Q_OBJECT

public:
    static constexpr int ConnectionClosed = -32000;
    static constexpr int RequestTimeout = -32001;

    // What qcode offers, and every revision it accepts in the answer.
    static QString latestProtocolVersion();
    static const QStringList &supportedProtocolVersions();

    struct RequestOptions {
        int timeoutMs = 60000;
        // A progress notification for this request starts the timeout again.
        bool resetTimeoutOnProgress = true;
        // Set: the request is cancelled (notifications/cancelled) when it fires.
        QPointer<AbortSignal> abort;
        std::function<void(double progress, double total, const QString &message)> onProgress;
    };

    // Takes the transport over.
    explicit McpClient(McpTransport *transport, QObject *parent = nullptr);
    ~McpClient() override;

    // Opens the transport and runs initialize/initialized within `timeoutMs`.
    QCoro::Task<Result<void>> connectToServer(int timeoutMs, QString offeredVersion = latestProtocolVersion());
    QCoro::Task<Result<QJsonObject>> request(QString method, QJsonObject params, RequestOptions options);
    void notify(const QString &method, const QJsonObject &params = {});
    // Every page of tools/list (nextCursor followed).
    QCoro::Task<Result<QList<QJsonObject>>> listTools(int timeoutMs);
    // tools/call with a progress token; the raw result.
    QCoro::Task<Result<QJsonObject>> callTool(QString name, QJsonObject arguments, RequestOptions options);
    void close();

    bool isOpen() const { return m_open; }
    QString protocolVersion() const { return m_protocolVersion; }
    QJsonObject serverCapabilities() const { return m_capabilities; }
    QJsonObject serverInfo() const { return m_serverInfo; }
    QString instructions() const { return m_instructions; }
    bool hasCapability(const QString &name) const { return m_capabilities.contains(name); }

    // "MCP error <code>: <message>".
    static QString errorText(int code, const QString &message);

Q_SIGNALS:
    void toolsChanged();
    // The server went away (exit, crash, connection lost); every open request failed with it.
    void closed(const QString &reason);
    void protocolError(const QString &error);

private:
    void handle(const QJsonObject &message);
    void finish(qint64 id, Result<QJsonObject> result);
    void failAll(const QString &reason);

    McpTransport *m_transport;
    qint64 m_nextId = 0;
    QHash<qint64, McpPendingRequest *> m_pending;
    bool m_open = false;
    QString m_protocolVersion;
    QJsonObject m_capabilities;
    QJsonObject m_serverInfo;
    QString m_instructions;
};

} // namespace qcode
