#include "PatchFormat.h"

#include <QRegularExpression>

#include <algorithm>
#include <functional>

namespace qcode {

namespace {

const QLatin1String BeginMarker("*** Begin Patch");
const QLatin1String EndMarker("*** End Patch");
const QLatin1String AddPrefix("*** Add File:");
const QLatin1String DeletePrefix("*** Delete File:");
const QLatin1String UpdatePrefix("*** Update File:");
const QLatin1String MovePrefix("*** Move to:");
const QLatin1String EndOfFile("*** End of File");

// Models sometimes paste the shell form: cat <<'EOF' … EOF.
QString stripHeredoc(const QString &text)
{
    static const QRegularExpression heredoc(
        QStringLiteral("^(?:cat\\s+)?<<['\"]?(\\w+)['\"]?\\s*\\n([\\s\\S]*?)\\n\\1\\s*$"));
    const QRegularExpressionMatch match = heredoc.match(text);
    return match.hasMatch() ? match.captured(2) : text;
}

QString normalizeUnicode(QString text)
{
    static const QRegularExpression singleQuotes(QStringLiteral("[\\x{2018}\\x{2019}\\x{201A}\\x{201B}]"));
    static const QRegularExpression doubleQuotes(QStringLiteral("[\\x{201C}\\x{201D}\\x{201E}\\x{201F}]"));
    static const QRegularExpression dashes(QStringLiteral("[\\x{2010}\\x{2011}\\x{2012}\\x{2013}\\x{2014}\\x{2015}]"));
    text.replace(singleQuotes, QStringLiteral("'"));
    text.replace(doubleQuotes, QStringLiteral("\""));
    text.replace(dashes, QStringLiteral("-"));
    text.replace(QChar(0x2026), QStringLiteral("..."));
    text.replace(QChar(0x00A0), QStringLiteral(" "));
    return text;
}

QString trimEnd(const QString &text)
{
    qsizetype end = text.size();
    while (end > 0 && text.at(end - 1).isSpace())
        --end;
    return text.left(end);
}

using Comparator = std::function<bool(const QString &, const QString &)>;

qsizetype tryMatch(const QStringList &lines, const QStringList &pattern, qsizetype start, const Comparator &equal,
                   bool endOfFile)
{
    const auto matchesAt = [&](qsizetype at) {
        for (qsizetype j = 0; j < pattern.size(); ++j) {
            if (!equal(lines.at(at + j), pattern.at(j)))
                return false;
        }
        return true;
    };
    if (endOfFile) {
        const qsizetype fromEnd = lines.size() - pattern.size();
        if (fromEnd >= start && matchesAt(fromEnd))
            return fromEnd;
    }
    for (qsizetype i = start; i + pattern.size() <= lines.size(); ++i) {
        if (matchesAt(i))
            return i;
    }
    return -1;
}

qsizetype seekSequence(const QStringList &lines, const QStringList &pattern, qsizetype start, bool endOfFile)
{
    if (pattern.isEmpty())
        return -1;
    const Comparator passes[] = {
        [](const QString &a, const QString &b) { return a == b; },
        [](const QString &a, const QString &b) { return trimEnd(a) == trimEnd(b); },
        [](const QString &a, const QString &b) { return a.trimmed() == b.trimmed(); },
        [](const QString &a, const QString &b) {
            return normalizeUnicode(a.trimmed()) == normalizeUnicode(b.trimmed());
        },
    };
    for (const Comparator &equal : passes) {
        const qsizetype found = tryMatch(lines, pattern, start, equal, endOfFile);
        if (found >= 0)
            return found;
    }
    return -1;
}

QList<PatchFormat::Chunk> parseChunks(const QStringList &lines, qsizetype &i, qsizetype end)
{
    QList<PatchFormat::Chunk> chunks;
    while (i < end && !lines.at(i).startsWith(QLatin1String("***"))) {
        if (!lines.at(i).startsWith(QLatin1String("@@"))) {
            ++i;
            continue;
        }
        PatchFormat::Chunk chunk;
        chunk.changeContext = lines.at(i).mid(2).trimmed();
        ++i;
        while (i < end && !lines.at(i).startsWith(QLatin1String("@@")) && !lines.at(i).startsWith(QLatin1String("***"))) {
            const QString &line = lines.at(i);
            ++i;
            if (line.startsWith(u' ')) {
                chunk.oldLines.append(line.mid(1));
                chunk.newLines.append(line.mid(1));
            } else if (line.startsWith(u'-')) {
                chunk.oldLines.append(line.mid(1));
            } else if (line.startsWith(u'+')) {
                chunk.newLines.append(line.mid(1));
            }
        }
        if (i < end && lines.at(i) == EndOfFile) {
            chunk.endOfFile = true;
            ++i;
        }
        chunks.append(chunk);
    }
    return chunks;
}

QString parseAddedContents(const QStringList &lines, qsizetype &i, qsizetype end)
{
    QStringList added;
    while (i < end && !lines.at(i).startsWith(QLatin1String("***"))) {
        if (lines.at(i).startsWith(u'+'))
            added.append(lines.at(i).mid(1));
        ++i;
    }
    return added.join(u'\n');
}

} // namespace

Result<QList<PatchFormat::Hunk>> PatchFormat::parse(const QString &patchText)
{
    QString text = patchText.trimmed();
    text.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    const QStringList lines = stripHeredoc(text).split(u'\n');
    const auto markerAt = [&lines](QLatin1String marker) {
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (lines.at(i).trimmed() == marker)
                return i;
        }
        return qsizetype(-1);
    };
    const qsizetype begin = markerAt(BeginMarker);
    const qsizetype end = markerAt(EndMarker);
    if (begin < 0 || end < 0 || begin >= end)
        return Error{QStringLiteral("Invalid patch format: missing Begin/End markers")};

