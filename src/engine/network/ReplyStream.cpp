#include "ReplyStream.h"

#include "NetworkLogging.h"

#include <QAuthenticator>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrl>
#if QT_CONFIG(ssl)
#include <QSslError>
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

QString originOf(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    return scheme + "://"_L1 + url.host().toLower() + u':' + QString::number(url.port(scheme == "https"_L1 ? 443 : 80));
}

bool hasHeader(const QList<std::pair<QByteArray, QByteArray>> &headers, QByteArrayView name)
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

// Framing is the network stack's to set.
bool isFramingHeader(QByteArrayView name)
{
    return name.compare("content-length", Qt::CaseInsensitive) == 0 || name.compare("host", Qt::CaseInsensitive) == 0
           || name.compare("transfer-encoding", Qt::CaseInsensitive) == 0;
}

QString hostAndPort(const QNetworkProxy &proxy)
{
    return proxy.hostName() + u':' + QString::number(proxy.port());
}

// The proxy `manager` sends a request for `url` through, as Qt picks it.
QNetworkProxy proxyFor(QNetworkAccessManager *manager, const QUrl &url)
{
    if (manager->proxy().type() != QNetworkProxy::DefaultProxy)
        return manager->proxy();
    const QNetworkProxyQuery query(url);
    const QList<QNetworkProxy> proxies = manager->proxyFactory() ? manager->proxyFactory()->queryProxy(query)
                                                                 : QNetworkProxyFactory::proxyForQuery(query);
    for (const QNetworkProxy &proxy : proxies) {
        if (proxy.type() == QNetworkProxy::HttpProxy || proxy.type() == QNetworkProxy::Socks5Proxy)
            return proxy;
    }
    return QNetworkProxy(QNetworkProxy::NoProxy);
}

QNetworkRequest networkRequest(const HttpRequestSpec &spec)
{
    QNetworkRequest request(spec.url);
    // Redirects are followed here, by rules the manager does not know.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, true);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    for (const auto &[name, value] : spec.headers) {
        if (!isFramingHeader(name))
            request.setRawHeader(name, value);
    }
    if (!hasHeader(spec.headers, "content-type"))
        request.setRawHeader("Content-Type", "application/json");
    // A stream compressed by the server would arrive in blocks, not events.
    if (!hasHeader(spec.headers, "accept-encoding"))
        request.setRawHeader("Accept-Encoding", "identity");
    if (!hasHeader(spec.headers, "user-agent"))
        request.setRawHeader("User-Agent", "qcode/" QCODE_VERSION);
    return request;
}

} // namespace

ReplyStream::ReplyStream(QNetworkAccessManager *manager, const HttpRequestSpec &request, const HttpStreamLimits &limits,
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
    connect(&m_connectTimer, &QTimer::timeout, this, &ReplyStream::onConnectTimeout);
    connect(&m_idleTimer, &QTimer::timeout, this, &ReplyStream::onIdleTimeout);
    m_connectTimer.start();
    // Later, so that whoever made the stream has connected to its signals
    // before the first one (a failure to start) can come.
    QMetaObject::invokeMethod(this, &ReplyStream::start, Qt::QueuedConnection);
}

ReplyStream::~ReplyStream()
{
    if (!m_finished && m_reply)
        qCDebug(lcHttp) << "aborting an unfinished request to" << m_host << "on destruction";
    releaseReply();
}

void ReplyStream::abort()
{
    fail(Failure::Aborted, tr("the request was stopped"));
}

QString ReplyStream::failureName(Failure failure)
{
    switch (failure) {
    case Failure::Network: return u"network"_s;
    case Failure::ProxyCredentials: return u"proxy-credentials"_s;
    case Failure::ConnectTimeout: return u"connect-timeout"_s;
    case Failure::IdleTimeout: return u"idle-timeout"_s;
    case Failure::BodyTooLarge: return u"body-too-large"_s;
    case Failure::Aborted: return u"aborted"_s;
    }
    return u"unknown"_s;
}

