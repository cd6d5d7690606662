#pragma once

class QCommandLineParser;

namespace qcode::CommandLine {

void setApplicationInfo();
void configure(QCommandLineParser &parser);
// True when the arguments only ask for text (--help, --version), which
// needs no display.
bool wantsTextOnly(int argc, char *argv[]);
// True for `qcode run …`, the headless mode, which never opens a window.
bool isRunCommand(int argc, char *argv[]);
// True when --new-instance asks for a window of its own even though qcode
// is already running.
bool wantsNewInstance(const QCommandLineParser &parser);

} // namespace qcode::CommandLine