    QList<Hunk> hunks;
    qsizetype i = begin + 1;
    while (i < end) {
        const QString &line = lines.at(i);
        Hunk hunk;
        if (line.startsWith(AddPrefix)) {
            hunk.kind = Hunk::Kind::Add;
            hunk.path = line.mid(AddPrefix.size()).trimmed();
        } else if (line.startsWith(DeletePrefix)) {
            hunk.kind = Hunk::Kind::Delete;
            hunk.path = line.mid(DeletePrefix.size()).trimmed();
        } else if (line.startsWith(UpdatePrefix)) {
            hunk.kind = Hunk::Kind::Update;
            hunk.path = line.mid(UpdatePrefix.size()).trimmed();
        }
        ++i;
        // A header without a path is skipped like any stray line.
        if (hunk.path.isEmpty())
            continue;
        switch (hunk.kind) {
        case Hunk::Kind::Add:
            hunk.contents = parseAddedContents(lines, i, end);
            break;
        case Hunk::Kind::Delete:
            break;
        case Hunk::Kind::Update:
            if (i < end && lines.at(i).startsWith(MovePrefix)) {
                hunk.movePath = lines.at(i).mid(MovePrefix.size()).trimmed();
                ++i;
            }
            hunk.chunks = parseChunks(lines, i, end);
            break;
        }
        hunks.append(hunk);
    }
    return hunks;
}

Result<QString> PatchFormat::applyChunks(const QString &path, const QList<Chunk> &chunks, const QString &original)
{
    QStringList lines = original.split(u'\n');
    const bool trailingNewline = lines.last().isEmpty();
    if (trailingNewline)
        lines.removeLast();

    struct Replacement {
        qsizetype start;
        qsizetype length;
        QStringList lines;
    };
    QList<Replacement> replacements;
    qsizetype lineIndex = 0;
    for (const Chunk &chunk : chunks) {
        if (!chunk.changeContext.isEmpty()) {
            const qsizetype context = seekSequence(lines, {chunk.changeContext}, lineIndex, false);
            if (context < 0)
                return Error{QStringLiteral("Failed to find context '%1' in %2").arg(chunk.changeContext, path)};
            lineIndex = context + 1;
        }
        if (chunk.oldLines.isEmpty()) {
            replacements.append({lines.size(), 0, chunk.newLines});
            continue;
        }
        QStringList pattern = chunk.oldLines;
        QStringList newSlice = chunk.newLines;
        qsizetype found = seekSequence(lines, pattern, lineIndex, chunk.endOfFile);
        // A trailing blank line in the chunk often stands for the file's
        // final line break.
        if (found < 0 && pattern.last().isEmpty()) {
            pattern.removeLast();
            if (!newSlice.isEmpty() && newSlice.last().isEmpty())
                newSlice.removeLast();
            found = seekSequence(lines, pattern, lineIndex, chunk.endOfFile);
        }
        if (found < 0)
            return Error{QStringLiteral("Failed to find expected lines in %1:\n%2").arg(path, chunk.oldLines.join(u'\n'))};
        replacements.append({found, pattern.size(), newSlice});
        lineIndex = found + pattern.size();
    }

    std::stable_sort(replacements.begin(), replacements.end(),
                     [](const Replacement &a, const Replacement &b) { return a.start < b.start; });
    for (auto it = replacements.crbegin(); it != replacements.crend(); ++it) {
        lines.remove(it->start, it->length);
        for (qsizetype j = 0; j < it->lines.size(); ++j)
            lines.insert(it->start + j, it->lines.at(j));
    }
    // A line break ends the result unless the original had none and the
    // patch's own last line is blank (that blank line is the break).
    if (trailingNewline || lines.isEmpty() || !lines.last().isEmpty())
        lines.append(QString());
    return lines.join(u'\n');
}

} // namespace qcode
