#pragma once

#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>

#include <QCoro/QCoroTask>

#include <variant>

#include "AbortSignal.h"
#include "model/Part.h"

namespace qcode {

// One call the model made, with its arguments parsed.
struct ToolCall {
    QString tool;   // the tool's name, as the model called it
    QString callID;
    QJsonObject input;
};

// What a tool may know about the call it serves.
struct ToolContext {
    QString sessionID;
    QString messageID; // the assistant message holding the tool part
    QString agent;
    // Set when the prompt is stopped; a tool ends promptly and reports a
    // failure. A null pointer means the prompt is gone: stop as well.
    QPointer<AbortSignal> abort;
};

// A tool that ran to the end. Attachments become parts of their own (the
// processor gives them ids).
struct ToolOutput {
    QString output;   // what the model reads
    QString title;    // what the person sees above it
    QJsonObject metadata;
    QList<FilePart> attachments;
};

// A tool that did not produce output. The message is what the model reads
// as the tool's error.
struct ToolFailure {
    enum class Kind {
        Failed,                        // an error, or a permission rule's deny: the model sees it and goes on
        PermissionRejected,            // the person said no: the loop stops
        PermissionRejectedWithMessage, // the person said no and why: the model reads why and goes on
    };
    QString message;
    Kind kind = Kind::Failed;
};

using ToolResult = std::variant<ToolOutput, ToolFailure>;

// Runs the tools of issue #5 for the stream processor: it resolves the
// tool by name, checks its arguments and permissions (asking the person if
// the rules say so) and runs it. Unknown tools and bad arguments are
// failures, not exceptions. Arguments are taken by value: the coroutine
// may outlive the caller's copies.
class ToolRunner
{
public:
    virtual ~ToolRunner() = default;
    virtual QCoro::Task<ToolResult> run(ToolCall call, ToolContext context) = 0;

protected:
    ToolRunner() = default;
    ToolRunner(const ToolRunner &) = default;
    ToolRunner &operator=(const ToolRunner &) = default;
};

} // namespace qcode
