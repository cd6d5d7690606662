#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include "McpTransport.h"

namespace qcode {

// A local MCP server: the program of `command` as a child in its own
// process group, one JSON-RPC message per line on stdin and stdout
// (UTF-8, "\n" ended, one trailing "\r" stripped). Its stderr goes to the
// log line by line. Closing ends stdin and sends the whole group SIGTERM,
// then SIGKILL after a grace period, so helpers the server started (npx
// starts node) go with it.
class McpStdioTransport : public McpTransport
{
    Q_OBJECT

public:
    McpStdioTransport(QString serverName, QStringList command, QProcessEnvironment environment,
                      QString workingDirectory, QObject *parent = nullptr);
    ~McpStdioTransport() override;

    void open() override;
    void send(const QJsonObject &message) override;
    void close() override;

    qint64 processId() const { return m_process.processId(); }

    static constexpr int KillGraceMs = 2000;

private:
    void readOut();
    void readErr();
    void signalGroup(int signal);

    QString m_name;
    QStringList m_command;
    QProcess m_process;
    QByteArray m_out;
    QByteArray m_err;
    bool m_started = false;
    bool m_closing = false;
};

} // namespace qcode
