#include "HttpStream.h"

#include "HttpConnectionPool.h"
#include "NetworkLogging.h"

#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QTcpSocket>
#include <QUrl>
#if QT_CONFIG(ssl)
#include <QSslSocket>
#endif

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

constexpr int maxRedirects = 5;

// Where a request went, for logs and messages: never the query (a key can
// hide there) nor user info.
QString endpointOf(const QUrl &url)
{
    return url.toString(QUrl::RemoveQuery | QUrl::RemoveUserInfo | QUrl::RemoveFragment);
}

bool hasHeader(const QList<QPair<QByteArray, QByteArray>> &headers, QByteArrayView name)
{
    for (const auto &header : headers) {
        if (header.first.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

// A header that could end the line early would let a config value write
// headers of its own (or a second request).
bool isSafeHeaderText(QByteArrayView text)
{
    return !text.contains('\r') && !text.contains('\n') && !text.contains('\0');
}

// Headers that carry credentials; they do not follow a redirect to another
// origin.
bool isCredential(QByteArrayView name)
{
    for (QByteArrayView credential : {"authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie"}) {
        if (name.compare(credential, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QByteArray requestBytes(const HttpRequestSpec &request)
{
    QByteArray target = request.url.toEncoded(QUrl::RemoveScheme | QUrl::RemoveAuthority | QUrl::RemoveFragment);
    if (target.isEmpty() || target.front() != '/')
        target.prepend('/');
    QByteArray bytes;
    bytes.reserve(512 + request.body.size());
    bytes += "POST " + target + " HTTP/1.1\r\nHost: " + request.url.authority(QUrl::RemoveUserInfo | QUrl::FullyEncoded).toLatin1()
             + "\r\n";
    for (const auto &[name, value] : request.headers) {
        // Framing is ours to set.
        if (name.compare("content-length", Qt::CaseInsensitive) == 0 || name.compare("host", Qt::CaseInsensitive) == 0
            || name.compare("transfer-encoding", Qt::CaseInsensitive) == 0)
            continue;
        bytes += name + ": " + value + "\r\n";
    }
    if (!hasHeader(request.headers, "content-type"))
        bytes += "Content-Type: application/json\r\n";
    // A stream compressed by the server would arrive in blocks, not events.
    if (!hasHeader(request.headers, "accept-encoding"))
        bytes += "Accept-Encoding: identity\r\n";
    if (!hasHeader(request.headers, "user-agent"))
        bytes += "User-Agent: qcode/" QCODE_VERSION "\r\n";
    bytes += "Content-Length: " + QByteArray::number(request.body.size()) + "\r\n\r\n";
    bytes += request.body;
    return bytes;
}

} // namespace

HttpStream::HttpStream(QNetworkAccessManager *manager, const HttpRequestSpec &request, const HttpStreamLimits &limits,
                       QObject *parent)
    : QObject(parent)
    , m_manager(manager)
    , m_request(request)
    , m_limits(limits)
    , m_host(request.url.host())
{
    m_connectTimer.setSingleShot(true);
    m_connectTimer.setInterval(m_limits.connectTimeout);
    m_idleTimer.setSingleShot(true);
    m_idleTimer.setInterval(m_limits.idleTimeout);
    connect(&m_connectTimer, &QTimer::timeout, this, &HttpStream::onConnectTimeout);
    connect(&m_idleTimer, &QTimer::timeout, this, &HttpStream::onIdleTimeout);
    m_connectTimer.start();
    // Later, so that whoever made the stream has connected to its signals
    // before the first one (a failure to start) can come.
    QMetaObject::invokeMethod(this, &HttpStream::start, Qt::QueuedConnection);
}

HttpStream::~HttpStream()
{
    if (!m_finished && m_socket)
        qCDebug(lcHttp) << "aborting an unfinished request to" << m_host << "on destruction";
    releaseSocket(false);
}

void HttpStream::abort()
{
    fail(Failure::Aborted, tr("the request was stopped"));
}

QString HttpStream::failureName(Failure failure)
{
    switch (failure) {
    case Failure::Network: return u"network"_s;
    case Failure::ConnectTimeout: return u"connect-timeout"_s;
    case Failure::IdleTimeout: return u"idle-timeout"_s;
    case Failure::BodyTooLarge: return u"body-too-large"_s;
    case Failure::Aborted: return u"aborted"_s;
    }
    return u"unknown"_s;
}

void HttpStream::start()
{
    if (m_finished)
        return;
    if (!m_manager) {
        fail(Failure::Network, tr("the network is shutting down"));
        return;
    }
    const QUrl &url = m_request.url;
    const QString scheme = url.scheme().toLower();
    if (scheme != "http"_L1 && scheme != "https"_L1) {
        fail(Failure::Network, tr("%1 is not an http or https address").arg(endpointOf(url)));
        return;
    }
    if (url.host().isEmpty()) {
        fail(Failure::Network, tr("%1 names no host").arg(endpointOf(url)));
        return;
    }
    for (const auto &[name, value] : std::as_const(m_request.headers)) {
        if (!isSafeHeaderText(name) || !isSafeHeaderText(value) || name.isEmpty()) {
            fail(Failure::Network, tr("the header \"%1\" contains a line break and was not sent")
                                       .arg(QString::fromLatin1(name.left(40))));
            return;
        }
    }
    qCDebug(lcHttp).noquote() << "POST" << endpointOf(url) << m_request.body.size() << "bytes";

    const QString origin = HttpConnectionPool::originOf(url);
    // A retry after a dead reused connection must not take another one.
    QTcpSocket *idle = m_reusedConnection ? nullptr : HttpConnectionPool::of(m_manager)->take(origin);
    if (idle) {
        m_reusedConnection = true;
        connectSocket(idle);
        sendRequest();
        return;
    }
    m_reusedConnection = false;
    const quint16 port = quint16(url.port(scheme == "https"_L1 ? 443 : 80));
    if (scheme == "https"_L1) {
#if QT_CONFIG(ssl)
        if (!QSslSocket::supportsSsl()) {
            fail(Failure::Network, tr("https is not available: the TLS library (OpenSSL) could not be loaded"));
            return;
        }
        auto *socket = new QSslSocket(this);
        socket->setProxy(m_manager->proxy());
        connectSocket(socket);
        connect(socket, &QSslSocket::encrypted, this, &HttpStream::sendRequest);
        QSslConfiguration tls = socket->sslConfiguration();
        tls.setAllowedNextProtocols({QByteArrayLiteral("http/1.1")});
        socket->setSslConfiguration(tls);
        socket->connectToHostEncrypted(url.host(), port);
#else
        fail(Failure::Network, tr("https is not available: this build of Qt has no TLS support"));
#endif
        return;
    }
    auto *socket = new QTcpSocket(this);
    socket->setProxy(m_manager->proxy());
    connectSocket(socket);
    connect(socket, &QTcpSocket::connected, this, &HttpStream::sendRequest);
    socket->connectToHost(url.host(), port);
}

void HttpStream::connectSocket(QTcpSocket *socket)
{
    m_socket = socket;
    socket->setParent(this);
    connect(socket, &QTcpSocket::readyRead, this, &HttpStream::onReadyRead);
    connect(socket, &QTcpSocket::disconnected, this, &HttpStream::onSocketClosed);
    connect(socket, &QTcpSocket::errorOccurred, this, &HttpStream::onSocketClosed);
    connect(socket, &QTcpSocket::bytesWritten, this, [this] {
        // A large prompt still going out is progress, not a dead server.
        if (!m_headersReported && !m_finished)
            m_connectTimer.start();
    });
}

void HttpStream::sendRequest()
{
    if (m_finished || !m_socket)
        return;
    m_socket->write(requestBytes(m_request));
}

void HttpStream::onReadyRead()
{
    if (m_finished || !m_socket)
        return;
    const QByteArray bytes = m_socket->readAll();
    if (bytes.isEmpty())
        return;
    m_answered = true;
    // Restarting a QTimer for each of thousands of small reads costs more
    // than the read; the timer re-arms itself from the last activity.
    m_lastActivity.start();

    m_body.clear();
    const bool hadHead = m_parser.hasHead();
    const bool parsed = m_parser.feed(bytes, m_body);
    if (!hadHead && m_parser.hasHead() && !handleHead())
        return;
    if (!m_body.isEmpty()) {
        if (!isSuccessStatus()) {
            const qint64 room = m_limits.maxErrorBodyBytes - m_errorBody.size();
            if (room > 0)
                m_errorBody.append(m_body.left(room));
        } else {
            m_bodyBytes += m_body.size();
            if (m_bodyBytes > m_limits.maxBodyBytes) {
                fail(Failure::BodyTooLarge, tr("the response from %1 grew beyond %2")
                                                .arg(m_host, QLocale().formattedDataSize(m_limits.maxBodyBytes)));
                return;
            }
            QPointer<HttpStream> self(this);
            Q_EMIT bodyReceived(m_body);
            if (!self || m_finished)
                return;
        }
    }
    if (!parsed) {
        fail(Failure::Network, tr("%1 sent a response qcode cannot read: %2").arg(m_host, m_parser.errorString()));
        return;
    }
    if (m_parser.isComplete())
        finish();
}

void HttpStream::onSocketClosed()
{
    if (m_finished || !m_socket)
        return;
    // What came with the close may not have had its own readyRead yet.
    if (m_socket->bytesAvailable() > 0) {
        QPointer<HttpStream> self(this);
        onReadyRead();
        if (!self || m_finished)
            return;
    }
    if (!m_answered && m_reusedConnection) {
        // The server dropped the idle connection as we sent; nothing was
        // answered, so the request goes again on a fresh one.
        qCDebug(lcHttp) << "reused connection to" << m_host << "was closed; retrying on a new one";
        releaseSocket(false);
        start();
        return;
    }
    const QString socketError = m_socket->errorString();
    const bool closedCleanly = m_socket->error() == QAbstractSocket::RemoteHostClosedError
                               || m_socket->error() == QAbstractSocket::UnknownSocketError;
    QPointer<HttpStream> self(this);
    if (closedCleanly && m_parser.finishAtClose()) {
        if (!m_headersReported && !handleHead())
            return;
        if (self && !m_finished)
            finish();
        return;
    }
    if (m_status > 0 && !isSuccessStatus() && closedCleanly) {
        // An error answer cut short still says more than the cut.
        finish();
        return;
    }
    const QString detail = !closedCleanly || m_parser.errorString().isEmpty() ? socketError : m_parser.errorString();
    fail(Failure::Network, detail.isEmpty() ? tr("the connection to %1 failed").arg(m_host) : detail);
}

bool HttpStream::handleHead()
{
    const HttpResponseHead &head = m_parser.head();
    if ((head.status == 307 || head.status == 308) && !head.value("location").isEmpty())
        return !followRedirect();
    m_headersReported = true;
    m_status = head.status;
    m_headers.clear();
    for (const auto &[name, value] : head.headers)
        m_headers.append({name, value});
    m_connectTimer.stop();
    m_lastActivity.start();
    m_idleTimer.start(m_limits.idleTimeout);
    qCDebug(lcHttp) << "HTTP" << m_status << "from" << m_host;

    QPointer<HttpStream> self(this);
    Q_EMIT headersReceived(m_status, m_headers);
    return !self.isNull() && !m_finished;
}

// Returns true when the request went on to the new address (or failed
// trying), false when the redirect is to be reported as the answer.
bool HttpStream::followRedirect()
{
    const QUrl target = m_request.url.resolved(QUrl::fromEncoded(m_parser.head().value("location")));
    const bool downgrade = m_request.url.scheme() == "https"_L1 && target.scheme() != "https"_L1;
    if (!target.isValid() || downgrade || ++m_redirects > maxRedirects) {
        fail(Failure::Network, downgrade ? tr("%1 redirected to an insecure address (%2)").arg(m_host, endpointOf(target))
                                         : tr("%1 redirected too often or to an invalid address").arg(m_host));
        return true;
    }
    qCDebug(lcHttp).noquote() << "following" << m_parser.head().status << "to" << endpointOf(target);
    if (HttpConnectionPool::originOf(target) != HttpConnectionPool::originOf(m_request.url)) {
        m_request.headers.removeIf([](const auto &header) { return isCredential(header.first); });
    }
    m_request.url = target;
    m_host = target.host();
    releaseSocket(false);
    m_parser = HttpResponseParser();
    m_answered = false;
    m_reusedConnection = false;
    m_connectTimer.start();
    start();
    return true;
}

void HttpStream::finish()
{
    m_finished = true;
    m_connectTimer.stop();
    m_idleTimer.stop();
    releaseSocket(m_parser.isComplete() && m_parser.connectionReusable());
    if (!isSuccessStatus()) {
        qCInfo(lcHttp) << "HTTP" << m_status << "from" << m_host << "with" << m_errorBody.size() << "bytes of body";
        Q_EMIT httpFailed(m_status, m_headers, m_errorBody);
        return;
    }
    Q_EMIT succeeded();
}

void HttpStream::onConnectTimeout()
{
    const auto seconds = std::chrono::duration<double>(m_limits.connectTimeout).count();
    fail(Failure::ConnectTimeout, tr("%1 sent no response within %2 s").arg(m_host).arg(seconds, 0, 'g', 3));
}

void HttpStream::onIdleTimeout()
{
    const auto quiet = std::chrono::milliseconds(m_lastActivity.isValid() ? m_lastActivity.elapsed() : 0);
    if (quiet < m_limits.idleTimeout) {
        m_idleTimer.start(m_limits.idleTimeout - quiet);
        return;
    }
    const auto seconds = std::chrono::duration<double>(m_limits.idleTimeout).count();
    fail(Failure::IdleTimeout, tr("%1 sent nothing for %2 s in the middle of its answer").arg(m_host).arg(seconds, 0, 'g', 3));
}

void HttpStream::fail(Failure failure, const QString &detail)
{
    if (m_finished)
        return;
    m_finished = true;
    m_connectTimer.stop();
    m_idleTimer.stop();
    releaseSocket(false);
    if (failure == Failure::Aborted)
        qCDebug(lcHttp) << "request to" << m_host << "aborted";
    else
        qCWarning(lcHttp).noquote() << "request to" << m_host << "failed:" << failureName(failure) << "-" << detail;
    Q_EMIT transportFailed(failure, detail);
}

void HttpStream::releaseSocket(bool reusable)
{
    QTcpSocket *socket = m_socket;
    m_socket = nullptr;
    if (!socket)
        return;
    disconnect(socket, nullptr, this, nullptr);
    if (reusable && m_manager && socket->state() == QAbstractSocket::ConnectedState) {
        HttpConnectionPool::of(m_manager)->put(HttpConnectionPool::originOf(m_request.url), socket);
        return;
    }
    socket->abort();
    // Later, not now: this may run inside one of the socket's own signals.
    socket->setParent(nullptr);
    socket->deleteLater();
}

} // namespace qcode
