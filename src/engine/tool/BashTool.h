#pragma once

#include "Tool.h"
#include "ToolServices.h"
#include "engine/session/shell/ShellProcess.h"

namespace qcode {

// OpenCode's `bash` (reference §8.5): runs a command line with the user's
// shell in the project (or `workdir`), stdout and stderr interleaved.
//
// Before running it asks `external_directory` for the folders outside the
// project that the command line names (cd, rm, cp, mv, mkdir, touch,
// chmod, chown and cat arguments, files redirected to or from — which
// OpenCode misses — and `workdir` itself), then `bash` for
// every command the line can run (BashLineAnalysis, tree-sitter-bash), with
// OpenCode's arity prefixes as the "always" patterns. A line the checker
// cannot account for is asked for as a whole (PermissionRequest::judgedWhole):
// only the bash rule for "*" decides it.
//
// The command runs in its own process group (ShellProcess), awaited
// without blocking the engine thread; its output is shown live through the
// context's progress (the first 30,000 characters). On timeout (default two minutes) or
// abort the whole group is sent SIGTERM, then SIGKILL, and a note says
// why. A non-zero exit code is not a failure: the model reads the output.
class BashTool : public Tool
{
public:
    static constexpr qint64 DefaultTimeoutMs = 2 * 60 * 1000;
    static constexpr qsizetype MaxMetadataOutput = 30000;
    // ShellProcess's memory bound for one command's output.
    static constexpr qsizetype MaxCapturedOutput = ShellProcess::MaxCapturedOutput;
    // How often live output is passed on at most.
    static constexpr int ProgressIntervalMs = 100;

    explicit BashTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

    // $SHELL unless it is fish or nu (their syntax is not POSIX), else
    // bash, else /bin/sh.
    static QString shell();

private:
    ToolServices m_services;
};

} // namespace qcode
