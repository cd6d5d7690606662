#pragma once

#include <QByteArray>
#include <QList>
#include <QTcpServer>
#include <QTcpSocket>

namespace qcode::test {

// An HTTP proxy on 127.0.0.1 that refuses every request with 407 and
// Basic, whatever credentials come, and remembers the Proxy-Authorization
// each request carried. For the refusals tinyproxy cannot show: Debian 12's
// tinyproxy answers wrong credentials with 401, not 407.
class RefusingProxy
{
public:
    RefusingProxy()
    {
        m_server.listen(QHostAddress::LocalHost);
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                auto *buffer = new QByteArray;
                QObject::connect(socket, &QObject::destroyed, socket, [buffer] { delete buffer; });
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                    buffer->append(socket->readAll());
                    const qsizetype end = buffer->indexOf("\r\n\r\n");
                    if (end < 0)
                        return;
                    QByteArray authorization;
                    for (const QByteArray &line : buffer->left(end).split('\n')) {
                        if (line.toLower().startsWith("proxy-authorization:"))
                            authorization = line.mid(20).trimmed();
                    }
                    authorizations.append(authorization);
                    buffer->clear();
                    socket->write("HTTP/1.1 407 Proxy Authentication Required\r\n"
                                  "Proxy-Authenticate: Basic realm=\"test\"\r\n"
                                  "Content-Length: 0\r\nConnection: close\r\n\r\n");
                    socket->disconnectFromHost();
                });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    quint16 port() const { return m_server.serverPort(); }

    // One per request head: "Basic …", or empty when none was sent.
    QList<QByteArray> authorizations;

private:
    QTcpServer m_server;
};

} // namespace qcode::test
