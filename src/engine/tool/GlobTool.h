#pragma once

#include "FileSearch.h"
#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `glob` (reference §8.6): files matching a glob below the
// project or `path`, newest first, at most 100, as absolute paths. Asks
// `glob`, and `external_directory` for a folder outside the project.
//
// OpenCode keeps the first 100 files ripgrep happens to list and sorts
// those; qcode sorts every match and keeps the 100 newest, so the answer
// does not depend on ripgrep's thread timing.
class GlobTool : public Tool
{
public:
    static constexpr qsizetype MaxResults = 100;

    explicit GlobTool(ToolServices services, FileSearch::Backend backend = FileSearch::Backend::Automatic);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
    FileSearch::Backend m_backend;
};

} // namespace qcode
