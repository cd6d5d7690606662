#pragma once

#include <QList>
#include <QString>

namespace qcode {

// One row of a unified diff as the diff view shows it.
struct DiffLine {
    enum class Kind { FileHeader, HunkHeader, Context, Added, Removed, Note };
    Kind kind = Kind::Context;
    QString text;       // without the +/-/space prefix; a file header's path
    int oldNumber = 0;  // 0: none (an added line, a header, an unnumbered hunk)
    int newNumber = 0;
    // The part of an edited line that differs from its counterpart;
    // changedStart < 0: none marked.
    int changedStart = -1;
    int changedLength = 0;
    int file = -1; // a file header's index in ParsedDiff::files
};

struct DiffFileSummary {
    QString path;
    int additions = 0;
    int deletions = 0;
};

// Side by side: the lines shown left (old) and right (new) in one row;
// -1 leaves that side blank. Headers span both sides.
struct DiffSplitRow {
    int left = -1;
    int right = -1;
};

struct ParsedDiff {
    QList<DiffLine> lines;
    QList<DiffFileSummary> files;
    int additions = 0;
    int deletions = 0;
};

// Reads the patches qcode's tools write (UnifiedDiff::twoFilesPatch, one or
// several concatenated), git's, and hunks whose "@@" carries no numbers (a
// proposed edit whose place in the file is not known yet). Lines it does
// not recognise are kept as notes: nothing of the text is ever dropped.
class DiffParser
{
public:
    static ParsedDiff parse(const QString &diff);
    static QList<DiffSplitRow> splitRows(const QList<DiffLine> &lines);
    // The characters that differ between an old and a new line: the span
    // between their common prefix and suffix, when the two are alike
    // enough for it to mean something. {-1, -1}: too different.
    struct Changed {
        int oldStart = -1;
        int oldLength = 0;
        int newStart = -1;
        int newLength = 0;
    };
    static Changed changedRange(const QString &oldLine, const QString &newLine);
    // Counts a patch's added and removed lines and its files without
    // building its rows: cheap enough to run on a diff too large to show.
    static ParsedDiff summarize(const QString &diff);
};

} // namespace qcode
