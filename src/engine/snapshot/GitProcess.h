#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <QCoro/QCoroTask>

#include "model/Result.h"

namespace qcode {

// What one git command printed and how it ended.
struct GitOutput {
    int exitCode = 0;
    QByteArray out;
    QByteArray err;

    bool ok() const { return exitCode == 0; }
};

// Runs one git command without blocking the calling thread: the process is
// awaited (QCoro), never waited for. A command that ran and failed is a
// GitOutput with its exit code; only a git that could not be started (not
// installed, not executable) or that crashed is an Error.
class GitProcess
{
    Q_DECLARE_TR_FUNCTIONS(GitProcess)

public:
    // Whether the failure of run() meant git itself is missing.
    struct Failure {
        bool notStarted = false;
    };

    // Pathspecs on the command line are relative to `workingDirectory`.
    static QCoro::Task<Result<GitOutput>> run(QString program, QStringList arguments, QString workingDirectory,
                                              QByteArray input = {}, Failure *failure = nullptr);
};

} // namespace qcode
