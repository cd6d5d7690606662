#include "GitProcess.h"

#include <QProcess>
#include <QProcessEnvironment>

#include <QCoro/QCoroProcess>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Variables that would point git at another repository, index or object
// folder than the one named on its command line (qcode started from a git
// hook, or from a shell that set them).
QProcessEnvironment cleanEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &name : {u"GIT_DIR"_s, u"GIT_WORK_TREE"_s, u"GIT_INDEX_FILE"_s, u"GIT_OBJECT_DIRECTORY"_s,
                                u"GIT_ALTERNATE_OBJECT_DIRECTORIES"_s, u"GIT_CEILING_DIRECTORIES"_s})
        environment.remove(name);
    // Messages are parsed nowhere, but logged: keep them in one language.
    environment.insert(u"LC_ALL"_s, u"C"_s);
    environment.insert(u"GIT_TERMINAL_PROMPT"_s, u"0"_s);
    return environment;
}

} // namespace

QCoro::Task<Result<GitOutput>> GitProcess::run(QString program, QStringList arguments, QString workingDirectory,
                                               QByteArray input, Failure *failure)
{
    QProcess process;
    process.setWorkingDirectory(workingDirectory);
    process.setProcessEnvironment(cleanEnvironment());
    process.setProcessChannelMode(QProcess::SeparateChannels);
    QCoro::Task<bool> starting = qCoro(process).start(program, arguments, QIODevice::ReadWrite);
    const bool started = co_await starting;
    if (!started) {
        if (failure)
            failure->notStarted = true;
        co_return Error{tr("Cannot run %1: %2").arg(program, process.errorString())};
    }
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (process.state() != QProcess::NotRunning) {
        QCoro::Task<bool> finishing = qCoro(process).waitForFinished(std::chrono::milliseconds(-1));
        co_await finishing;
    }
    if (process.exitStatus() != QProcess::NormalExit)
        co_return Error{tr("%1 %2 crashed.").arg(program, arguments.value(0))};
    co_return GitOutput{process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace qcode
