#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <optional>
#include <utility>

#include "HttpStreamLimits.h"
#include "ProxyCredentialRequests.h"
#include "engine/provider/ProviderRequest.h"

class QAuthenticator;
class QNetworkAccessManager;
class QNetworkProxy;
class QNetworkReply;
class QUrl;

namespace qcode {

// One streaming POST through a QNetworkAccessManager, reduced to what a
// provider client needs:
//
//   headersReceived (once) → bodyReceived* → succeeded
//                                          | httpFailed   (non-2xx, whole body)
//                                          | transportFailed
//
// Exactly one of succeeded, httpFailed and transportFailed ends it. A
// non-2xx response's body is gathered and delivered whole with the status,
// so the caller can classify it; a 2xx body is passed on as it arrives,
// all that one readyRead holds in one go, in a buffer reused from read to
// read. Transport failures (refused, reset, TLS, proxy, timeouts, a body
// over the ceiling, abort) are told apart from HTTP errors. Destroying the
// stream aborts the exchange: nothing it started outlives it.
//
// The manager brings keep-alive connections, proxies, TLS and HTTP/2; this
// class adds what providers need on top: connect and idle timeouts, the
// body ceiling, refusing header values with line breaks, and redirects it
// follows itself so that 307/308 resend the POST, https never falls back
// to http and credentials stay with the origin they were meant for.
//
// A proxy that refuses the request (407) is asked about through
// ProxyCredentialRequests: the window answers with credentials from the
// keychain or a person, and the request is sent again with them; without
// anyone answering, or once a person's answer was refused too, it fails
// with a sentence naming the proxy and what to do. Waiting for the answer
// stops the connect timeout, never the thread.
class ReplyStream : public QObject
{
    Q_OBJECT

public:
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    enum class Failure {
        Network,        // refused, reset, DNS, TLS, proxy … or the body was cut
        ProxyCredentials, // a proxy wants credentials nobody gave (or refused those given)
        ConnectTimeout, // no response headers within connectTimeout
        IdleTimeout,    // no byte within idleTimeout after the headers
        BodyTooLarge,
        Aborted,
    };
    Q_ENUM(Failure)

    // Sends `request` as a POST once control returns to the event loop. The
    // manager must outlive the stream; both must live in the current thread.
    ReplyStream(QNetworkAccessManager *manager, const HttpRequestSpec &request, const HttpStreamLimits &limits,
                QObject *parent = nullptr);
    ~ReplyStream() override;

    // 0 until the headers arrive.
    int httpStatus() const { return m_status; }
    const Headers &headers() const { return m_headers; }
    bool isSuccessStatus() const { return m_status >= 200 && m_status < 300; }
    bool isFinished() const { return m_finished; }
    qint64 bodyBytes() const { return m_bodyBytes; }
    // The protocol the answer came over: "http/1.1" or "h2".
    QByteArray protocol() const { return m_protocol; }

    // Stops the exchange; transportFailed(Aborted) follows at once unless
    // it had already ended.
    void abort();

    static QString failureName(Failure failure);

Q_SIGNALS:
    void headersReceived(int httpStatus, const qcode::ReplyStream::Headers &headers);
    void bodyReceived(const QByteArray &bytes);
    void succeeded();
    void httpFailed(int httpStatus, const qcode::ReplyStream::Headers &headers, const QByteArray &body);
    void transportFailed(qcode::ReplyStream::Failure failure, const QString &detail);

private:
    void start();
    void onMetaData();
    void onReadyRead();
    void readAvailable();
    void onFinished();
    bool followRedirect(const QUrl &location);
    void onProxyRefused();
    void onProxyAnswer(const std::optional<ProxyCredentials> &answer);
    void fillProxyCredentials(const QNetworkProxy &proxy, QAuthenticator *authenticator);
    void onConnectTimeout();
    void onIdleTimeout();
    void fail(Failure failure, const QString &detail);
    QString transportError() const;
    void releaseReply();

    QPointer<QNetworkAccessManager> m_manager;
    HttpRequestSpec m_request;
    HttpStreamLimits m_limits;
    QNetworkReply *m_reply = nullptr;
    QTimer m_connectTimer;
    QTimer m_idleTimer;
    QElapsedTimer m_lastActivity; // the last body bytes (or the headers)
    Headers m_headers;
    QByteArray m_body; // the bytes of one read, reused
    QByteArray m_errorBody;
    QByteArray m_protocol;
    QString m_host;
    QStringList m_tlsProblems;
    QString m_proxy; // "host:port" of the proxy that asked for credentials
    std::optional<ProxyCredentials> m_proxyCredentials; // the last answer
    bool m_waitingForProxy = false;
    bool m_fillsProxyCredentials = false;
    int m_status = 0;
    int m_redirects = 0;
    qint64 m_bodyBytes = 0;
    bool m_headersReported = false;
    bool m_readQueued = false;
    bool m_finished = false;
};

} // namespace qcode
