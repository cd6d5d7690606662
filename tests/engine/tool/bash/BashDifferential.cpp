#include "BashDifferential.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

constexpr int RunTimeoutMs = 2000;

// Names with a shim of their own in PATH; everything else reaches
// command_not_found_handle. Both record the same way.
const char *const ShimNames[] = {"ls", "cat", "grep", "rm", "touch", "echo", "printf", "env", "xargs", "find",
                                 "sort", "true", "false", "mkdir", "test", "[", "nice", "timeout"};

bool writeExecutable(const QString &path, const QByteArray &content)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        return false;
    file.close();
    return file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

} // namespace

BashDifferential::BashDifferential()
{
    m_bash = QFileInfo::exists(u"/bin/bash"_s) ? u"/bin/bash"_s : QStandardPaths::findExecutable(u"bash"_s);
    if (m_bash.isEmpty()) {
        m_error = u"bash is not installed"_s;
        return;
    }
    if (!m_scratch.isValid()) {
        m_error = u"no scratch folder: "_s + m_scratch.errorString();
        return;
    }
    const QDir root(m_scratch.path());
    root.mkpath(u"shims"_s);
    root.mkpath(u"bin"_s);
    root.mkpath(u"home"_s);
    // dash's printf is a builtin of its own, and dash reads no BASH_ENV.
    // Fields end with \037, a command with \036.
    // One write per command, so commands of a pipeline do not interleave.
    const QByteArray shim = "#!/bin/sh\nr=$(printf '%s\\037' \"${0##*/}\" \"$@\")\n"
                            "printf '%s\\036' \"$r\" >> \"$QCODE_DIFF_LOG\"\n"
                            "case ${0##*/} in false|read) exit 1 ;; esac\nexit 0\n";
    // false and read fail, so "while false" and "while read" loops end.
    const QByteArray notFound = "#!/bin/sh\nr=$(printf '%s\\037' \"$@\")\n"
                                "printf '%s\\036' \"$r\" >> \"$QCODE_DIFF_LOG\"\n"
                                "case $1 in false|read) exit 1 ;; esac\nexit 0\n";
    bool written = writeExecutable(root.filePath(u"bin/notfound"_s), notFound);
    for (const char *name : ShimNames)
        written = written && writeExecutable(root.filePath(u"shims/"_s + QString::fromLatin1(name)), shim);
    // One enable -n for every builtin but enable itself, listed once here:
    // the prelude runs before every line.
    QProcess list;
    list.start(m_bash, {u"--norc"_s, u"-c"_s, u"enable"_s});
    list.waitForFinished(RunTimeoutMs);
    QByteArray builtins;
    for (const QByteArray &entry : list.readAllStandardOutput().split('\n')) {
        const QByteArray name = entry.mid(entry.indexOf(' ') + 1).trimmed();
        if (!name.isEmpty() && name != "enable")
            builtins += " '" + name + "'";
    }
    if (builtins.isEmpty()) {
        m_error = u"bash does not list its builtins"_s;
        return;
    }
    const QByteArray prelude = "command_not_found_handle() { " + root.filePath(u"bin/notfound"_s).toUtf8()
                               + " \"$@\"; }\nenable -n" + builtins + "\nenable -n enable\n";
    written = written && writeExecutable(root.filePath(u"prelude.sh"_s), prelude);
    if (!written)
        m_error = u"the shims could not be written"_s;
}

BashDifferential::Run BashDifferential::run(const QString &line)
{
    Run result;
    const QDir root(m_scratch.path());
    // A log per run: a background job of the previous line that writes late
    // writes to its own line's log.
    const QString log = root.filePath(u"log-%1"_s.arg(++m_runs));
    const QString work = root.filePath(u"work"_s);
    QFile::remove(log);
    QDir(work).removeRecursively();
    root.mkpath(u"work"_s);

    QProcessEnvironment environment;
    environment.insert(u"PATH"_s, root.filePath(u"shims"_s));
    environment.insert(u"BASH_ENV"_s, root.filePath(u"prelude.sh"_s));
    environment.insert(u"QCODE_DIFF_LOG"_s, log);
    environment.insert(u"HOME"_s, root.filePath(u"home"_s));
    environment.insert(u"LC_ALL"_s, u"C"_s);
    QProcess bash;
    bash.setProcessEnvironment(environment);
    bash.setWorkingDirectory(work);
    bash.setStandardInputFile(QProcess::nullDevice());
    bash.setProcessChannelMode(QProcess::MergedChannels);
    bash.start(m_bash, {u"-c"_s, line});
    if (!bash.waitForStarted(RunTimeoutMs))
        return result;
    if (!bash.waitForFinished(RunTimeoutMs)) {
        result.timedOut = true;
        bash.kill();
        bash.waitForFinished(RunTimeoutMs);
    }
    QFile file(log);
    if (!file.open(QIODevice::ReadOnly))
        return result;
    const QByteArray content = file.readAll();
    for (const QByteArray &record : content.split('\x1e')) {
        if (record.isEmpty())
            continue;
        QStringList argv;
        QList<QByteArray> fields = record.split('\x1f');
        fields.removeLast(); // after the last \037
        for (const QByteArray &field : std::as_const(fields))
            argv.append(QString::fromUtf8(field));
        if (!argv.isEmpty())
            result.executed.append(argv);
    }
    return result;
}

QString BashDifferential::missed(const BashLineAnalysis &analysis, const QList<QStringList> &executed)
{
    if (analysis.isOpaque())
        return {};
    const QList<BashLineAnalysis::Command> commands = analysis.commands();
    for (const QStringList &argv : executed) {
        const QString name = argv.first();
        bool found = false;
        for (const BashLineAnalysis::Command &command : commands) {
            if (command.setsVariables && command.words.isEmpty())
                continue;
            const QString reported = command.name();
            if (reported != name && reported.section(u'/', -1) != name)
                continue;
            if (!command.isStatic()) {
                found = true;
                break;
            }
            QStringList words;
            for (qsizetype k = 1; k < command.words.size(); ++k)
                words.append(*command.words.at(k).value);
            if (words == argv.mid(1)) {
                found = true;
                break;
            }
        }
        if (!found)
            return u"bash ran [%1], which the checker did not report"_s.arg(argv.join(u"] ["_s));
    }
    return {};
}

} // namespace qcode
