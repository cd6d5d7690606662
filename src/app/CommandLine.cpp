#include "CommandLine.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstring>

using namespace Qt::StringLiterals;

namespace qcode::CommandLine {

void setApplicationInfo()
{
    QCoreApplication::setApplicationName(u"qcode"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(QCODE_VERSION));
}

void configure(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "qcode — a desktop coding agent.\n\n"
                                            "Commands:\n"
                                            "  qcode run [message…]  Answer one message without a window, on the\n"
                                            "                        terminal (see qcode run --help).\n\n"
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

bool isRunCommand(int argc, char *argv[])
{
    return argc > 1 && std::strcmp(argv[1], "run") == 0;
}

} // namespace qcode::CommandLine
