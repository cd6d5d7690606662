#pragma once

#include <QByteArray>
#include <QObject>
#include <QTcpServer>
#include <QUrl>

namespace qcode::test {

// A one-route HTTP server on 127.0.0.1, port 0: answers every request with
// the given JSON body, or never answers when `silent` (a server that
// accepts and hangs). For what probes a server: local model servers.
class TinyHttpServer : public QObject
{
public:
    explicit TinyHttpServer(QByteArray body, bool silent = false);

    // Port 0: any free port.
    bool listen(quint16 port = 0) { return m_server.listen(QHostAddress::LocalHost, port); }
    void close() { m_server.close(); }
    QUrl url() const;
    // Everything received so far, all connections together.
    QByteArray request() const { return m_request; }

    // A port nothing listens on: bound, then released.
    static QUrl closedPortUrl();

private:
    QTcpServer m_server;
    QByteArray m_body;
    QByteArray m_request;
    bool m_silent = false;
};

} // namespace qcode::test
