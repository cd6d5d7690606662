#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include "ConfigSourceMap.h"
#include "model/Result.h"

namespace qcode {

// A Markdown file with optional YAML front matter between "---" lines, as
// OpenCode's agents and commands are written (gray-matter's layout).
struct MarkdownDocument {
    QJsonObject data;          // the front matter; empty when there is none
    ConfigSourceMap sourceMap; // where each front matter key is
    QString body;              // everything after the closing "---"
};

class FrontMatter
{
    Q_DECLARE_TR_FUNCTIONS(FrontMatter)

public:
    // Errors name the file and line: "<fileName>:<line>: <what is wrong>",
    // or "<path>: <what is wrong>" when the file cannot be read (a folder,
    // a pipe, over ConfigFile::MaxBytes) or is not UTF-8.
    static Result<MarkdownDocument> parse(const QString &text, const QString &fileName);
    static Result<MarkdownDocument> read(const QString &path);
};

} // namespace qcode
