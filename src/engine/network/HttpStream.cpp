#include "HttpStream.h"

#include "NetworkLogging.h"
#include "engine/provider/ProviderRequest.h"

#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

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

} // namespace

HttpStream::HttpStream(QNetworkAccessManager *manager, const HttpRequestSpec &request, const HttpStreamLimits &limits,
                       QObject *parent)
    : QObject(parent)
    , m_limits(limits)
    , m_host(request.url.host())
{
    QNetworkRequest networkRequest(request.url);
    for (const auto &[name, value] : request.headers)
        networkRequest.setRawHeader(name, value);
    // Without it Qt warns and sends application/x-www-form-urlencoded.
    if (!hasHeader(request.headers, "content-type"))
        networkRequest.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    // A streamed answer is never cacheable; skip the cache lookup entirely.
    networkRequest.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    networkRequest.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);

    m_connectTimer.setSingleShot(true);
    m_connectTimer.setInterval(m_limits.connectTimeout);
    m_idleTimer.setSingleShot(true);
    m_idleTimer.setInterval(m_limits.idleTimeout);
    connect(&m_connectTimer, &QTimer::timeout, this, &HttpStream::onConnectTimeout);
    connect(&m_idleTimer, &QTimer::timeout, this, &HttpStream::onIdleTimeout);

    qCDebug(lcHttp).noquote() << "POST" << endpointOf(request.url) << request.body.size() << "bytes";
    m_reply = manager->post(networkRequest, request.body);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &HttpStream::onMetaDataChanged);
    connect(m_reply, &QNetworkReply::readyRead, this, &HttpStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &HttpStream::onFinished);
    connect(m_reply, &QNetworkReply::uploadProgress, this, [this](qint64 sent, qint64) {
        // A large prompt still going out is progress, not a dead server.
        if (!m_headersReported && sent > 0 && !m_finished)
            m_connectTimer.start();
    });
    m_connectTimer.start();
}

HttpStream::~HttpStream()
{
    if (!m_finished && m_reply)
        qCDebug(lcHttp) << "aborting an unfinished request to" << m_host << "on destruction";
    releaseReply();
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

void HttpStream::onMetaDataChanged()
{
    if (m_finished || !m_reply || m_headersReported)
        return;
    // Qt follows redirects itself; the headers of a 3xx on the way are not
    // the answer.
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status >= 300 && status < 400 && m_reply->attribute(QNetworkRequest::RedirectionTargetAttribute).isValid())
        return;
    reportHeaders();
}

bool HttpStream::reportHeaders()
{
    if (m_headersReported)
        return true;
    const int status = m_reply ? m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() : 0;
    if (status <= 0)
        return true;
    m_headersReported = true;
    m_status = status;
    m_headers.clear();
    const QList<QNetworkReply::RawHeaderPair> pairs = m_reply->rawHeaderPairs();
    for (const QNetworkReply::RawHeaderPair &pair : pairs)
        m_headers.append({pair.first, pair.second});
    m_connectTimer.stop();
    m_lastActivity.start();
    m_idleTimer.start(m_limits.idleTimeout);
    qCDebug(lcHttp) << "HTTP" << status << "from" << m_host;

    QPointer<HttpStream> self(this);
    Q_EMIT headersReceived(m_status, m_headers);
    return !self.isNull();
}

void HttpStream::onReadyRead()
{
    if (m_finished || !m_reply)
        return;
    QPointer<HttpStream> self(this);
    if (!reportHeaders() || m_finished)
        return;
    // Restarting a QTimer for each of thousands of small reads costs more
    // than the read; the timer re-arms itself from the last activity.
    m_lastActivity.start();
    const QByteArray bytes = m_reply->readAll();
    if (bytes.isEmpty())
        return;

    if (m_headersReported && !isSuccessStatus()) {
        const qint64 room = m_limits.maxErrorBodyBytes - m_errorBody.size();
        if (room > 0)
            m_errorBody.append(bytes.left(room));
        return;
    }
    m_bodyBytes += bytes.size();
    if (m_bodyBytes > m_limits.maxBodyBytes) {
        fail(Failure::BodyTooLarge, tr("the response from %1 grew beyond %2")
                                        .arg(m_host, QLocale().formattedDataSize(m_limits.maxBodyBytes)));
        return;
    }
    Q_EMIT bodyReceived(bytes);
}

void HttpStream::onFinished()
{
    if (m_finished || !m_reply)
        return;
    QPointer<HttpStream> self(this);
    // Bytes that arrived with the end of the body may not have had their
    // own readyRead yet.
    if (m_reply->bytesAvailable() > 0) {
        onReadyRead();
        if (!self || m_finished)
            return;
    }
    if (!reportHeaders() || m_finished)
        return;

    const QNetworkReply::NetworkError error = m_reply->error();
    const QString errorString = m_reply->errorString();

    if (m_status > 0 && !isSuccessStatus()) {
        // Qt maps HTTP statuses onto its own error codes; the status and
        // body say more, so the reply's error is not consulted.
        m_finished = true;
        m_connectTimer.stop();
        m_idleTimer.stop();
        releaseReply();
        qCInfo(lcHttp) << "HTTP" << m_status << "from" << m_host << "with" << m_errorBody.size() << "bytes of body";
        Q_EMIT httpFailed(m_status, m_headers, m_errorBody);
        return;
    }
    if (error == QNetworkReply::NoError && m_status > 0) {
        m_finished = true;
        m_connectTimer.stop();
        m_idleTimer.stop();
        releaseReply();
        Q_EMIT succeeded();
        return;
    }
    if (error == QNetworkReply::OperationCanceledError) {
        fail(Failure::Aborted, tr("the request was stopped"));
        return;
    }
    fail(Failure::Network, errorString.isEmpty() ? tr("the connection to %1 failed").arg(m_host) : errorString);
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
    releaseReply();
    if (failure == Failure::Aborted)
        qCDebug(lcHttp) << "request to" << m_host << "aborted";
    else
        qCWarning(lcHttp).noquote() << "request to" << m_host << "failed:" << failureName(failure) << "-" << detail;
    Q_EMIT transportFailed(failure, detail);
}

void HttpStream::releaseReply()
{
    QNetworkReply *reply = m_reply.data();
    m_reply.clear();
    if (!reply)
        return;
    disconnect(reply, nullptr, this, nullptr);
    if (reply->isRunning())
        reply->abort();
    // Later, not now: this may run inside one of the reply's own signals.
    reply->deleteLater();
}

} // namespace qcode
