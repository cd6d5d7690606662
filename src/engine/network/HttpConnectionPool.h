#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <chrono>

class QNetworkAccessManager;
class QTcpSocket;
class QUrl;

namespace qcode {

// Open HTTP/1.1 connections that finished a response and may carry the
// next one, per origin (scheme, host, port). A provider loop sends a
// request per step; without reuse each would pay a TCP and TLS handshake.
//
// One pool hangs off each QNetworkAccessManager (as its child, found with
// of()), so everything that shares a manager — the engine's provider
// calls — shares connections, in the manager's thread, and the manager's
// proxy applies to them. A connection idle longer than maxIdle is closed
// (servers drop idle ones after a few seconds anyway; HttpStream retries
// a request whose reused connection turns out dead before any answer).
class HttpConnectionPool : public QObject
{
    Q_OBJECT

public:
    static constexpr std::chrono::seconds maxIdle{20};
    static constexpr int maxIdlePerOrigin = 4;

    // The pool of `manager`, made on first use.
    static HttpConnectionPool *of(QNetworkAccessManager *manager);

    // "https://api.example.com:443": what makes two connections
    // interchangeable.
    static QString originOf(const QUrl &url);

    // An idle, still open connection to `origin`, now owned by the caller
    // (re-parented to nullptr), or nullptr.
    QTcpSocket *take(const QString &origin);
    // Keeps `socket`, which just ended a complete response, for the next
    // request to `origin`; closes it when the pool is full.
    void put(const QString &origin, QTcpSocket *socket);

    int idleCount() const;

private:
    explicit HttpConnectionPool(QNetworkAccessManager *manager);

    struct Idle {
        QTcpSocket *socket = nullptr;
        QElapsedTimer since;
    };

    void drop(QTcpSocket *socket);
    void closeExpired();

    QHash<QString, QList<Idle>> m_idle;
    QTimer m_sweep;
};

} // namespace qcode
