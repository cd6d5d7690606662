#include "WebDownload.h"

#include <QMetaEnum>

#include <QNetworkAccessManager>
#include <QNetworkReply>

namespace qcode {

WebDownload::WebDownload(QNetworkAccessManager *network, QNetworkRequest request, qint64 maxBytes, int timeoutMs,
                         QObject *parent)
    : QObject(parent)
    , m_maxBytes(maxBytes)
{
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setMaximumRedirectsAllowed(MaxRedirects);
    m_reply = network->get(request);
    // Qt keeps at most this much unread; what is read is counted at once.
    m_reply->setReadBufferSize(64 * 1024);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &WebDownload::onMetaData);
    connect(m_reply, &QNetworkReply::readyRead, this, &WebDownload::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &WebDownload::onFinished);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { end(Outcome::TimedOut); });
    m_timer.start(timeoutMs);
}

WebDownload::~WebDownload()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void WebDownload::cancel()
{
    end(Outcome::Cancelled);
}

QByteArray WebDownload::header(const QByteArray &name) const
{
    for (const auto &[key, value] : m_headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

bool WebDownload::isRedirect() const
{
    const int status = m_reply ? m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() : 0;
    return status >= 300 && status < 400;
}

void WebDownload::onMetaData()
{
    if (!m_reply || isRedirect())
        return;
    bool ok = false;
    const qint64 declared = m_reply->rawHeader("Content-Length").toLongLong(&ok);
    if (ok && declared > m_maxBytes)
        end(Outcome::TooLarge);
}

namespace {

// The fetch tool's failures go to the model, so they stay English: Qt's own
// errorString() is translated once Qt's translations are loaded for the window.
QString englishErrorText(const QNetworkReply &reply)
{
    const QString host = reply.url().host();
    switch (reply.error()) {
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("Connection refused by %1").arg(host);
    case QNetworkReply::RemoteHostClosedError:
        return QStringLiteral("%1 closed the connection").arg(host);
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("Host %1 not found").arg(host);
    case QNetworkReply::SslHandshakeFailedError:
        return QStringLiteral("The secure connection to %1 failed").arg(host);
    case QNetworkReply::TooManyRedirectsError:
    case QNetworkReply::InsecureRedirectError:
        return QStringLiteral("%1 redirected too often or to an insecure address").arg(host);
    case QNetworkReply::NoError:
        return QStringLiteral("%1 redirected to an address that was not followed").arg(host);
    default:
        return QStringLiteral("Network error %1 from %2")
            .arg(QString::fromLatin1(QMetaEnum::fromType<QNetworkReply::NetworkError>().valueToKey(reply.error())),
                 host);
    }
}

} // namespace

void WebDownload::onReadyRead()
{
    if (!m_reply || m_outcome != Outcome::Pending || isRedirect())
        return;
    const QByteArray chunk = m_reply->read(m_maxBytes + 1 - m_body.size());
    m_body += chunk;
    if (m_body.size() > m_maxBytes)
        end(Outcome::TooLarge);
}

void WebDownload::onFinished()
{
    if (!m_reply || m_outcome != Outcome::Pending)
        return;
    m_status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    m_headers = m_reply->rawHeaderPairs();
    if (m_status == 0 || isRedirect()) {
        m_errorString = englishErrorText(*m_reply);
        end(Outcome::Failed);
        return;
    }
    while (m_reply->bytesAvailable() > 0 && m_body.size() <= m_maxBytes)
        m_body += m_reply->read(m_maxBytes + 1 - m_body.size());
    end(m_body.size() > m_maxBytes ? Outcome::TooLarge : Outcome::Done);
}

void WebDownload::end(Outcome outcome)
{
    if (m_outcome != Outcome::Pending)
        return;
    m_outcome = outcome;
    m_timer.stop();
    if (outcome != Outcome::Done)
        m_body.clear();
    if (m_reply) {
        m_reply->disconnect(this);
        if (m_reply->isRunning())
            m_reply->abort();
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    Q_EMIT finished();
}

} // namespace qcode
