#include "BashTool.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QStandardPaths>

#include <limits>

#include "ToolLogging.h"
#include "ToolPermission.h"
#include "bash/BashArity.h"
#include "bash/BashLineAnalysis.h"
#include "engine/session/shell/ShellProcess.h"

namespace qcode {

namespace {

// OpenCode's kill timer fires this long after the timeout.
constexpr int TimeoutSlackMs = 100;

QString preview(const QString &output)
{
    return ShellProcess::preview(output, BashTool::MaxMetadataOutput);
}

QString expandHome(const QString &path)
{
    if (path == QLatin1String("~"))
        return QDir::homePath();
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

// Where a path argument points, as realpath(1) finds it. A glob stands for
// its folder. A path whose folders do not exist yet (mkdir -p a/b/c, > a/b/f)
// is judged by its nearest existing ancestor: creating it writes there.
// Empty: unknown.
QString resolveArgument(const QString &workdir, const QString &argument)
{
    QString path = expandHome(argument);
    const qsizetype glob = path.indexOf(QRegularExpression(QStringLiteral("[*?\\[]")));
    if (glob >= 0) {
        const qsizetype slash = path.lastIndexOf(u'/', glob);
        if (slash < 0)
            return {};
        path = slash == 0 ? QStringLiteral("/") : path.left(slash);
    }
    QString absolute = QDir::cleanPath(QDir(workdir).absoluteFilePath(path));
    while (!QFileInfo(QFileInfo(absolute).path()).isDir()) {
        const QString parent = QFileInfo(absolute).path();
        if (parent == absolute)
            return {};
        absolute = parent;
    }
    return ToolPermission::resolvedPath(workdir, absolute);
}

// Characters that make a stored "always" pattern match more than the line
// it was given for.
bool hasWildcards(const QString &line)
{
    return line.contains(u'*') || line.contains(u'?') || line.contains(u'\\');
}

QString directoryPattern(const QString &dir)
{
    return dir.endsWith(u'/') ? QString(dir + u'*') : QString(dir + QStringLiteral("/*"));
}

} // namespace

BashTool::BashTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString BashTool::name() const
{
    return QStringLiteral("bash");
}

QString BashTool::description() const
{
    // Instructions for the model, in qcode's words; not translated.
    return QStringLiteral(
        "Runs a command line in a shell and returns its output (stdout and stderr together).\n\n"
        "Usage:\n"
        "- The command runs in the project directory; use workdir to run it elsewhere instead of \"cd <dir> "
        "&&\".\n"
        "- It is stopped after timeout milliseconds (default 120000, two minutes). Commands that wait for "
        "input never get any: pass flags that make them non-interactive.\n"
        "- Quote paths that contain spaces.\n"
        "- Chain dependent commands with &&; make independent calls in parallel instead.\n"
        "- Prefer the read, glob and grep tools to cat, head, tail, find, grep and ls, and the edit and write "
        "tools to sed, awk and echo > file.\n"
        "- Long output is cut; the full text is saved to a file you can read.\n"
        "- Give a description of what the command does in 5 to 10 words.");
}

QJsonObject BashTool::parameters() const
{
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("command"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                          {QStringLiteral("description"), QStringLiteral("The command to execute")}}},
             {QStringLiteral("timeout"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("number")},
                          {QStringLiteral("description"), QStringLiteral("Optional timeout in milliseconds")}}},
             {QStringLiteral("workdir"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                          {QStringLiteral("description"),
                           QStringLiteral("The working directory to run the command in. Defaults to the project "
                                          "directory. Use this instead of 'cd' commands.")}}},
             {QStringLiteral("description"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                          {QStringLiteral("description"),
                           QStringLiteral("Clear, concise description of what this command does in 5-10 words. "
                                          "Examples:\nInput: ls\nOutput: Lists files in current directory\n\n"
                                          "Input: git status\nOutput: Shows working tree status\n\n"
                                          "Input: npm install\nOutput: Installs package dependencies\n\n"
                                          "Input: mkdir foo\nOutput: Creates directory 'foo'")}}},
         }},
        {QStringLiteral("required"), QJsonArray{QStringLiteral("command"), QStringLiteral("description")}},
    };
}

