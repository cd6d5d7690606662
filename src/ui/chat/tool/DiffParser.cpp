#include "DiffParser.h"

#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Lines this alike (common characters over the longer line, indentation
// aside) get their changed span marked; below it the marks are noise.
constexpr double MinimumSimilarity = 0.3;
// Longer lines are marked whole rather than scanned.
constexpr int MaximumMarkedLength = 10000;

class Parser
{
public:
    explicit Parser(bool keepLines)
        : m_keepLines(keepLines)
    {
    }

    ParsedDiff run(const QString &diff)
    {
        const QStringView all(diff);
        qsizetype start = 0;
        while (start < all.size()) {
            qsizetype end = all.indexOf(u'\n', start);
            if (end < 0)
                end = all.size();
            QStringView line = all.mid(start, end - start);
            if (line.endsWith(u'\r'))
                line.chop(1);
            m_next = end + 1 < all.size() ? all.mid(end + 1, 4) : QStringView();
            take(line);
            start = end + 1;
        }
        return std::move(m_result);
    }

private:
    void take(QStringView line)
    {
        if (line.startsWith(u'\\') && m_sawHunk) {
            add(DiffLine::Kind::Note, line.mid(1).trimmed());
            return;
        }
        if (m_inHunk && body(line))
            return;
        m_inHunk = false;
        header(line);
    }

    // A line inside a hunk; false when it ends the hunk.
    bool body(QStringView line)
    {
        const bool counted = m_oldLeft >= 0;
        if (counted && m_oldLeft == 0 && m_newLeft == 0)
            return false;
        if (!counted && (line.isEmpty() || (line.startsWith(u"--- ") && m_next.startsWith(u"+++ "))))
            return false;
        const QChar prefix = line.isEmpty() ? u' ' : line.front();
        // An unnumbered hunk's lines have no numbers either.
        const auto oldNumber = [&] { return counted ? m_old++ : 0; };
        const auto newNumber = [&] { return counted ? m_new++ : 0; };
        if (prefix == u' ') {
            const int o = oldNumber();
            add(DiffLine::Kind::Context, line.mid(1), o, newNumber());
            consume(true, true);
        } else if (prefix == u'-') {
            countChange(false);
            add(DiffLine::Kind::Removed, line.mid(1), oldNumber(), 0);
            consume(true, false);
        } else if (prefix == u'+') {
            countChange(true);
            add(DiffLine::Kind::Added, line.mid(1), 0, newNumber());
            consume(false, true);
        } else {
            return false;
        }
        return true;
    }

    void consume(bool oldSide, bool newSide)
    {
        if (m_oldLeft < 0)
            return;
        m_oldLeft -= oldSide ? 1 : 0;
        m_newLeft -= newSide ? 1 : 0;
        m_oldLeft = std::max(m_oldLeft, 0);
        m_newLeft = std::max(m_newLeft, 0);
    }

    void header(QStringView line)
    {
        if (line.isEmpty() || line.startsWith(u"Index: ") || line.startsWith(u"index ")
            || line.startsWith(u"diff --git ") || (line.size() > 3 && line.count(u'=') == line.size()))
            return;
        if (line.startsWith(u"--- ")) {
            m_oldPath = path(line.mid(4));
            return;
        }
        if (line.startsWith(u"+++ ")) {
            const QString newPath = path(line.mid(4));
            startFile(newPath == "/dev/null"_L1 ? m_oldPath : newPath);
            add(DiffLine::Kind::FileHeader, m_result.files.last().path);
            if (m_keepLines)
                m_result.lines.last().file = int(m_result.files.size() - 1);
            return;
        }
        if (line.startsWith(u"@@")) {
            hunkHeader(line);
            return;
        }
        add(DiffLine::Kind::Note, line);
    }

    void hunkHeader(QStringView line)
    {
        static const QRegularExpression numbers(u"^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@"_s);
        if (m_result.files.isEmpty())
            startFile(QString());
        const QRegularExpressionMatch match = numbers.match(line);
        m_inHunk = true;
        m_sawHunk = true;
        if (match.hasMatch()) {
            m_old = match.capturedView(1).toInt();
            m_oldLeft = match.capturedLength(2) ? match.capturedView(2).toInt() : 1;
            m_new = match.capturedView(3).toInt();
            m_newLeft = match.capturedLength(4) ? match.capturedView(4).toInt() : 1;
            // "-0,0": an empty side starts at line 1 once it has lines.
            m_old = std::max(m_old, 1);
            m_new = std::max(m_new, 1);
        } else {
            m_old = 0;
            m_new = 0;
            m_oldLeft = -1;
            m_newLeft = -1;
        }
        add(DiffLine::Kind::HunkHeader, line);
    }

    static QString path(QStringView text)
    {
        // diff(1) may follow the name with a tab and a time stamp.
        const qsizetype tab = text.indexOf(u'\t');
        QString path = (tab >= 0 ? text.left(tab) : text).toString();
        if (path.startsWith("a/"_L1) || path.startsWith("b/"_L1))
            path.remove(0, 2);
        return path;
    }

