#pragma once

#include <QByteArray>
#include <QString>

#include "engine/session/loop/ToolRunner.h"
#include "model/Result.h"

namespace qcode {

// What write, edit and apply_patch share about the files they change:
// where a path points, how it is named to the person, and reading and
// writing text without losing anything.
class TextFiles
{
public:
    // A file's text as the tools edit it: decoded UTF-8 without its byte
    // order mark, which writing puts back.
    struct Text {
        QString text;
        bool byteOrderMark = false;
    };

    // `filePath` made absolute against the context's directory and
    // cleaned; symlinks are left as they are (the external-directory check
    // resolves them).
    static QString absolutePath(const ToolContext &context, const QString &filePath);

    // How the person and the permission rules see a path: relative to the
    // worktree (the directory when there is no worktree), with "/".
    static QString relativePath(const ToolContext &context, const QString &absolutePath);

    // The text of an existing regular file, `path` a realPath() result read
    // through no link (LinkSafeFiles::read). A binary file (a NUL byte) or
    // one that is not UTF-8 is refused rather than rewritten garbled.
    static Result<Text> readText(const QString &path);

    // Where a tool's path really leads (LinkSafeFiles::realPath): what the
    // external-directory check judges and what is then written, so a link
    // swapped in after the check is refused rather than followed.
    static Result<QString> realPath(const QString &absolutePath);
    // The folder resolved, the last name kept: what removing `absolutePath`
    // removes (a link itself, not its target).
    static Result<QString> realEntry(const QString &absolutePath);

    // Writes `realPath` (a realPath() result) atomically through no link
    // (LinkSafeFiles::write): a temporary file renamed over the old one,
    // whose permissions it keeps, missing folders created.
    static Result<void> writeText(const QString &realPath, const Text &text);

    // Removes the entry a realEntry() result names, through no link.
    static Result<void> remove(const QString &path);

    // OpenCode's convention: a file with any CRLF is a CRLF file.
    static bool usesCrlf(const QString &text);
    static QString toLf(QString text);
    static QString toCrlf(const QString &lfText);
};

} // namespace qcode
