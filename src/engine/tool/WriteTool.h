#pragma once

#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `write` (reference §8.3): writes a whole file, creating it and
// its folders when missing. An existing file must have been read in this
// session and not changed since (FileTimes). Asks `external_directory` for
// a path outside the project and `edit` with the project-relative path and
// the diff.
class WriteTool : public Tool
{
public:
    explicit WriteTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
};

} // namespace qcode
