#pragma once

#include <QJsonObject>
#include <QString>

#include <QCoro/QCoroTask>

#include "engine/session/loop/ToolRunner.h"

namespace qcode {

// One tool the model may call (reference §8): its name, what the model is
// told about it, the JSON Schema of its arguments, and the work itself.
// The registry (ToolRegistry) wraps every tool the same way: it checks the
// arguments against parameters() before execute() sees them, truncates
// long output and saves the whole of it, and turns a tool's failure into
// the error text the model reads. A tool therefore trusts the shape of
// `arguments` and reports its own failures as ToolFailure, never by
// throwing.
//
// Tools live on the engine thread. Work that takes long (reading a tree,
// a process) is awaited, never blocked on; `context.abort` ends it early.
class Tool
{
public:
    virtual ~Tool() = default;

    virtual QString name() const = 0;
    virtual QString description() const = 0;
    // What the model is told when `agent` calls: the task tool lists only
    // the subagents that agent may start. Most tools say the same to all.
    virtual QString descriptionFor(const QString &agent) const
    {
        Q_UNUSED(agent);
        return description();
    }
    virtual QJsonObject parameters() const = 0;

    // Arguments are taken by value: the coroutine may outlive the caller's
    // copies.
    virtual QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) = 0;

protected:
    Tool() = default;
    Tool(const Tool &) = default;
    Tool &operator=(const Tool &) = default;
};

} // namespace qcode
