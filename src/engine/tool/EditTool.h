#pragma once

#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `edit` (reference §8.2): replaces oldString with newString in
// a file, matching through EditReplacers when the model's text is not
// exact; an empty oldString writes newString as the whole file. The file
// must have been read in this session and not changed since (FileTimes);
// a CRLF file stays CRLF and a byte order mark stays. It asks
// `external_directory` for a path outside the project and `edit` with the
// project-relative path and the diff, then checks again that nobody
// changed the file while the person was answering.
class EditTool : public Tool
{
public:
    explicit EditTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
};

} // namespace qcode