    void startFile(const QString &path)
    {
        m_result.files.append(DiffFileSummary{path, 0, 0});
        m_sawHunk = false;
    }

    void countChange(bool added)
    {
        if (m_result.files.isEmpty())
            startFile(QString());
        DiffFileSummary &file = m_result.files.last();
        if (added) {
            ++file.additions;
            ++m_result.additions;
        } else {
            ++file.deletions;
            ++m_result.deletions;
        }
    }

    void add(DiffLine::Kind kind, QStringView text, int oldNumber = 0, int newNumber = 0)
    {
        if (m_keepLines)
            m_result.lines.append(DiffLine{kind, text.toString(), std::max(oldNumber, 0), std::max(newNumber, 0)});
    }

    bool m_keepLines = true;
    ParsedDiff m_result;
    QStringView m_next;
    QString m_oldPath;
    bool m_inHunk = false;
    bool m_sawHunk = false;
    int m_old = 0;
    int m_new = 0;
    int m_oldLeft = -1; // lines the hunk still owes; -1: not counted
    int m_newLeft = -1;
};

// An edit: the removed lines from `start`, then the added lines that
// replace them; either run may be empty.
struct ChangeRun {
    qsizetype removedStart = 0;
    qsizetype addedStart = 0;
    qsizetype end = 0;

    qsizetype removed() const { return addedStart - removedStart; }
    qsizetype added() const { return end - addedStart; }
};

ChangeRun changeRunAt(const QList<DiffLine> &lines, qsizetype start)
{
    ChangeRun run{start, start, start};
    while (run.addedStart < lines.size() && lines.at(run.addedStart).kind == DiffLine::Kind::Removed)
        ++run.addedStart;
    run.end = run.addedStart;
    while (run.end < lines.size() && lines.at(run.end).kind == DiffLine::Kind::Added)
        ++run.end;
    return run;
}

void markChanges(QList<DiffLine> &lines)
{
    qsizetype i = 0;
    while (i < lines.size()) {
        if (lines.at(i).kind != DiffLine::Kind::Removed) {
            ++i;
            continue;
        }
        const ChangeRun run = changeRunAt(lines, i);
        i = run.end;
        for (qsizetype k = 0; k < std::min(run.removed(), run.added()); ++k) {
            DiffLine &removed = lines[run.removedStart + k];
            DiffLine &added = lines[run.addedStart + k];
            const DiffParser::Changed changed = DiffParser::changedRange(removed.text, added.text);
            if (changed.oldStart < 0)
                continue;
            removed.changedStart = changed.oldStart;
            removed.changedLength = changed.oldLength;
            added.changedStart = changed.newStart;
            added.changedLength = changed.newLength;
        }
    }
}

} // namespace

ParsedDiff DiffParser::parse(const QString &diff)
{
    ParsedDiff parsed = Parser(true).run(diff);
    markChanges(parsed.lines);
    return parsed;
}

ParsedDiff DiffParser::summarize(const QString &diff)
{
    return Parser(false).run(diff);
}

DiffParser::Changed DiffParser::changedRange(const QString &oldLine, const QString &newLine)
{
    const qsizetype oldSize = oldLine.size();
    const qsizetype newSize = newLine.size();
    const qsizetype longest = std::max(oldSize, newSize);
    if (longest == 0 || longest > MaximumMarkedLength || oldLine == newLine)
        return {};
    const qsizetype shortest = std::min(oldSize, newSize);
    qsizetype prefix = 0;
    while (prefix < shortest && oldLine.at(prefix) == newLine.at(prefix))
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < shortest - prefix && oldLine.at(oldSize - 1 - suffix) == newLine.at(newSize - 1 - suffix))
        ++suffix;
    qsizetype indent = 0;
    while (indent < prefix && oldLine.at(indent).isSpace())
        ++indent;
    const double similarity = double(prefix - indent + suffix) / double(std::max<qsizetype>(longest - indent, 1));
    if (similarity < MinimumSimilarity)
        return {};
    return Changed{int(prefix), int(oldSize - prefix - suffix), int(prefix), int(newSize - prefix - suffix)};
}

QList<DiffSplitRow> DiffParser::splitRows(const QList<DiffLine> &lines)
{
    QList<DiffSplitRow> rows;
    rows.reserve(lines.size());
    qsizetype i = 0;
    while (i < lines.size()) {
        const DiffLine::Kind kind = lines.at(i).kind;
        if (kind != DiffLine::Kind::Removed && kind != DiffLine::Kind::Added) {
            rows.append(DiffSplitRow{int(i), int(i)});
            ++i;
            continue;
        }
        const ChangeRun run = changeRunAt(lines, i);
        i = run.end;
        for (qsizetype k = 0; k < std::max(run.removed(), run.added()); ++k)
            rows.append(DiffSplitRow{k < run.removed() ? int(run.removedStart + k) : -1,
                                     k < run.added() ? int(run.addedStart + k) : -1});
    }
    return rows;
}

} // namespace qcode
