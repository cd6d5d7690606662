#include "McpStdioTransport.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QTimer>

#include <signal.h>
#include <unistd.h>

#include "McpLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {

McpStdioTransport::McpStdioTransport(QString serverName, QStringList command, QProcessEnvironment environment,
                                     QString workingDirectory, QObject *parent)
    : McpTransport(parent)
    , m_name(std::move(serverName))
    , m_command(std::move(command))
{
    m_process.setProcessEnvironment(environment);
    m_process.setWorkingDirectory(workingDirectory);
    // Its own session and process group: the group dies with it on close.
    m_process.setChildProcessModifier([] { (void)::setsid(); });
    connect(&m_process, &QProcess::started, this, [this] {
        m_started = true;
        Q_EMIT opened();
    });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || m_started)
            return;
        Q_EMIT failed(tr("Could not start \"%1\": %2").arg(m_command.value(0), m_process.errorString()));
    });
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &McpStdioTransport::readOut);
    connect(&m_process, &QProcess::readyReadStandardError, this, &McpStdioTransport::readErr);
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readOut();
        readErr();
        if (!m_err.isEmpty())
            qCInfo(lcMcp).noquote() << "mcp stderr:" << m_name << QString::fromUtf8(m_err);
        if (m_closing || !m_started)
            return;
        // English: the reason fails the calls in flight, and the model reads it.
        Q_EMIT closed(status == QProcess::CrashExit ? u"The MCP server \"%1\" crashed."_s.arg(m_name)
                                                    : u"The MCP server \"%1\" exited with code %2."_s.arg(m_name).arg(code));
    });
}

McpStdioTransport::~McpStdioTransport()
{
    m_closing = true;
    // QProcess may report the end while it is destroyed, after the members its handlers use.
    m_process.disconnect(this);
    if (m_process.state() != QProcess::NotRunning) {
        signalGroup(SIGKILL);
        m_process.waitForFinished(1000);
    }
}

void McpStdioTransport::open()
{
    if (m_command.isEmpty()) {
        Q_EMIT failed(tr("The MCP server \"%1\" has no command.").arg(m_name));
        return;
    }
    qCInfo(lcMcp) << "starting" << m_name << m_command;
    m_process.start(m_command.constFirst(), m_command.mid(1));
}

void McpStdioTransport::send(const QJsonObject &message)
{
    if (m_process.state() != QProcess::Running)
        return;
    m_process.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
}

void McpStdioTransport::close()
{
    if (m_closing)
        return;
    m_closing = true;
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.closeWriteChannel();
    signalGroup(SIGTERM);
    QTimer::singleShot(KillGraceMs, &m_process, [this] {
        if (m_process.state() != QProcess::NotRunning)
            signalGroup(SIGKILL);
    });
}

void McpStdioTransport::signalGroup(int signal)
{
    const qint64 pid = m_process.processId();
    if (pid > 0)
        ::kill(-pid_t(pid), signal);
}

void McpStdioTransport::readOut()
{
    m_out += m_process.readAllStandardOutput();
    qsizetype newline;
    while ((newline = m_out.indexOf('\n')) >= 0) {
        QByteArray line = m_out.left(newline);
        m_out.remove(0, newline + 1);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject()
            || document.object().value("jsonrpc"_L1) != "2.0"_L1) {
            const QString why = error.error != QJsonParseError::NoError ? error.errorString()
                                                                         : tr("not a JSON-RPC 2.0 message");
            Q_EMIT malformed(tr("The MCP server \"%1\" sent a line that is not JSON-RPC (%2): %3")
                                 .arg(m_name, why, QString::fromUtf8(line.left(200))));
            continue;
        }
        Q_EMIT received(document.object());
    }
}

void McpStdioTransport::readErr()
{
    m_err += m_process.readAllStandardError();
    qsizetype newline;
    while ((newline = m_err.indexOf('\n')) >= 0) {
        qCInfo(lcMcp).noquote() << "mcp stderr:" << m_name << QString::fromUtf8(m_err.left(newline));
        m_err.remove(0, newline + 1);
    }
}

} // namespace qcode
