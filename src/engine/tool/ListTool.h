#pragma once

#include "FileSearch.h"
#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `list` (tool/ls.ts): the files below a folder as an indented
// tree, at most 100, leaving out dependency, build and cache folders
// (node_modules/, dist/, build/, .git/ …) and the caller's `ignore` globs.
// Asks `external_directory` for a folder outside the project, then `list`.
//
// OpenCode 1.2 does not register it (reference §8.0: `read` lists
// directories), and neither does makeBuiltinToolRegistry; it exists for a
// configuration that wants it back. Of the files below the folder it keeps
// the first 100 by path, so the tree does not depend on walk order.
class ListTool : public Tool
{
public:
    static constexpr qsizetype MaxFiles = 100;

    explicit ListTool(ToolServices services, FileSearch::Backend backend = FileSearch::Backend::Automatic);

    // OpenCode's default ignores, as ripgrep globs.
    static QStringList defaultIgnores();

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
    FileSearch::Backend m_backend;
};

} // namespace qcode