void ReplyStream::start()
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

    if (m_proxyCredentials && !m_fillsProxyCredentials) {
        // The manager asks its owner (this signal) for the credentials of a
        // proxy that refused, in this thread and before it gives up.
        m_fillsProxyCredentials = true;
        connect(m_manager, &QNetworkAccessManager::proxyAuthenticationRequired, this,
                &ReplyStream::fillProxyCredentials);
    }
    m_reply = m_manager->post(networkRequest(m_request), m_request.body);
    m_reply->setParent(this);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &ReplyStream::onMetaData);
    connect(m_reply, &QNetworkReply::readyRead, this, &ReplyStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &ReplyStream::onFinished);
    connect(m_reply, &QNetworkReply::uploadProgress, this, [this](qint64 sent, qint64) {
        // A large prompt still going out is progress, not a dead server.
        if (sent > 0 && !m_headersReported && !m_finished)
            m_connectTimer.start();
    });
#if QT_CONFIG(ssl)
    // Recorded to say what was wrong; never ignored.
    connect(m_reply, &QNetworkReply::sslErrors, this, [this](const QList<QSslError> &errors) {
        for (const QSslError &error : errors)
            m_tlsProblems.append(error.errorString());
    });
#endif
}

void ReplyStream::onMetaData()
{
    if (m_finished || !m_reply || m_headersReported)
        return;
    const QVariant statusAttribute = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!statusAttribute.isValid())
        return;
    const int status = statusAttribute.toInt();
    // A proxy's own refusal, not the server's answer: reported at the end,
    // once the manager has tried the credentials it has.
    if (status == 407)
        return;
    if (status == 307 || status == 308) {
        const QByteArray location = m_reply->rawHeader("location");
        if (!location.isEmpty()) {
            followRedirect(QUrl::fromEncoded(location));
            return;
        }
    }
    m_headersReported = true;
    m_status = status;
    m_headers.clear();
    const auto pairs = m_reply->rawHeaderPairs();
    for (const auto &[name, value] : pairs)
        m_headers.append({name, value});
    m_protocol = m_reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool() ? "h2" : "http/1.1";
    m_connectTimer.stop();
    m_lastActivity.start();
    m_idleTimer.start(m_limits.idleTimeout);
    qCDebug(lcHttp) << "HTTP" << m_status << "from" << m_host << "over" << m_protocol;

    Q_EMIT headersReceived(m_status, m_headers);
}

void ReplyStream::onReadyRead()
{
    // The manager hands over each chunk of a chunked body as its own
    // readyRead, and a provider sends an event per chunk: reading them one
    // by one would run the decoder thousands of times for a few bytes each.
    // One read later takes every chunk that arrived meanwhile, at the cost
    // of one event-loop pass.
    if (m_readQueued || m_finished)
        return;
    m_readQueued = true;
    QMetaObject::invokeMethod(this, &ReplyStream::readAvailable, Qt::QueuedConnection);
}

void ReplyStream::readAvailable()
{
    m_readQueued = false;
    if (m_finished || !m_reply)
        return;
    if (!m_headersReported) {
        QPointer<ReplyStream> self(this);
        onMetaData();
        if (!self || m_finished || !m_headersReported)
            return;
    }
    const qint64 available = m_reply->bytesAvailable();
    if (available <= 0)
        return;
    // Restarting a QTimer for each of thousands of small reads costs more
    // than the read; the timer re-arms itself from the last activity.
    m_lastActivity.start();
    // One buffer for every read: resizing keeps its allocation.
    m_body.resize(available);
    const qint64 read = m_reply->read(m_body.data(), available);
    m_body.resize(qMax<qint64>(read, 0));
    if (m_body.isEmpty())
        return;

    if (!isSuccessStatus()) {
        const qint64 room = m_limits.maxErrorBodyBytes - m_errorBody.size();
        if (room > 0)
            m_errorBody.append(m_body.left(room));
        return;
    }
    m_bodyBytes += m_body.size();
    if (m_bodyBytes > m_limits.maxBodyBytes) {
        fail(Failure::BodyTooLarge, tr("the response from %1 grew beyond %2")
                                        .arg(m_host, QLocale().formattedDataSize(m_limits.maxBodyBytes)));
        return;
    }
    Q_EMIT bodyReceived(m_body);
}

