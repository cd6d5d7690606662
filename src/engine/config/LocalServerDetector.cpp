#include "LocalServerDetector.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QPointer>

#include <QCoro/QCoroNetworkReply>

#include "ConfigLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {

LocalServerDetector::LocalServerDetector(QObject *parent) : QObject(parent)
{
    // A proxy from the environment must not see (or swallow) requests
    // meant for this machine.
    m_network.setProxy(QNetworkProxy::NoProxy);
}

std::optional<QStringList> LocalServerDetector::parseModels(LocalServer::Kind kind, const QByteArray &body)
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    if (!document.isObject())
        return std::nullopt;
    const QJsonObject root = document.object();
    const QJsonValue list = root.value(kind == LocalServer::Kind::Ollama ? "models"_L1 : "data"_L1);
    if (!list.isArray())
        return std::nullopt;
    QStringList models;
    for (const QJsonValue &entry : list.toArray()) {
        const QJsonObject o = entry.toObject();
        const QString id = kind == LocalServer::Kind::Ollama ? o.value("name"_L1).toString(o.value("model"_L1).toString())
                                                             : o.value("id"_L1).toString();
        if (!id.isEmpty() && !models.contains(id))
            models.append(id);
    }
    return models;
}

QCoro::Task<QList<LocalServer>> LocalServerDetector::detect()
{
    QPointer<LocalServerDetector> self(this);
    const QList<LocalServer> probes = m_probes;

    // Every request is in flight before the first await, so the total wait
    // is one timeout, not one per server.
    QList<QPointer<QNetworkReply>> replies;
    for (const LocalServer &probe : probes) {
        QUrl url = probe.serverUrl;
        QString path = url.path();
        while (path.endsWith(QLatin1Char('/')))
            path.chop(1);
        url.setPath(path + (probe.kind == LocalServer::Kind::Ollama ? u"/api/tags"_s : u"/v1/models"_s));
        QNetworkRequest request(url);
        request.setTransferTimeout(int(m_timeout.count()));
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
        replies.append(m_network.get(request));
    }

    QList<LocalServer> found;
    for (qsizetype i = 0; i < replies.size(); ++i) {
        QPointer<QNetworkReply> reply = replies.at(i);
        if (reply && !reply->isFinished())
            co_await qCoro(reply.get()).waitForFinished();
        if (!self || !reply)
            co_return found;
        reply->deleteLater();
        const LocalServer &probe = probes.at(i);
        if (reply->error() != QNetworkReply::NoError) {
            qCDebug(lcLocalServers) << probe.name << "not found at" << probe.serverUrl << reply->errorString();
            continue;
        }
        std::optional<QStringList> models = parseModels(probe.kind, reply->readAll());
        if (!models) {
            qCInfo(lcLocalServers) << "something at" << probe.serverUrl << "answered, but not as" << probe.name;
            continue;
        }
        LocalServer server = probe;
        server.models = *models;
        qCInfo(lcLocalServers) << probe.name << "found at" << probe.serverUrl << "with" << models->size() << "models";
        found.append(server);
    }
    co_return found;
}

void LocalServerDetector::start()
{
    QCoro::connect(detect(), this, [this](const QList<LocalServer> &servers) { Q_EMIT finished(servers); });
}

} // namespace qcode
