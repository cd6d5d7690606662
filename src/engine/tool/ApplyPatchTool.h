#pragma once

#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `apply_patch` (reference §8.4), offered to GPT models instead
// of edit and write: one patch in PatchFormat adds, updates, moves and
// deletes files. Every hunk is checked and computed before anything is
// written (a missing file to update, lines that cannot be found, a path
// outside the project the person refuses), then one `edit` question shows
// every file and the whole diff, and the changes are applied in order.
class ApplyPatchTool : public Tool
{
public:
    explicit ApplyPatchTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
};

} // namespace qcode