void ReplyStream::onFinished()
{
    if (m_finished || !m_reply)
        return;
    QPointer<ReplyStream> self(this);
    // What came with the end may not have been read yet.
    readAvailable();
    if (!self || m_finished || !m_reply)
        return;
    const QNetworkReply::NetworkError error = m_reply->error();
    if (error == QNetworkReply::ProxyAuthenticationRequiredError) {
        onProxyRefused();
        return;
    }
    if (m_status > 0 && !isSuccessStatus() && error != QNetworkReply::OperationCanceledError) {
        // An error answer, even one cut short, says more than the cut.
        m_finished = true;
        m_connectTimer.stop();
        m_idleTimer.stop();
        releaseReply();
        qCInfo(lcHttp) << "HTTP" << m_status << "from" << m_host << "with" << m_errorBody.size() << "bytes of body";
        Q_EMIT httpFailed(m_status, m_headers, m_errorBody);
        return;
    }
    if (m_headersReported && error == QNetworkReply::NoError) {
        m_finished = true;
        m_connectTimer.stop();
        m_idleTimer.stop();
        releaseReply();
        Q_EMIT succeeded();
        return;
    }
    fail(Failure::Network, transportError());
}

// Follows a 307 or 308 with the same POST; false when it failed instead.
bool ReplyStream::followRedirect(const QUrl &location)
{
    const QUrl target = m_request.url.resolved(location);
    const bool downgrade = m_request.url.scheme() == "https"_L1 && target.scheme() != "https"_L1;
    if (!target.isValid() || downgrade || ++m_redirects > maxRedirects) {
        fail(Failure::Network, downgrade ? tr("%1 redirected to an insecure address (%2)").arg(m_host, endpointOf(target))
                                         : tr("%1 redirected too often or to an invalid address").arg(m_host));
        return false;
    }
    qCDebug(lcHttp).noquote() << "following a redirect to" << endpointOf(target);
    if (originOf(target) != originOf(m_request.url))
        m_request.headers.removeIf([](const auto &header) { return isCredential(header.first); });
    m_request.url = target;
    m_host = target.host();
    m_tlsProblems.clear();
    releaseReply();
    m_connectTimer.start();
    start();
    return true;
}

void ReplyStream::onProxyRefused()
{
    const QNetworkProxy proxy = m_manager ? proxyFor(m_manager, m_request.url) : QNetworkProxy(QNetworkProxy::NoProxy);
    m_proxy = proxy.type() == QNetworkProxy::NoProxy ? tr("on the way to %1").arg(m_host) : hostAndPort(proxy);
    const QString tried = m_proxyCredentials ? m_proxyCredentials->user : proxy.user();
    if (m_proxyCredentials && m_proxyCredentials->fromPerson) {
        fail(Failure::ProxyCredentials, tr("the proxy %1 refused the user name and password given for it (%2)")
                                   .arg(m_proxy, m_proxyCredentials->user));
        return;
    }
    releaseReply();
    m_connectTimer.stop();
    m_waitingForProxy = true;
    const bool asked = ProxyCredentialRequests::instance()->ask(
        m_proxy, tried, this, [this](const std::optional<ProxyCredentials> &answer) { onProxyAnswer(answer); });
    if (!asked) {
        m_waitingForProxy = false;
        fail(Failure::ProxyCredentials, tried.isEmpty()
                                   ? tr("the proxy %1 asks for a user name and password that qcode does not have: put "
                                        "them in the proxy address (http://user:password@host:port) or set them in "
                                        "the window's Settings")
                                         .arg(m_proxy)
                                   : tr("the proxy %1 refused the user name and password in its address (%2): correct "
                                        "them in the proxy address (http://user:password@host:port) or in the "
                                        "window's Settings")
                                         .arg(m_proxy, tried));
    }
}