QString BashTool::shell()
{
    const QString configured = qEnvironmentVariable("SHELL");
    const QString base = QFileInfo(configured).fileName();
    if (!configured.isEmpty() && base != QLatin1String("fish") && base != QLatin1String("nu")
        && QFileInfo(configured).isExecutable())
        return configured;
    const QString bash = QStandardPaths::findExecutable(QStringLiteral("bash"));
    return bash.isEmpty() ? QStringLiteral("/bin/sh") : bash;
}

QCoro::Task<ToolResult> BashTool::execute(QJsonObject arguments, ToolContext context)
{
    const QString command = arguments.value(QStringLiteral("command")).toString();
    const QString description = arguments.value(QStringLiteral("description")).toString();
    if (command.trimmed().isEmpty())
        co_return ToolFailure{QStringLiteral("command is required")};

    qint64 timeout = DefaultTimeoutMs;
    const QJsonValue timeoutValue = arguments.value(QStringLiteral("timeout"));
    if (!timeoutValue.isUndefined() && !timeoutValue.isNull()) {
        if (!timeoutValue.isDouble() || timeoutValue.toDouble() < 0)
            co_return ToolFailure{QStringLiteral("Invalid timeout value: %1. Timeout must be a positive number.")
                                      .arg(timeoutValue.isDouble() ? QString::number(timeoutValue.toDouble())
                                                                   : timeoutValue.toVariant().toString())};
        // QTimer counts in int milliseconds (24 days).
        timeout = qint64(std::min(timeoutValue.toDouble(), double(std::numeric_limits<int>::max() - TimeoutSlackMs)));
    }

    const QString workdirArgument = arguments.value(QStringLiteral("workdir")).toString();
    const QString workdir = workdirArgument.isEmpty()
                                ? QDir::cleanPath(context.directory)
                                : QDir::cleanPath(QDir(context.directory).absoluteFilePath(expandHome(workdirArgument)));
    if (!QFileInfo(workdir).isDir())
        co_return ToolFailure{QStringLiteral("workdir %1 is not a directory").arg(workdir)};

    // What to ask: folders outside the project, then each command.
    QStringList externalDirs;
    const auto addExternal = [&externalDirs](const QString &dir) {
        const QString pattern = directoryPattern(dir);
        if (!externalDirs.contains(pattern))
            externalDirs.append(pattern);
    };
    const QString resolvedWorkdir = ToolPermission::resolvedPath(QString(), workdir);
    if (!ToolPermission::isInsideProject(context, resolvedWorkdir))
        addExternal(resolvedWorkdir);
    const auto checkPath = [&](const QString &argument) {
        const QString resolved = resolveArgument(workdir, argument);
        if (resolved.isEmpty() || ToolPermission::isInsideProject(context, resolved))
            return;
        addExternal(QFileInfo(resolved).isDir() ? resolved : QFileInfo(resolved).path());
    };
    QStringList patterns;
    QStringList always;
    const BashLineAnalysis analysis = BashLineAnalysis::analyze(command);
    const QList<BashLineAnalysis::Command> commands = analysis.commands();
    for (const BashLineAnalysis::Command &simple : commands) {
        for (const QString &argument : BashLineAnalysis::pathArguments(simple))
            checkPath(argument);
        if (simple.name() == QLatin1String("cd"))
            continue;
        if (!patterns.contains(simple.text))
            patterns.append(simple.text);
        // A declaration or assignment is allowed again only as written.
        const QString alwaysPattern = simple.setsVariables
                                          ? (hasWildcards(simple.text) ? QString() : simple.text)
                                          : BashArity::alwaysPattern(simple.tokens());
        if (!alwaysPattern.isEmpty() && !always.contains(alwaysPattern))
            always.append(alwaysPattern);
    }

    // Redirections write files as surely as cp does (OpenCode misses them).
    // /dev/null and the like are no one's files.
    for (const QString &target : analysis.redirectTargets()) {
        if (!target.startsWith(QLatin1String("/dev/")))
            checkPath(target);
    }
    // A line the checker cannot account for is judged as a whole, by the
    // bash rule for "*": never by the commands it happened to find. The
    // same for a line with no command at all, which can still act
    // ("> file" empties a file).
    const bool whole = analysis.isOpaque() || commands.isEmpty();
    if (whole) {
        patterns = QStringList{command.trimmed()};
        always = hasWildcards(command.trimmed()) ? QStringList() : QStringList{command.trimmed()};
        if (analysis.isOpaque())
            qCDebug(lcTool) << "bash line judged as a whole:" << analysis.opaqueReason();
    }

    if (!externalDirs.isEmpty()) {
        PermissionRequest ask;
        ask.permission = QStringLiteral("external_directory");
        ask.patterns = externalDirs;
        ask.always = externalDirs;
        ask.metadata = QJsonObject{{QStringLiteral("command"), command}};
        QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
        if (std::optional<ToolFailure> refused = co_await asking)
            co_return *refused;
    }
    if (!patterns.isEmpty()) {
        PermissionRequest ask;
        ask.permission = QStringLiteral("bash");
        ask.patterns = patterns;
        ask.always = always;
        ask.judgedWhole = whole;
        ask.metadata = QJsonObject{{QStringLiteral("command"), command}, {QStringLiteral("description"), description}};
        if (analysis.isOpaque())
            ask.metadata.insert(QStringLiteral("judgedWhole"), analysis.opaqueReason());
        QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
        if (std::optional<ToolFailure> refused = co_await asking)
            co_return *refused;
    }

    const QString title = description.isEmpty() ? command : description;
    ShellProcess::Options run;
    run.program = shell();
    run.arguments = {QStringLiteral("-c"), command};
    run.workingDirectory = workdir;
    run.timeoutMs = timeout + TimeoutSlackMs;
    run.abort = context.abort;
    run.progressInterval = std::chrono::milliseconds(ProgressIntervalMs);
    // The preview stops changing once it is full.
    run.progressLimit = MaxMetadataOutput;
    const auto progress = context.progress;
    run.progress = [progress, title, description](const QString &output) {
        if (progress)
            progress(title, QJsonObject{{QStringLiteral("output"), preview(output)},
                                        {QStringLiteral("description"), description}});
    };
    qCDebug(lcTool) << "bash" << command;
    QCoro::Task<ShellProcess::Outcome> running = ShellProcess::run(std::move(run));
    const ShellProcess::Outcome outcome = co_await running;
    if (outcome.startError)
        co_return ToolFailure{*outcome.startError};
    QString output = outcome.output;

    QStringList notes;
    if (outcome.timedOut)
        notes.append(QStringLiteral("bash tool terminated command after exceeding timeout %1 ms").arg(timeout));
    if (outcome.aborted)
        notes.append(QStringLiteral("User aborted the command"));
    if (!notes.isEmpty())
        output += QStringLiteral("\n\n<bash_metadata>\n") + notes.join(u'\n') + QStringLiteral("\n</bash_metadata>");

    const QJsonValue exitCode = outcome.exitCode ? QJsonValue(*outcome.exitCode) : QJsonValue(QJsonValue::Null);

    ToolOutput result;
    result.title = title;
    result.output = output;
    result.metadata = QJsonObject{
        {QStringLiteral("output"), preview(output)},
        {QStringLiteral("exit"), exitCode},
        {QStringLiteral("description"), description},
    };
    if (context.progress)
        context.progress(title, result.metadata);
    co_return result;
}

} // namespace qcode
