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
                                 "sort", "true", "mkdir", "test", "[", "nice", "timeout"};

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
                            "printf '%s\\036' \"$r\" >> \"$QCODE_DIFF_LOG\"\nexit 0\n";
    const QByteArray notFound = "#!/bin/sh\nr=$(printf '%s\\037' \"$@\")\n"
                                "printf '%s\\036' \"$r\" >> \"$QCODE_DIFF_LOG\"\nexit 0\n";
    bool written = writeExecutable(root.filePath(u"bin/notfound"_s), notFound);
    for (const char *name : ShimNames)
        written = written && writeExecutable(root.filePath(u"shims/"_s + QString::fromLatin1(name)), shim);
    const QByteArray prelude = "command_not_found_handle() { " + root.filePath(u"bin/notfound"_s).toUtf8()
                               + " \"$@\"; }\n"
                                 "for b in $(enable | { while read -r _ name; do printf '%s ' \"$name\"; done; }); do\n"
                                 "  case $b in enable) ;; *) enable -n \"$b\" ;; esac\n"
                                 "done\n"
                                 "enable -n enable\n";
    written = written && writeExecutable(root.filePath(u"prelude.sh"_s), prelude);
    if (!written)
        m_error = u"the shims could not be written"_s;
}

BashDifferential::Run BashDifferential::run(const QString &line)
{
    Run result;
    const QDir root(m_scratch.path());
    const QString log = root.filePath(u"log"_s);
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
