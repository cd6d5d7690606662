#include "ExternalServer.h"

#include <QFile>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>

using namespace Qt::StringLiterals;

namespace qcode::test {

namespace {

QString findProgram(const QString &name)
{
    const QString found = QStandardPaths::findExecutable(name);
    return found.isEmpty() ? QStandardPaths::findExecutable(name, {u"/usr/sbin"_s, u"/usr/bin"_s, u"/sbin"_s}) : found;
}

} // namespace

ExternalServer::~ExternalServer()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished(3000);
    }
}

void ExternalServer::startTinyproxy(const QString &user, const QString &password)
{
    const QString program = findProgram(u"tinyproxy"_s);
    if (program.isEmpty()) {
        m_skipReason = u"tinyproxy is not installed (Debian package tinyproxy)"_s;
        return;
    }
    m_port = freePort();
    m_logFile = m_dir.filePath(u"tinyproxy.log"_s);
    QByteArray config = "Port " + QByteArray::number(m_port) + "\nListen 127.0.0.1\nTimeout 60\nMaxClients 20\n"
                        "Allow 127.0.0.1\nLogLevel Info\nLogFile \"" + m_logFile.toUtf8() + "\"\n"
                        "PidFile \"" + m_dir.filePath(u"tinyproxy.pid"_s).toUtf8() + "\"\n";
    if (!user.isEmpty())
        config += "BasicAuth " + user.toUtf8() + ' ' + password.toUtf8() + '\n';
    const QString configFile = m_dir.filePath(u"tinyproxy.conf"_s);
    QFile file(configFile);
    if (!file.open(QIODevice::WriteOnly) || file.write(config) != config.size()) {
        m_skipReason = u"cannot write tinyproxy's configuration"_s;
        return;
    }
    file.close();
    start(program, {u"-d"_s, u"-c"_s, configFile});
}

void ExternalServer::startTlsFrontEnd(quint16 backendPort)
{
    const QString nghttpx = findProgram(u"nghttpx"_s);
    const QString openssl = findProgram(u"openssl"_s);
    if (nghttpx.isEmpty() || openssl.isEmpty()) {
        m_skipReason = nghttpx.isEmpty() ? u"nghttpx is not installed (Debian package nghttp2-proxy)"_s
                                         : u"the openssl command is not installed (Debian package openssl)"_s;
        return;
    }
    const QString key = m_dir.filePath(u"key.pem"_s);
    QProcess makeCertificate;
    makeCertificate.start(openssl, {u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s,
                                    u"ec_paramgen_curve:prime256v1"_s, u"-nodes"_s, u"-days"_s, u"2"_s,
                                    u"-subj"_s, u"/CN=127.0.0.1"_s, u"-addext"_s,
                                    u"subjectAltName=IP:127.0.0.1,DNS:localhost"_s, u"-keyout"_s, key,
                                    u"-out"_s, certificateFile()});
    if (!makeCertificate.waitForFinished(30000) || makeCertificate.exitCode() != 0) {
        m_skipReason = u"openssl could not make a test certificate: "_s
                       + QString::fromLocal8Bit(makeCertificate.readAllStandardError());
        return;
    }
    m_port = freePort();
    m_logFile = m_dir.filePath(u"nghttpx.log"_s);
    start(nghttpx, {u"--conf=/dev/null"_s, u"--workers=1"_s, u"--frontend=127.0.0.1,%1"_s.arg(m_port),
                    u"--backend=127.0.0.1,%1"_s.arg(backendPort), u"--errorlog-file=%1"_s.arg(m_logFile),
                    u"--accesslog-file=%1"_s.arg(m_logFile), u"--no-ocsp"_s, key, certificateFile()});
}

QByteArray ExternalServer::log() const
{
    QFile file(m_logFile);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool ExternalServer::start(const QString &program, const QStringList &arguments)
{
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.start(program, arguments);
    if (!m_process.waitForStarted(10000)) {
        m_skipReason = program + u" did not start: "_s + m_process.errorString();
        return false;
    }
    // Up once it accepts a connection; a program that exits early says why.
    for (int attempt = 0; attempt < 100; ++attempt) {
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, m_port);
        if (probe.waitForConnected(100)) {
            m_running = true;
            return true;
        }
        if (m_process.state() == QProcess::NotRunning || m_process.waitForFinished(50))
            break;
    }
    m_skipReason = program + u" did not come up on port %1: "_s.arg(m_port)
                   + QString::fromLocal8Bit(m_process.readAll()).left(500);
    return false;
}

quint16 ExternalServer::freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace qcode::test
