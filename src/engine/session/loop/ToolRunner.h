#pragma once

#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>

#include <QCoro/QCoroTask>

#include <functional>
#include <variant>

#include "AbortSignal.h"
#include "engine/provider/ProviderRequest.h"
#include "model/Message.h"
#include "model/Part.h"

namespace qcode {

// One call the model made, with its arguments parsed.
struct ToolCall {
    QString tool;   // the tool's name, as the model called it
    QString callID;
    QJsonObject input;
};

class PermissionAsker;

// What a tool may know about the call it serves. The processor fills the
// first four fields and `callID`; the prompt loop's tool runner adds the
// rest before it hands the context to a tool.
struct ToolContext {
    QString sessionID;
    QString messageID; // the assistant message holding the tool part
    QString agent;
    // Set when the prompt is stopped; a tool ends promptly and reports a
    // failure. A null pointer means the prompt is gone: stop as well.
    QPointer<AbortSignal> abort;
    QString callID;

    QString directory; // the project folder relative paths resolve against
    QString worktree;  // the git worktree root ("/" or empty: none)
    ModelRef model;    // the model answering, for tools that pick a subagent's model
    // The user @-mentioned a subagent: the task tool runs it without a
    // `task` permission ask.
    bool bypassAgentCheck = false;
    // Asks with the step's ruleset (agent + session rules); the request's
    // sessionID and tool reference are filled in by the asker when empty.
    // Null in contexts that may not ask (then a rule's "ask" is a refusal).
    PermissionAsker *permissions = nullptr;
    // Live progress for the running part (bash output as it arrives): a
    // new title and metadata, shown at once and saved at a bounded rate.
    std::function<void(const QString &title, const QJsonObject &metadata)> progress;
};

// A tool that ran to the end. Attachments become parts of their own (the
// processor gives them ids). What the model reads, here and in
// ToolFailure, is plain English whatever the window's language: it is
// input to the model, never tr() (tst_model_texts holds every tool to it).
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

// Which tools a step may offer (reference §2.8 and §8.0): the registry's
// tools for the model, minus those the agent's rules deny outright.
struct ToolScope {
    QString providerID;
    QString modelID;      // the API model id ("gpt-5" picks apply_patch over edit/write)
    QString agent;
    // Tools the rules deny for every pattern ({tool, "*", deny} as the last
    // rule for the tool): left out of the request, as OpenCode does.
    QStringList disabled;
};

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
    // The tools offered to the model for one step, as the request lists them.
    virtual QList<ToolDefinition> definitions(const ToolScope &scope) const = 0;

protected:
    ToolRunner() = default;
    ToolRunner(const ToolRunner &) = default;
    ToolRunner &operator=(const ToolRunner &) = default;
};

} // namespace qcode
