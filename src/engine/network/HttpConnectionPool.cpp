#include "HttpConnectionPool.h"

#include <QNetworkAccessManager>
#include <QTcpSocket>
#include <QUrl>

namespace qcode {

HttpConnectionPool *HttpConnectionPool::of(QNetworkAccessManager *manager)
{
    auto *pool = manager->findChild<HttpConnectionPool *>(QString(), Qt::FindDirectChildrenOnly);
    return pool ? pool : new HttpConnectionPool(manager);
}

HttpConnectionPool::HttpConnectionPool(QNetworkAccessManager *manager)
    : QObject(manager)
{
    m_sweep.setSingleShot(true);
    connect(&m_sweep, &QTimer::timeout, this, &HttpConnectionPool::closeExpired);
}

QString HttpConnectionPool::originOf(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    const int port = url.port(scheme == QLatin1String("https") ? 443 : 80);
    return scheme + QLatin1String("://") + url.host(QUrl::FullyEncoded).toLower() + QLatin1Char(':')
           + QString::number(port);
}

QTcpSocket *HttpConnectionPool::take(const QString &origin)
{
    auto found = m_idle.find(origin);
    if (found == m_idle.end())
        return nullptr;
    QTcpSocket *taken = nullptr;
    // Newest first: the one least likely to have been dropped by the server.
    while (!found->isEmpty() && !taken) {
        Idle idle = found->takeLast();
        disconnect(idle.socket, nullptr, this, nullptr);
        const bool fresh = std::chrono::milliseconds(idle.since.elapsed()) < maxIdle;
        if (fresh && idle.socket->state() == QAbstractSocket::ConnectedState && idle.socket->bytesAvailable() == 0) {
            taken = idle.socket;
            taken->setParent(nullptr);
        } else {
            idle.socket->abort();
            idle.socket->deleteLater();
        }
    }
    if (found->isEmpty())
        m_idle.erase(found);
    return taken;
}

void HttpConnectionPool::put(const QString &origin, QTcpSocket *socket)
{
    QList<Idle> &idle = m_idle[origin];
    if (idle.size() >= maxIdlePerOrigin) {
        socket->abort();
        socket->deleteLater();
        return;
    }
    socket->setParent(this);
    // An idle connection that speaks or closes is no longer usable: a
    // server sends nothing unasked.
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { drop(socket); });
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] { drop(socket); });
    Idle entry;
    entry.socket = socket;
    entry.since.start();
    idle.append(entry);
    if (!m_sweep.isActive())
        m_sweep.start(maxIdle);
}

int HttpConnectionPool::idleCount() const
{
    int count = 0;
    for (const QList<Idle> &idle : m_idle)
        count += int(idle.size());
    return count;
}

void HttpConnectionPool::drop(QTcpSocket *socket)
{
    for (auto it = m_idle.begin(); it != m_idle.end(); ++it) {
        for (qsizetype i = 0; i < it->size(); ++i) {
            if (it->at(i).socket != socket)
                continue;
            it->removeAt(i);
            if (it->isEmpty())
                m_idle.erase(it);
            disconnect(socket, nullptr, this, nullptr);
            socket->abort();
            socket->deleteLater();
            return;
        }
    }
}

void HttpConnectionPool::closeExpired()
{
    std::chrono::milliseconds nextDue = maxIdle;
    QList<QTcpSocket *> expired;
    for (const QList<Idle> &idle : std::as_const(m_idle)) {
        for (const Idle &entry : idle) {
            const auto age = std::chrono::milliseconds(entry.since.elapsed());
            if (age >= maxIdle)
                expired.append(entry.socket);
            else
                nextDue = std::min(nextDue, std::chrono::duration_cast<std::chrono::milliseconds>(maxIdle - age));
        }
    }
    for (QTcpSocket *socket : expired)
        drop(socket);
    if (!m_idle.isEmpty())
        m_sweep.start(nextDue);
}

} // namespace qcode
