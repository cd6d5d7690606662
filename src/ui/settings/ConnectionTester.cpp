#include "ConnectionTester.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>

#include <algorithm>

#include "SettingsLogging.h"
#include "engine/config/LocalServerDetector.h"

using namespace Qt::StringLiterals;

namespace qcode {

ConnectionTester::ConnectionTester(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent), m_network(network)
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        m_timedOut = true;
        if (m_reply)
            m_reply->abort(); // finished follows, and reports the timeout
    });
}

ConnectionTester::~ConnectionTester()
{
    cancel();
}

QUrl ConnectionTester::modelsUrl(const QUrl &baseUrl)
{
    QUrl url = baseUrl;
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path + u"/models"_s);
    return url;
}

void ConnectionTester::start(const QUrl &baseUrl, const QString &key)
{
    cancel();
    m_url = modelsUrl(baseUrl);
    m_timedOut = false;
    QNetworkRequest request(m_url);
    request.setRawHeader("Accept", "application/json");
    if (!key.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + key.toUtf8());
    qCInfo(lcSettings) << "testing connection to" << m_url.toString(QUrl::RemoveUserInfo);
    m_reply = m_network->get(request);
    connect(m_reply.data(), &QNetworkReply::finished, this, &ConnectionTester::finish);
    m_deadline.start(m_timeout);
}

void ConnectionTester::cancel()
{
    m_deadline.stop();
    if (QNetworkReply *reply = m_reply.data()) {
        m_reply.clear();
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

void ConnectionTester::finish()
{
    QNetworkReply *reply = m_reply.data();
    if (!reply)
        return;
    m_reply.clear();
    m_deadline.stop();
    reply->deleteLater();
    const QString where = m_url.toString(QUrl::RemoveUserInfo);

    if (m_timedOut) {
        const int seconds = std::max(1, int((m_timeout.count() + 999) / 1000));
        Q_EMIT failed(tr("%1 did not answer within %n second(s).", nullptr, seconds).arg(where));
        return;
    }
    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    const QByteArray body = reply->readAll();
    if (!status.isValid()) {
        Q_EMIT failed(tr("Could not reach %1: %2").arg(where, reply->errorString()));
        return;
    }
    if (status.toInt() < 200 || status.toInt() > 299) {
        Q_EMIT failed(httpFailure(status.toInt(), body));
        return;
    }
    const std::optional<QStringList> models = LocalServerDetector::parseModels(LocalServer::Kind::OpenAIModels, body);
    if (!models) {
        Q_EMIT failed(tr("%1 answered, but not with a list of models. Is the base URL the API root (it usually "
                         "ends in /v1)?")
                          .arg(where));
        return;
    }
    Q_EMIT connected(*models);
}

QString ConnectionTester::httpFailure(int status, const QByteArray &body) const
{
    // OpenAI-style {"error": {"message": …}}, or {"error": "…"}, or text.
    const QJsonObject json = QJsonDocument::fromJson(body).object();
    const QJsonValue error = json.value("error"_L1);
    QString detail = error.isObject() ? error.toObject().value("message"_L1).toString() : error.toString();
    if (detail.isEmpty())
        detail = json.value("message"_L1).toString();
    if (detail.isEmpty())
        detail = QString::fromUtf8(body.left(300)).simplified();
    const QString where = m_url.toString(QUrl::RemoveUserInfo);
    const QString code = QString::number(status);
    QString message = detail.isEmpty() ? tr("%1 answered with HTTP status %2.").arg(where, code)
                                       : tr("%1 answered with HTTP status %2: %3").arg(where, code, detail);
    if (status == 401 || status == 403)
        message += QLatin1Char(' ') + tr("Check the API key.");
    else if (status == 404)
        message += QLatin1Char(' ') + tr("Check the base URL; it usually ends in /v1.");
    return message;
}

} // namespace qcode
