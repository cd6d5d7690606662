#pragma once

#include "FileSearch.h"
#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `grep` (reference §8.7): lines matching a regular expression
// in the project or `path`, in files matching `include`, grouped by file,
// newest file first, at most 100 shown. Asks `grep`, and
// `external_directory` for a path outside the project. ripgrep runs it
// where installed, else an in-process search with the same answers
// (FileSearch); the constructor can force either.
//
// Unlike OpenCode, a regular expression ripgrep cannot parse is an error
// the model reads, not "No files found".
class GrepTool : public Tool
{
public:
    static constexpr qsizetype MaxMatches = 100;

    explicit GrepTool(ToolServices services, FileSearch::Backend backend = FileSearch::Backend::Automatic);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
    FileSearch::Backend m_backend;
};

} // namespace qcode
