#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <chrono>
#include <utility>

#include "HttpResponseParser.h"
#include "engine/provider/ProviderRequest.h"

class QNetworkAccessManager;
class QTcpSocket;

namespace qcode {

// How long an exchange may stay silent and how much it may send.
struct HttpStreamLimits {
    // From the request until the response's status line and headers, reset
    // by upload progress so a slow upload of a large prompt is not cut.
    std::chrono::milliseconds connectTimeout{std::chrono::seconds(60)};
    // Once the headers are in: the longest silence between two reads.
    // Anthropic pings every few seconds and OpenAI-compatible servers send
    // comments; a provider quiet for this long is a dead connection, and
    // without this bound a session would wait on it forever.
    std::chrono::milliseconds idleTimeout{std::chrono::minutes(3)};
    // A streaming body larger than this is stopped rather than buffered.
    qint64 maxBodyBytes = 256LL * 1024 * 1024;
    // An error body is read whole up to this size; the rest is dropped.
    qint64 maxErrorBodyBytes = 1024 * 1024;
};

// One HTTP/1.1 POST, reduced to what a streaming client needs:
//
//   headersReceived (once) → bodyReceived* → succeeded
//                                          | httpFailed   (non-2xx, whole body)
//                                          | transportFailed
//
// Exactly one of succeeded, httpFailed and transportFailed ends it. A
// non-2xx response's body is gathered and delivered whole with the status,
// so the caller can classify it; a 2xx body is passed on as it arrives.
// Transport failures (refused, reset, timeouts, a body over the ceiling,
// abort) are told apart from HTTP errors. Destroying the stream aborts the
// exchange: nothing it started outlives it.
//
// It speaks HTTP/1.1 itself over a QTcpSocket (QSslSocket for https) in
// the caller's thread, rather than through QNetworkReply: a provider's
// answer is thousands of tiny chunks, and QNetworkReply's detour through
// its own thread and chunk decoder cost more CPU than the rest of qcode's
// handling of them together (tests/bench/bench_run). Connections are kept
// alive and reused (HttpConnectionPool); the manager's proxy applies;
// 307/308 redirects are followed (never from https to http); the body is
// asked for without content coding.
class HttpStream : public QObject
{
    Q_OBJECT

public:
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    enum class Failure {
        Network,        // refused, reset, DNS, TLS … or the body was cut
        ConnectTimeout, // no response headers within connectTimeout
        IdleTimeout,    // no byte within idleTimeout after the headers
        BodyTooLarge,
        Aborted,
    };
    Q_ENUM(Failure)

    // Sends `request` as a POST, once control returns to the event loop,
    // over a connection of `manager`'s pool. The manager must outlive the
    // stream; both must live in the current thread.
    HttpStream(QNetworkAccessManager *manager, const HttpRequestSpec &request, const HttpStreamLimits &limits,
               QObject *parent = nullptr);
    ~HttpStream() override;

    // 0 until the headers arrive.
    int httpStatus() const { return m_status; }
    const Headers &headers() const { return m_headers; }
    bool isSuccessStatus() const { return m_status >= 200 && m_status < 300; }
    bool isFinished() const { return m_finished; }
    qint64 bodyBytes() const { return m_bodyBytes; }

    // Stops the exchange; transportFailed(Aborted) follows at once unless
    // it had already ended.
    void abort();

    static QString failureName(Failure failure);

Q_SIGNALS:
    void headersReceived(int httpStatus, const qcode::HttpStream::Headers &headers);
    void bodyReceived(const QByteArray &bytes);
    void succeeded();
    void httpFailed(int httpStatus, const qcode::HttpStream::Headers &headers, const QByteArray &body);
    void transportFailed(qcode::HttpStream::Failure failure, const QString &detail);

private:
    void start();
    void connectSocket(QTcpSocket *socket);
    void sendRequest();
    void onReadyRead();
    void onSocketClosed();
    bool handleHead();
    bool followRedirect();
    void finish();
    void onConnectTimeout();
    void onIdleTimeout();
    void fail(Failure failure, const QString &detail);
    void releaseSocket(bool reusable);

    QPointer<QNetworkAccessManager> m_manager;
    HttpRequestSpec m_request;
    HttpStreamLimits m_limits;
    QTcpSocket *m_socket = nullptr;
    HttpResponseParser m_parser;
    QTimer m_connectTimer;
    QTimer m_idleTimer;
    QElapsedTimer m_lastActivity; // the last body bytes (or the headers)
    Headers m_headers;
    QByteArray m_body;      // the bytes of one read, reused
    QByteArray m_errorBody;
    QString m_host;
    int m_status = 0;
    int m_redirects = 0;
    qint64 m_bodyBytes = 0;
    bool m_reusedConnection = false;
    bool m_answered = false; // any byte of a response arrived
    bool m_headersReported = false;
    bool m_finished = false;
};

} // namespace qcode
