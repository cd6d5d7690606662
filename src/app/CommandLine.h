#pragma once

#include <QStringList>

class QCommandLineParser;

namespace qcode::CommandLine {

void setApplicationInfo();
void configure(QCommandLineParser &parser);
// True when the arguments only ask for text (--help, --version), which
// needs no display.
bool wantsTextOnly(int argc, char *argv[]);
// True for the headless commands (`qcode run …`, `export`, `import`,
// `sessions`, `mcp`), which never open a window.
bool isHeadlessCommand(int argc, char *argv[]);
// Runs a headless command: `arguments` are the words after `qcode`, the
// command's name first. Returns the exit status. Needs a QCoreApplication.
int runHeadless(const QStringList &arguments);
// True when --new-instance asks for a window of its own even though qcode
// is already running.
bool wantsNewInstance(const QCommandLineParser &parser);

} // namespace qcode::CommandLine
