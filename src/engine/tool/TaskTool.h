#pragma once

#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `task` (reference §8.9): runs a subagent in a child session
// of the caller's — a new one titled "<description> (@<agent> subagent)",
// or the one `task_id` names to resume it — and answers with the child's
// last text:
//
//     task_id: ses_… (for resuming to continue this task if needed)
//
//     <task_result>
//     …
//     </task_result>
//
// Asks `task` with the subagent's name (always "*") unless the person
// @-mentioned the subagent. The child's id and model go into the part's
// metadata ({sessionId, model}) as soon as the child exists, so a view can
// link to it while it runs; stopping the parent stops the child. The
// engine's runChild (ToolServices) does the running and gives the child
// its rules: no todos, and no further subagents unless its own rules
// mention `task`.
class TaskTool : public Tool
{
public:
    explicit TaskTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QString descriptionFor(const QString &agent) const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

    // The subagents `agent` may start, one "- name: description" line
    // each: every agent that is not primary-only and that `agent`'s rules
    // do not deny as `task`.
    QString subagentList(const QString &agent) const;

private:
    ToolServices m_services;
};

} // namespace qcode
