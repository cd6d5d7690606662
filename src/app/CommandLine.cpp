#include "CommandLine.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstring>

#include "mcp/McpCommand.h"
#include "run/RunCommand.h"
#include "transfer/TransferCommand.h"

using namespace Qt::StringLiterals;

namespace qcode::CommandLine {

void setApplicationInfo()
{
    QCoreApplication::setApplicationName(u"qcode"_s);
    // QSettings files go under the organisation ("Unknown Organization"
    // without one); data and config folders stay where they were
    // (DataPaths::applicationFolder).
    QCoreApplication::setOrganizationName(u"qcode"_s);
    QCoreApplication::setOrganizationDomain(u"qcode.dev"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(QCODE_VERSION));
}

void configure(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "qcode — a desktop coding agent.\n\n"
                                            "Commands (each has --help):\n"
                                            "  qcode run [message…]  Answer one message without a window, on the\n"
                                            "                        terminal.\n"
                                            "  qcode export ID       Write a session as OpenCode's export JSON or\n"
                                            "                        as Markdown.\n"
                                            "  qcode import FILE     Add a session from an export file.\n"
                                            "  qcode sessions        List the stored sessions.\n"
                                            "  qcode mcp list        Connect the folder's MCP servers and show\n"
                                            "                        their status.\n\n"
                                            "Environment: QCODE_DATA_DIR overrides where the database lives."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({u"new-instance"_s,
                      QCoreApplication::translate("main", "Open a window of its own even when qcode is already running "
                                                          "(by default the folder opens in the running window).")});
    parser.addPositionalArgument(u"folder"_s, QCoreApplication::translate("main", "Project folder to open."),
                                 u"[folder]"_s);
}

bool wantsTextOnly(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        for (const char *flag : {"--help", "-h", "-?", "--help-all", "--version", "-v"}) {
            if (std::strcmp(argv[i], flag) == 0)
                return true;
        }
    }
    return false;
}

bool wantsNewInstance(const QCommandLineParser &parser)
{
    return parser.isSet(u"new-instance"_s);
}

bool isHeadlessCommand(int argc, char *argv[])
{
    return argc > 1
           && (std::strcmp(argv[1], "run") == 0 || TransferCommand::isCommand(QString::fromLocal8Bit(argv[1]))
               || McpCommand::isCommand(QString::fromLocal8Bit(argv[1])));
}

int runHeadless(const QStringList &arguments)
{
    const QString command = arguments.value(0);
    if (command == "run"_L1)
        return runCommandMain(arguments.mid(1));
    if (McpCommand::isCommand(command))
        return mcpCommandMain(arguments.mid(1));
    return transferCommandMain(command, arguments.mid(1));
}

} // namespace qcode::CommandLine
