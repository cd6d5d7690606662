#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "model/Result.h"

namespace qcode {

// The "*** Begin Patch" format GPT models write for apply_patch
// (reference §8.4): files added (every line "+"), deleted, or updated by
// chunks that start at "@@" (optionally with a line to seek first) and
// list " " context, "-" removed and "+" added lines; an update may move
// the file ("*** Move to:"). Parsing is lenient where OpenCode's is
// (stray lines are skipped, a heredoc wrapper is removed); applying a
// chunk finds its old lines exactly, then ignoring trailing blanks, then
// ignoring blanks at both ends, then with typographic quotes and dashes
// read as ASCII.
class PatchFormat
{
public:
    struct Chunk {
        QStringList oldLines;
        QStringList newLines;
        QString changeContext;   // the "@@ …" line to find first; empty: none
        bool endOfFile = false;  // "*** End of File": match at the end
    };

    struct Hunk {
        enum class Kind { Add, Delete, Update };
        Kind kind = Kind::Add;
        QString path;
        QString movePath;   // Update only; empty: stays
        QString contents;   // Add only
        QList<Chunk> chunks; // Update only
    };

    // The hunks, or "Invalid patch format: missing Begin/End markers".
    static Result<QList<Hunk>> parse(const QString &patchText);

    // `original` (a file's text, LF line breaks) with the chunks applied,
    // or which context or lines could not be found in `path`.
    static Result<QString> applyChunks(const QString &path, const QList<Chunk> &chunks, const QString &original);
};

} // namespace qcode
