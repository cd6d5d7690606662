#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace qcode::test {

// A server program from the distribution (tinyproxy, nghttpx) run by a
// test on 127.0.0.1, on a free port, with its files in a temporary folder;
// stopped when this object goes. tinyproxy() and tlsFrontEnd() set it up;
// isRunning() is false, with skipReason() saying why, when the program or
// a tool it needs is missing or did not come up.
class ExternalServer
{
public:
    ExternalServer() = default;
    ~ExternalServer();
    ExternalServer(const ExternalServer &) = delete;
    ExternalServer &operator=(const ExternalServer &) = delete;

    // tinyproxy as an HTTP proxy (CONNECT to any port allowed). With a
    // user, it asks for Basic credentials.
    void startTinyproxy(const QString &user = {}, const QString &password = {});
    // nghttpx terminating TLS (HTTP/2 or HTTP/1.1 by ALPN) in front of the
    // cleartext HTTP/1.1 server on `backendPort`, with a self-signed
    // certificate for 127.0.0.1 made here (certificateFile()).
    void startTlsFrontEnd(quint16 backendPort);

    bool isRunning() const { return m_running; }
    QString skipReason() const { return m_skipReason; }
    quint16 port() const { return m_port; }
    QString certificateFile() const { return m_dir.filePath(QStringLiteral("cert.pem")); }
    // Everything the program logged so far.
    QByteArray log() const;

private:
    bool start(const QString &program, const QStringList &arguments);
    static quint16 freePort();

    QTemporaryDir m_dir;
    QProcess m_process;
    QString m_logFile;
    quint16 m_port = 0;
    bool m_running = false;
    QString m_skipReason;
};

} // namespace qcode::test
