#pragma once

#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `read` (reference §8.1): a file with line numbers, a window
// of it by offset/limit, a directory's entries, an image or PDF as an
// attachment, through FileReader so a file dropped into the prompt reads
// the same. Before reading it asks `external_directory` for a path outside
// the project (after ".." and symlinks are resolved) and `read` for the
// absolute path; a missing file suggests close names. A successful read of
// a file is recorded in FileTimes, which write and edit check.
class ReadTool : public Tool
{
public:
    explicit ReadTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
};

} // namespace qcode
