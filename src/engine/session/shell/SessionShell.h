#pragma once

#include <QCoreApplication>
#include <QPointer>
#include <QProcessEnvironment>
#include <QString>

#include <QCoro/QCoroTask>

#include <functional>

#include "engine/session/loop/AbortSignal.h"
#include "engine/session/SessionEvents.h"
#include "model/Message.h"
#include "model/Result.h"

namespace qcode {

class Store;

// What one `!command` typed by the person needs.
struct ShellRun {
    QString sessionID;
    QString command;
    QString agent;
    ModelRef model;
    QString directory; // where it runs: the session's folder
    QString worktree;
    QString shell;     // the program, UserShell::preferred
    QProcessEnvironment environment;
    QPointer<AbortSignal> abort;
    // Where OutputTruncation saves output too long for the model, and
    // which hint it gives (the agent may use the task tool).
    QString dataDirectory;
    bool agentCanUseTask = true;
};

// OpenCode's SessionPrompt.shell (reference §2.9): a command the person
// runs themselves, recorded as a message pair the model reads later — a
// user message with the synthetic text "The following tool was executed by
// the user", and an assistant message with one `bash` tool part whose input
// is {command}. The output streams into the running part's metadata.output
// (the first 30,000 characters, updated at most every 50 ms); at the end
// the part is completed with the whole output, cut for the model as tool
// output is (OutputTruncation). An abort kills the command's process group
// and the output ends with "<metadata>User aborted the command</metadata>".
// The caller makes sure the session is idle and reports its status.
class SessionShell
{
    Q_DECLARE_TR_FUNCTIONS(SessionShell)

public:
    static constexpr int ProgressIntervalMs = 50;
    static constexpr qsizetype MaxMetadataOutput = 30000;
    static constexpr QLatin1StringView UserText{"The following tool was executed by the user"};

    // The assistant message's id once the command has ended; an error only
    // when the messages could not be written.
    static QCoro::Task<Result<QString>> run(Store &store, SessionEventSink &sink, ShellRun run,
                                            std::function<qint64()> now);
};

} // namespace qcode
