#pragma once

#include <QPointer>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <QCoro/QCoroTask>

#include <chrono>
#include <functional>
#include <limits>
#include <optional>

#include "engine/session/loop/AbortSignal.h"

namespace qcode {

// One command run in a process group of its own, awaited without blocking
// the engine thread: the model's bash tool, the person's `!command` and the
// !`cmd` segments of slash commands all run through it.
//
// stdout and stderr are read as one UTF-8 stream (invalid bytes replaced),
// kept up to MaxCapturedOutput characters. On timeout or abort the whole
// group gets SIGTERM, then SIGKILL after a short grace, so children the
// command started go too; a child left running in the background does not
// hold the run open once the command itself has exited.
class ShellProcess
{
public:
    // Memory bound for one command's output; the rest is dropped with a note.
    static constexpr qsizetype MaxCapturedOutput = 8 * 1024 * 1024;

    struct Options {
        QString program;
        QStringList arguments;
        QString workingDirectory;
        // Unset: the engine process's own environment.
        std::optional<QProcessEnvironment> environment;
        // Unset: no limit.
        std::optional<qint64> timeoutMs;
        // Null from the start: the run cannot be aborted. Set, its abort()
        // or its destruction stops the command.
        QPointer<AbortSignal> abort;
        // Told the output so far: once before the start (empty), then at
        // most every progressInterval while output grows, until the output
        // passes progressLimit (a preview that stops changing once full).
        std::function<void(const QString &output)> progress;
        std::chrono::milliseconds progressInterval{100};
        qsizetype progressLimit = std::numeric_limits<qsizetype>::max();
    };

    struct Outcome {
        // Set when the program could not be started: a full sentence.
        std::optional<QString> startError;
        // Capped at MaxCapturedOutput, with a note saying so when it was.
        QString output;
        bool timedOut = false;
        bool aborted = false;
        // Unset when the process ended by a signal (killed, crashed).
        std::optional<int> exitCode;
    };

    static QCoro::Task<Outcome> run(Options options);

    // The first `limit` characters of `output`, and "\n\n..." when there
    // is more: what a tool part's live metadata shows.
    static QString preview(const QString &output, qsizetype limit);
};

} // namespace qcode
