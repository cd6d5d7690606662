#pragma once

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include "engine/config/ConfigLocations.h"

class QIODevice;

namespace qcode {

// `qcode mcp list`: the MCP servers the folder's config names, each
// connected as a prompt would connect it, with its status and its number
// of tools. Runs to its end on the calling thread (an event loop of its
// own); the servers are closed before it returns.
class McpCommand
{
    Q_DECLARE_TR_FUNCTIONS(McpCommand)

public:
    McpCommand(ConfigLocations locations, QProcessEnvironment environment, QIODevice *out, QIODevice *err);

    // `arguments` are the words after `qcode mcp`. Exit status: 0 listed,
    // 1 the config is broken, 2 bad arguments.
    int run(const QStringList &arguments);
    int list();

    static bool isCommand(const QString &word) { return word == QLatin1String("mcp"); }
    static QString help();

private:
    ConfigLocations m_locations;
    QProcessEnvironment m_environment;
    QIODevice *m_out;
    QIODevice *m_err;
};

// From main(): `arguments` are the words after `qcode mcp`.
int mcpCommandMain(const QStringList &arguments);

} // namespace qcode
