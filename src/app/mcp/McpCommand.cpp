#include "McpCommand.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QIODevice>

#include <QCoro/QCoroTask>

#include "engine/config/ConfigLoader.h"
#include "engine/config/McpConfig.h"
#include "engine/mcp/McpManager.h"
#include "engine/session/project/ProjectInstance.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Long enough for a server fetched by npx on first use; OpenCode's own
// connect timeout (30 s) ends each server before this.
constexpr int ListWaitMs = 120000;

} // namespace

McpCommand::McpCommand(ConfigLocations locations, QProcessEnvironment environment, QIODevice *out, QIODevice *err)
    : m_locations(std::move(locations))
    , m_environment(std::move(environment))
    , m_out(out)
    , m_err(err)
{
}

QString McpCommand::help()
{
    return tr("Usage: qcode mcp list\n\n"
              "Lists the MCP servers of the current folder's configuration (the \"mcp\" key of\n"
              "opencode.json), connects each one and shows its status and number of tools.\n");
}

int McpCommand::run(const QStringList &arguments)
{
    if (arguments.contains(u"--help"_s) || arguments.contains(u"-h"_s)) {
        m_out->write(help().toLocal8Bit());
        return 0;
    }
    if (arguments.value(0) == "list"_L1 || arguments.value(0) == "ls"_L1)
        return list();
    m_err->write(tr("qcode mcp: unknown command \"%1\".\n").arg(arguments.value(0)).toLocal8Bit());
    m_err->write(help().toLocal8Bit());
    return 2;
}

int McpCommand::list()
{
    const LoadedConfig loaded = ConfigLoader::load(m_locations);
    if (!loaded.errors.isEmpty()) {
        for (const ConfigError &error : loaded.errors)
            m_err->write((error.toString() + u'\n').toLocal8Bit());
        return 1;
    }
    const McpConfig config = McpConfig::fromJson(loaded.json);
    if (config.servers.isEmpty()) {
        m_out->write(tr("No MCP servers are configured.\n").toLocal8Bit());
        return 0;
    }
    McpManager manager(config, m_locations.projectDirectory, m_environment);
    manager.connectAll();
    QEventLoop loop;
    QCoro::connect(manager.settled(ListWaitMs), &loop, [&loop] { loop.quit(); });
    if (manager.connecting())
        loop.exec();

    qsizetype width = 0;
    for (const McpServerStatus &status : manager.statuses())
        width = qMax(width, status.name.size());
    for (const McpServerStatus &status : manager.statuses()) {
        const McpServerConfig *server = config.server(status.name);
        const QString where = server->type == McpServerConfig::Type::Local ? server->command.join(u' ') : server->url;
        m_out->write(u"%1  %2\n%3    %4\n"_s.arg(status.name.leftJustified(width), status.describe(),
                                                   QString(width, u' '), where)
                         .toLocal8Bit());
    }
    return 0;
}

int mcpCommandMain(const QStringList &arguments)
{
    QFile out;
    QFile err;
    if (!out.open(stdout, QIODevice::WriteOnly) || !err.open(stderr, QIODevice::WriteOnly))
        return 1;
    const QString directory = QDir::currentPath();
    McpCommand command(ConfigLocations::forSystem(directory, ProjectInstance::findWorktree(directory)),
                       QProcessEnvironment::systemEnvironment(), &out, &err);
    return command.run(arguments);
}

} // namespace qcode
