#pragma once

#include <QList>
#include <QNetworkAccessManager>
#include <QObject>

#include <chrono>

#include <QCoro/QCoroTask>

#include "LocalServer.h"

namespace qcode {

// Probes local model servers, all at once, each with a short timeout, so
// a machine with none of them answers in well under a second and a server
// that accepts but never replies cannot stall start-up.
class LocalServerDetector : public QObject
{
    Q_OBJECT

public:
    explicit LocalServerDetector(QObject *parent = nullptr);

    // Where to look; LocalServer::defaultProbes() unless tests say otherwise.
    void setProbes(const QList<LocalServer> &probes) { m_probes = probes; }
    void setTimeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }

    // The servers that answered, with their models. The detector must
    // outlive the task (start() ties both to this object).
    QCoro::Task<QList<LocalServer>> detect();
    // Runs detect() and reports through finished().
    void start();

    // Reads a server's model list; a body that is not the expected JSON
    // gives an empty optional.
    static std::optional<QStringList> parseModels(LocalServer::Kind kind, const QByteArray &body);

Q_SIGNALS:
    void finished(const QList<qcode::LocalServer> &servers);

private:
    QNetworkAccessManager m_network;
    QList<LocalServer> m_probes = LocalServer::defaultProbes();
    std::chrono::milliseconds m_timeout{800};
};

} // namespace qcode
