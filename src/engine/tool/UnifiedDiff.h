#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace qcode {

// Line diffs as OpenCode shows them (the `diff` package's
// createTwoFilesPatch and diffLines, reference §8.2): the patch text the
// permission question and the tool part carry, and the added/removed line
// counts. The desktop app reuses the hunks to draw a diff view.
//
// Lines are compared with their line break, so a last line without one
// differs from the same line with one, and the patch marks it
// "\ No newline at end of file" like diff(1).
class UnifiedDiff
{
public:
    static constexpr int DefaultContext = 4;

    struct Line {
        enum class Kind { Context, Added, Removed };
        Kind kind = Kind::Context;
        QString text;               // without its line break
        bool missingNewline = false; // the file's last line, with no break after it
    };

    struct Hunk {
        int oldStart = 0; // 1-based; as printed (one lower when oldLines is 0)
        int oldLines = 0;
        int newStart = 0;
        int newLines = 0;
        QList<Line> lines;
    };

    struct Counts {
        int additions = 0;
        int deletions = 0;
    };

    // The hunks turning `oldText` into `newText` with `context` unchanged
    // lines around each change.
    static QList<Hunk> hunks(const QString &oldText, const QString &newText, int context = DefaultContext);

    // "Index: …", the ==== rule, "--- old", "+++ new", then the hunks;
    // ends with a line break.
    static QString twoFilesPatch(const QString &oldName, const QString &newName, const QString &oldText,
                                 const QString &newText, int context = DefaultContext);

    static Counts counts(const QString &oldText, const QString &newText);

    // OpenCode's trimDiff: the indentation every changed and context line
    // shares is removed, so a deeply nested edit reads at the left margin.
    static QString trimIndentation(const QString &patch);
};

} // namespace qcode
