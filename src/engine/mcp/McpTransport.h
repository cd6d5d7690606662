#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

namespace qcode {

// How JSON-RPC messages reach one MCP server and come back: a child's
// stdin/stdout, or HTTP. The client above it knows nothing of the wire.
// open() ends in exactly one of opened() or failed(); after opened(),
// closed() says the server went away (it is emitted once).
class McpTransport : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    virtual void open() = 0;
    virtual void send(const QJsonObject &message) = 0;
    // Ends the connection for good; no closed() follows.
    virtual void close() = 0;
    // The negotiated revision, for transports that must repeat it (HTTP).
    virtual void setProtocolVersion(const QString &version) { Q_UNUSED(version); }

Q_SIGNALS:
    void opened();
    void failed(const QString &error);
    void received(const QJsonObject &message);
    // A line or event that is not a JSON-RPC message: reported, skipped.
    void malformed(const QString &error);
    void closed(const QString &reason);
};

} // namespace qcode