void ReplyStream::onProxyAnswer(const std::optional<ProxyCredentials> &answer)
{
    if (m_finished || !m_waitingForProxy)
        return;
    m_waitingForProxy = false;
    if (!answer) {
        fail(Failure::ProxyCredentials,
             tr("the proxy %1 asks for a user name and password, and none was given").arg(m_proxy));
        return;
    }
    // The same credentials again would be refused again.
    if (m_proxyCredentials && m_proxyCredentials->user == answer->user
        && m_proxyCredentials->password == answer->password) {
        fail(Failure::ProxyCredentials, tr("the proxy %1 refused the user name and password given for it (%2)")
                                   .arg(m_proxy, answer->user));
        return;
    }
    m_proxyCredentials = answer;
    qCDebug(lcHttp).noquote() << "sending again through" << m_proxy << "as" << answer->user;
    m_connectTimer.start();
    start();
}

void ReplyStream::fillProxyCredentials(const QNetworkProxy &proxy, QAuthenticator *authenticator)
{
    if (!m_reply || !m_proxyCredentials || hostAndPort(proxy).compare(m_proxy, Qt::CaseInsensitive) != 0)
        return;
    authenticator->setUser(m_proxyCredentials->user);
    authenticator->setPassword(m_proxyCredentials->password);
}

void ReplyStream::onConnectTimeout()
{
    const auto seconds = std::chrono::duration<double>(m_limits.connectTimeout).count();
    fail(Failure::ConnectTimeout, tr("%1 sent no response within %2 s").arg(m_host).arg(seconds, 0, 'g', 3));
}

void ReplyStream::onIdleTimeout()
{
    const auto quiet = std::chrono::milliseconds(m_lastActivity.isValid() ? m_lastActivity.elapsed() : 0);
    if (quiet < m_limits.idleTimeout) {
        m_idleTimer.start(m_limits.idleTimeout - quiet);
        return;
    }
    const auto seconds = std::chrono::duration<double>(m_limits.idleTimeout).count();
    fail(Failure::IdleTimeout,
         tr("%1 sent nothing for %2 s in the middle of its answer").arg(m_host).arg(seconds, 0, 'g', 3));
}

void ReplyStream::fail(Failure failure, const QString &detail)
{
    if (m_finished)
        return;
    m_finished = true;
    m_connectTimer.stop();
    m_idleTimer.stop();
    releaseReply();
    if (failure == Failure::Aborted)
        qCDebug(lcHttp) << "request to" << m_host << "aborted";
    else
        qCWarning(lcHttp).noquote() << "request to" << m_host << "failed:" << failureName(failure) << "-" << detail;
    Q_EMIT transportFailed(failure, detail);
}

// The manager's error, as a sentence naming the host and what went wrong.
QString ReplyStream::transportError() const
{
    switch (m_reply->error()) {
    case QNetworkReply::ConnectionRefusedError:
        return tr("%1 refused the connection").arg(m_host);
    case QNetworkReply::HostNotFoundError:
        return tr("the host %1 was not found").arg(m_host);
    case QNetworkReply::RemoteHostClosedError:
        return m_headersReported ? tr("%1 closed the connection in the middle of its answer").arg(m_host)
                                 : tr("%1 closed the connection without an answer").arg(m_host);
    case QNetworkReply::SslHandshakeFailedError:
        if (!m_tlsProblems.isEmpty())
            return tr("the certificate of %1 was refused: %2").arg(m_host, m_tlsProblems.join("; "_L1));
        return tr("the secure connection to %1 failed: %2").arg(m_host, m_reply->errorString());
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyTimeoutError:
        return tr("the proxy on the way to %1 failed: %2").arg(m_host, m_reply->errorString());
    case QNetworkReply::ProtocolFailure:
        return tr("%1 sent a response that is not HTTP qcode can read: %2").arg(m_host, m_reply->errorString());
    default:
        return tr("the connection to %1 failed: %2").arg(m_host, m_reply->errorString());
    }
}

void ReplyStream::releaseReply()
{
    QNetworkReply *reply = std::exchange(m_reply, nullptr);
    if (!reply)
        return;
    disconnect(reply, nullptr, this, nullptr);
    if (reply->isRunning())
        reply->abort();
    // Later, not now: this may run inside one of the reply's own signals.
    reply->setParent(nullptr);
    reply->deleteLater();
}

} // namespace qcode
