#include "ShellProcess.h"

#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QStringDecoder>
#include <QTimer>

#include <QCoro/QCoroProcess>
#include <QCoro/QCoroSignal>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

#include "engine/session/SessionLogging.h"

namespace qcode {

namespace {

// How long a group has after SIGTERM before SIGKILL.
constexpr int KillGraceMs = 200;
// How long a started program may take to be running.
constexpr std::chrono::seconds StartTimeout(5);

} // namespace

QString ShellProcess::preview(const QString &output, qsizetype limit)
{
    if (output.size() <= limit)
        return output;
    return output.left(limit) + QStringLiteral("\n\n...");
}

QCoro::Task<ShellProcess::Outcome> ShellProcess::run(Options options)
{
    // Declared before the process: its signal connections use them and
    // end with it.
    Outcome outcome;
    bool capped = false;
    bool killing = false;
    bool progressDue = false;
    qint64 pid = 0;
    QStringDecoder decoder(QStringDecoder::Utf8);
    QTimer timeoutTimer;
    QTimer progressTimer;

    const auto publishProgress = [&] {
        progressDue = false;
        if (options.progress)
            options.progress(outcome.output);
    };

    QProcess process;
    process.setProgram(options.program);
    process.setArguments(options.arguments);
    process.setWorkingDirectory(options.workingDirectory);
    if (options.environment)
        process.setProcessEnvironment(*options.environment);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());
    // Its own session and process group, so a timeout or abort reaches
    // every process the command started.
    process.setChildProcessModifier([] { (void)::setsid(); });

    const auto killGroup = [&] {
        if (killing || pid <= 0)
            return;
        killing = true;
        ::kill(-pid_t(pid), SIGTERM);
        QTimer::singleShot(KillGraceMs, &process, [&] { ::kill(-pid_t(pid), SIGKILL); });
    };

    QObject::connect(&process, &QProcess::readyReadStandardOutput, &process, [&] {
        const QByteArray bytes = process.readAllStandardOutput();
        if (capped)
            return;
        const qsizetype before = outcome.output.size();
        outcome.output += decoder.decode(bytes);
        if (outcome.output.size() > MaxCapturedOutput) {
            outcome.output.truncate(MaxCapturedOutput);
            capped = true;
        }
        if (before > options.progressLimit)
            return;
        if (progressTimer.isActive()) {
            progressDue = true;
            return;
        }
        publishProgress();
        progressTimer.start();
    });
    progressTimer.setSingleShot(true);
    progressTimer.setInterval(options.progressInterval);
    QObject::connect(&progressTimer, &QTimer::timeout, &process, [&] {
        if (!progressDue)
            return;
        publishProgress();
        progressTimer.start();
    });

    timeoutTimer.setSingleShot(true);
    QObject::connect(&timeoutTimer, &QTimer::timeout, &process, [&] {
        outcome.timedOut = true;
        killGroup();
    });

    const bool hadAbort = !options.abort.isNull();
    const auto abortNow = [&] {
        outcome.aborted = true;
        killGroup();
    };
    if (hadAbort) {
        QObject::connect(options.abort.data(), &AbortSignal::aborted, &process, abortNow);
        QObject::connect(options.abort.data(), &QObject::destroyed, &process, abortNow);
    }

    // QCoro only notices a failed start when its wait for `started` runs
    // out, so a program that is not there is caught first.
    const QString found = QStandardPaths::findExecutable(options.program);
    if (found.isEmpty()) {
        outcome.startError = QStringLiteral("Cannot run %1: it is not an executable program.").arg(options.program);
        co_return outcome;
    }
    publishProgress();
    QCoro::Task<bool> starting = qCoro(process).start(QIODevice::ReadOnly, StartTimeout);
    const bool started = co_await starting;
    if (!started) {
        outcome.startError = QStringLiteral("Cannot run %1: %2").arg(process.program(), process.errorString());
        co_return outcome;
    }
    pid = process.processId();
    qCDebug(lcSession) << "process started" << pid << options.program;
    // A run dropped before the end (the engine shutting down) must not
    // leave the command's processes behind.
    const auto reapGroup = qScopeGuard([&] {
        if (process.state() != QProcess::NotRunning)
            ::kill(-pid_t(pid), SIGKILL);
    });
    if (options.timeoutMs)
        timeoutTimer.start(int(std::min<qint64>(*options.timeoutMs, std::numeric_limits<int>::max())));
    if (hadAbort && (options.abort.isNull() || options.abort->isAborted()))
        abortNow();

    if (process.state() != QProcess::NotRunning) {
        auto finished = qCoro(&process, &QProcess::finished);
        co_await finished;
    }
    timeoutTimer.stop();
    // Children that ignored SIGTERM go now, before the group is forgotten.
    if (killing)
        ::kill(-pid_t(pid), SIGKILL);
    outcome.output += decoder.decode(process.readAllStandardOutput());
    if (capped || outcome.output.size() > MaxCapturedOutput) {
        outcome.output.truncate(MaxCapturedOutput);
        outcome.output += QStringLiteral("\n\n(output beyond %1 characters was discarded)").arg(MaxCapturedOutput);
    }
    if (process.exitStatus() == QProcess::NormalExit)
        outcome.exitCode = process.exitCode();
    qCDebug(lcSession) << "process finished" << pid << outcome.exitCode.value_or(-1)
                       << (outcome.timedOut ? "timed out" : "") << (outcome.aborted ? "aborted" : "");
    co_return outcome;
}

} // namespace qcode
