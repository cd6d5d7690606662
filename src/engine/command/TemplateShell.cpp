#include "TemplateShell.h"

#include "CommandLogging.h"
#include "CommandTemplate.h"
#include "engine/session/shell/ShellProcess.h"
#include "engine/session/shell/UserShell.h"

namespace qcode {

QCoro::Task<QString> TemplateShell::expand(QString text, Options options)
{
    const QStringList commands = CommandTemplate::shellCommands(text);
    if (commands.isEmpty())
        co_return text;
    QStringList outputs;
    for (const QString &command : commands) {
        ShellProcess::Options run;
        run.program = options.shell;
        run.arguments = UserShell::arguments(options.shell, command, UserShell::Mode::Plain);
        run.workingDirectory = options.directory;
        run.environment = options.environment;
        run.timeoutMs = options.timeoutMs;
        qCInfo(lcCommands) << "running the template's command" << command << "in" << options.directory;
        QCoro::Task<ShellProcess::Outcome> running = ShellProcess::run(std::move(run));
        const ShellProcess::Outcome outcome = co_await running;
        if (outcome.startError) {
            outputs.append(*outcome.startError);
            continue;
        }
        QString output = outcome.output;
        // Part of the prompt the model reads: English, not translated.
        if (outcome.timedOut)
            output += QStringLiteral("\n(stopped after %1 ms)").arg(options.timeoutMs);
        outputs.append(output);
    }
    co_return CommandTemplate::replaceShellCommands(text, outputs);
}

} // namespace qcode
