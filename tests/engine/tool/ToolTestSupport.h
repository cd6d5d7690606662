#pragma once

#include <functional>
#include <optional>

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QStringList>
#include <QTest>

#include <QCoro/QCoroTask>

#include "engine/session/loop/AbortSignal.h"
#include "engine/session/asks/PermissionAsker.h"
#include "engine/session/loop/ToolRunner.h"
#include "engine/tool/Tool.h"

namespace qcode::test {

// A PermissionAsker for tool tests: records every request and answers by
// permission name (Once unless told otherwise).
class RecordingAsker : public PermissionAsker
{
public:
    QCoro::Task<PermissionAnswer> ask(PermissionRequest request, QPointer<AbortSignal>) override
    {
        requests.append(request);
        if (whileAsking)
            whileAsking(request);
        co_return answers.value(request.permission, PermissionAnswer{PermissionReply::Once, {}});
    }

    QStringList permissions() const
    {
        QStringList out;
        for (const PermissionRequest &request : requests)
            out.append(request.permission);
        return out;
    }

    const PermissionRequest *find(const QString &permission) const
    {
        for (const PermissionRequest &request : requests) {
            if (request.permission == permission)
                return &request;
        }
        return nullptr;
    }

    QList<PermissionRequest> requests;
    QHash<QString, PermissionAnswer> answers;
    // Runs while a question is open: what changes on disk between a tool's
    // checks and its write (a link swapped in).
    std::function<void(const PermissionRequest &)> whileAsking;
};

inline ToolContext toolContext(const QString &directory, PermissionAsker *asker, AbortSignal *abort,
                               const QString &worktree = QString())
{
    ToolContext context;
    context.sessionID = QStringLiteral("ses_test");
    context.messageID = QStringLiteral("msg_test");
    context.agent = QStringLiteral("build");
    context.abort = abort;
    context.callID = QStringLiteral("call_1");
    context.directory = directory;
    context.worktree = worktree.isEmpty() ? directory : worktree;
    context.permissions = asker;
    return context;
}

// Runs a tool to the end on the test's event loop.
inline ToolResult runTool(Tool &tool, const QJsonObject &arguments, const ToolContext &context)
{
    QCoro::Task<ToolResult> running = tool.execute(arguments, context);
    return QCoro::waitFor(running);
}

inline ToolResult runCall(ToolRunner &runner, const ToolCall &call, const ToolContext &context)
{
    QCoro::Task<ToolResult> running = runner.run(call, context);
    return QCoro::waitFor(running);
}

inline const ToolOutput *outputOf(const ToolResult &result)
{
    return std::get_if<ToolOutput>(&result);
}

inline const ToolFailure *failureOf(const ToolResult &result)
{
    return std::get_if<ToolFailure>(&result);
}

// Of a temporary result, the value itself: a pointer into it would be
// gone by the next line (AddressSanitizer: stack-use-after-scope).
inline std::optional<ToolOutput> outputOf(ToolResult &&result)
{
    ToolOutput *output = std::get_if<ToolOutput>(&result);
    return output ? std::optional<ToolOutput>(std::move(*output)) : std::nullopt;
}

inline std::optional<ToolFailure> failureOf(ToolResult &&result)
{
    ToolFailure *failure = std::get_if<ToolFailure>(&result);
    return failure ? std::optional<ToolFailure>(std::move(*failure)) : std::nullopt;
}

// What a result says, for failure messages.
inline QString describe(const ToolResult &result)
{
    if (const ToolOutput *output = outputOf(result))
        return QStringLiteral("output: ") + output->output;
    return QStringLiteral("failure: ") + std::get<ToolFailure>(result).message;
}

// The output or failure a test expects; the other kind is reported as a
// test failure (and an empty value returned) instead of crashing the suite.
inline const ToolOutput &outputIn(const ToolResult &result)
{
    static const ToolOutput none;
    if (const ToolOutput *output = outputOf(result))
        return *output;
    QTest::qFail(qPrintable(QStringLiteral("expected an output, got a ") + describe(result)), __FILE__, __LINE__);
    return none;
}

inline const ToolFailure &failureIn(const ToolResult &result)
{
    static const ToolFailure none;
    if (const ToolFailure *failure = failureOf(result))
        return *failure;
    QTest::qFail(qPrintable(QStringLiteral("expected a failure, got ") + describe(result)), __FILE__, __LINE__);
    return none;
}

// Of a temporary result, a copy, for the same reason.
inline ToolOutput outputIn(ToolResult &&result)
{
    return outputIn(static_cast<const ToolResult &>(result));
}

inline ToolFailure failureIn(ToolResult &&result)
{
    return failureIn(static_cast<const ToolResult &>(result));
}

} // namespace qcode::test
