#include "EditReplacers.h"

#include <QRegularExpression>

#include <algorithm>
#include <vector>

namespace qcode {

namespace {

QStringList splitLines(const QString &text)
{
    return text.split(u'\n');
}

QString joinLines(const QStringList &lines, qsizetype first, qsizetype count)
{
    return lines.mid(first, count).join(u'\n');
}

// JavaScript's \s, which OpenCode's patterns use, is Unicode-aware.
const QRegularExpression &whitespaceRun()
{
    static const QRegularExpression run(QStringLiteral("\\s+"), QRegularExpression::UseUnicodePropertiesOption);
    return run;
}

QString normalizeWhitespace(const QString &text)
{
    QString normalized = text;
    normalized.replace(whitespaceRun(), QStringLiteral(" "));
    return normalized.trimmed();
}

qsizetype leadingWhitespace(const QString &line)
{
    qsizetype count = 0;
    while (count < line.size() && line.at(count).isSpace())
        ++count;
    return count;
}

QString removeIndentation(const QString &text)
{
    QStringList lines = splitLines(text);
    qsizetype minIndent = -1;
    for (const QString &line : std::as_const(lines)) {
        if (line.trimmed().isEmpty())
            continue;
        const qsizetype indent = leadingWhitespace(line);
        minIndent = minIndent < 0 ? indent : std::min(minIndent, indent);
    }
    if (minIndent < 0)
        return text;
    for (QString &line : lines) {
        if (!line.trimmed().isEmpty())
            line.remove(0, minIndent);
    }
    return lines.join(u'\n');
}

// The escapes a model writes when it quotes code inside a JSON string
// once too often: \n \t \r \' \" \` \\ \$ and a backslash before a newline.
QString unescape(const QString &text)
{
    QString result;
    result.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c != u'\\' || i + 1 >= text.size()) {
            result.append(c);
            continue;
        }
        const QChar next = text.at(i + 1);
        switch (next.unicode()) {
        case 'n':
        case '\n':
            result.append(u'\n');
            break;
        case 't':
            result.append(u'\t');
            break;
        case 'r':
            result.append(u'\r');
            break;
        case '\'':
        case '"':
        case '`':
        case '\\':
        case '$':
            result.append(next);
            break;
        default:
            result.append(c);
            continue;
        }
        ++i;
    }
    return result;
}

// The average similarity of the lines between the anchors (1 when there
// are none to compare): 1 - distance / longer length, per line.
double middleSimilarity(const QStringList &original, qsizetype startLine, qsizetype endLine,
                        const QStringList &search)
{
    const qsizetype searchSize = search.size();
    const qsizetype actualSize = endLine - startLine + 1;
    const qsizetype linesToCheck = std::min(searchSize - 2, actualSize - 2);
    if (linesToCheck <= 0)
        return 1.0;
    double similarity = 0.0;
    for (qsizetype j = 1; j < searchSize - 1 && j < actualSize - 1; ++j) {
        const QString originalLine = original.at(startLine + j).trimmed();
        const QString searchLine = search.at(j).trimmed();
        const qsizetype maxLength = std::max(originalLine.size(), searchLine.size());
        if (maxLength == 0)
            continue;
        const auto distance = EditReplacers::levenshtein(originalLine, searchLine);
        similarity += 1.0 - double(distance) / double(maxLength);
    }
    return similarity / double(linesToCheck);
}

} // namespace

qsizetype EditReplacers::levenshtein(const QString &a, const QString &b)
{
    if (a.isEmpty() || b.isEmpty())
        return std::max(a.size(), b.size());
    const QString &shorter = a.size() <= b.size() ? a : b;
    const QString &longer = a.size() <= b.size() ? b : a;
    std::vector<qsizetype> previous(size_t(shorter.size()) + 1);
    std::vector<qsizetype> current(previous.size());
    for (size_t j = 0; j < previous.size(); ++j)
        previous[j] = qsizetype(j);
    for (qsizetype i = 1; i <= longer.size(); ++i) {
        current[0] = i;
        for (qsizetype j = 1; j <= shorter.size(); ++j) {
            const qsizetype cost = longer.at(i - 1) == shorter.at(j - 1) ? 0 : 1;
            current[size_t(j)] = std::min({previous[size_t(j)] + 1, current[size_t(j - 1)] + 1,
                                           previous[size_t(j - 1)] + cost});
        }
        std::swap(previous, current);
    }
    return previous[size_t(shorter.size())];
}

QStringList EditReplacers::simple(const QString &, const QString &find)
{
    return {find};
}

QStringList EditReplacers::lineTrimmed(const QString &content, const QString &find)
{
    const QStringList original = splitLines(content);
    QStringList search = splitLines(find);
    if (search.last().isEmpty())
        search.removeLast();
    QStringList found;
    for (qsizetype i = 0; i + search.size() <= original.size(); ++i) {
        bool matches = true;
        for (qsizetype j = 0; j < search.size() && matches; ++j)
            matches = original.at(i + j).trimmed() == search.at(j).trimmed();
        if (matches)
            found.append(joinLines(original, i, search.size()));
    }
    return found;
}

QStringList EditReplacers::blockAnchor(const QString &content, const QString &find)
{
    const QStringList original = splitLines(content);
    QStringList search = splitLines(find);
    if (search.size() < 3)
        return {};
    if (search.last().isEmpty())
        search.removeLast();

    const QString firstLine = search.first().trimmed();
    const QString lastLine = search.last().trimmed();
    struct Candidate {
        qsizetype startLine;
        qsizetype endLine;
    };
    std::vector<Candidate> candidates;
    for (qsizetype i = 0; i < original.size(); ++i) {
        if (original.at(i).trimmed() != firstLine)
            continue;
        for (qsizetype j = i + 2; j < original.size(); ++j) {
            if (original.at(j).trimmed() == lastLine) {
                candidates.push_back({i, j});
                break;
            }
        }
    }
    if (candidates.empty())
        return {};

    const auto blockOf = [&original](const Candidate &candidate) {
        return joinLines(original, candidate.startLine, candidate.endLine - candidate.startLine + 1);
    };
    // OpenCode accepts a lone candidate whatever its middle: similarity is
    // never below the zero threshold.
    if (candidates.size() == 1)
        return {blockOf(candidates.front())};

    const Candidate *best = nullptr;
    double bestSimilarity = -1.0;
    for (const Candidate &candidate : candidates) {
        const double similarity = middleSimilarity(original, candidate.startLine, candidate.endLine, search);
        if (similarity > bestSimilarity) {
            bestSimilarity = similarity;
            best = &candidate;
        }
    }
    if (best && bestSimilarity >= MultipleCandidatesSimilarityThreshold)
        return {blockOf(*best)};
    return {};
}

QStringList EditReplacers::whitespaceNormalized(const QString &content, const QString &find)
{
    const QString normalizedFind = normalizeWhitespace(find);
    const QStringList lines = splitLines(content);
    QStringList found;
    for (const QString &line : lines) {
        const QString normalizedLine = normalizeWhitespace(line);
        if (normalizedLine == normalizedFind) {
            found.append(line);
            continue;
        }
        if (!normalizedLine.contains(normalizedFind))
            continue;
        // The words of `find` with any whitespace between them, to recover
        // the line's own spelling of the match.
        const QStringList words = find.trimmed().split(whitespaceRun());
        QStringList escaped;
        for (const QString &word : words)
            escaped.append(QRegularExpression::escape(word));
        const QRegularExpression pattern(escaped.join(QStringLiteral("\\s+")),
                                         QRegularExpression::UseUnicodePropertiesOption);
        const QRegularExpressionMatch match = pattern.match(line);
        if (pattern.isValid() && match.hasMatch())
            found.append(match.captured(0));
    }

    const QStringList findLines = splitLines(find);
    if (findLines.size() > 1) {
        for (qsizetype i = 0; i + findLines.size() <= lines.size(); ++i) {
            const QString block = joinLines(lines, i, findLines.size());
            if (normalizeWhitespace(block) == normalizedFind)
                found.append(block);
        }
    }
    return found;
}

QStringList EditReplacers::indentationFlexible(const QString &content, const QString &find)
{
    const QString normalizedFind = removeIndentation(find);
    const QStringList lines = splitLines(content);
    const QStringList findLines = splitLines(find);
    const qsizetype findLineCount = findLines.size();
    QStringList trimmedFind;
    for (const QString &line : findLines)
        trimmedFind.append(line.trimmed());
    QStringList found;
    for (qsizetype i = 0; i + findLineCount <= lines.size(); ++i) {
        // Equal after removing a common indentation implies equal line by
        // line once trimmed: a cheap test before building the block.
        bool possible = true;
        for (qsizetype k = 0; k < findLineCount && possible; ++k)
            possible = QStringView(lines.at(i + k)).trimmed() == trimmedFind.at(k);
        if (!possible)
            continue;
        const QString block = joinLines(lines, i, findLineCount);
        if (removeIndentation(block) == normalizedFind)
            found.append(block);
    }
    return found;
}

QStringList EditReplacers::escapeNormalized(const QString &content, const QString &find)
{
    const QString unescapedFind = unescape(find);
    QStringList found;
    if (content.contains(unescapedFind))
        found.append(unescapedFind);
    const QStringList lines = splitLines(content);
    const qsizetype findLineCount = splitLines(unescapedFind).size();
    for (qsizetype i = 0; i + findLineCount <= lines.size(); ++i) {
        const QString block = joinLines(lines, i, findLineCount);
        if (unescape(block) == unescapedFind)
            found.append(block);
    }
    return found;
}

QStringList EditReplacers::trimmedBoundary(const QString &content, const QString &find)
{
    const QString trimmedFind = find.trimmed();
    if (trimmedFind == find)
        return {};
    QStringList found;
    if (content.contains(trimmedFind))
        found.append(trimmedFind);
    const QStringList lines = splitLines(content);
    const qsizetype findLineCount = splitLines(find).size();
    for (qsizetype i = 0; i + findLineCount <= lines.size(); ++i) {
        const QString block = joinLines(lines, i, findLineCount);
        if (block.trimmed() == trimmedFind)
            found.append(block);
    }
    return found;
}

QStringList EditReplacers::contextAware(const QString &content, const QString &find)
{
    QStringList findLines = splitLines(find);
    if (findLines.size() < 3)
        return {};
    if (findLines.last().isEmpty())
        findLines.removeLast();
    const QStringList lines = splitLines(content);
    const QString firstLine = findLines.first().trimmed();
    const QString lastLine = findLines.last().trimmed();

    QStringList found;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).trimmed() != firstLine)
            continue;
        for (qsizetype j = i + 2; j < lines.size(); ++j) {
            if (lines.at(j).trimmed() != lastLine)
                continue;
            // Only the first closing anchor after an opening one counts;
            // the block must have the model's line count and at least half
            // of its non-empty middle lines equal.
            const qsizetype blockSize = j - i + 1;
            if (blockSize == findLines.size()) {
                qsizetype matching = 0;
                qsizetype nonEmpty = 0;
                for (qsizetype k = 1; k < blockSize - 1; ++k) {
                    const QString blockLine = lines.at(i + k).trimmed();
                    const QString findLine = findLines.at(k).trimmed();
                    if (blockLine.isEmpty() && findLine.isEmpty())
                        continue;
                    ++nonEmpty;
                    if (blockLine == findLine)
                        ++matching;
                }
                if (nonEmpty == 0 || double(matching) / double(nonEmpty) >= 0.5)
                    found.append(joinLines(lines, i, blockSize));
            }
            break;
        }
    }
    return found;
}

QStringList EditReplacers::multiOccurrence(const QString &content, const QString &find)
{
    QStringList found;
    if (find.isEmpty())
        return found;
    for (qsizetype index = content.indexOf(find); index >= 0; index = content.indexOf(find, index + find.size()))
        found.append(find);
    return found;
}

Result<QString> EditReplacers::replace(const QString &content, const QString &oldString, const QString &newString,
                                       bool replaceAll)
{
    if (oldString == newString)
        return Error{QStringLiteral("No changes to apply: oldString and newString are identical.")};

    using Replacer = QStringList (*)(const QString &, const QString &);
    static constexpr Replacer chain[] = {
        &EditReplacers::simple,           &EditReplacers::lineTrimmed,         &EditReplacers::blockAnchor,
        &EditReplacers::whitespaceNormalized, &EditReplacers::indentationFlexible, &EditReplacers::escapeNormalized,
        &EditReplacers::trimmedBoundary,  &EditReplacers::contextAware,        &EditReplacers::multiOccurrence,
    };

    bool notFound = true;
    for (const Replacer replacer : chain) {
        const QStringList candidates = replacer(content, oldString);
        for (const QString &search : candidates) {
            // An empty proposal "occurs" everywhere; OpenCode would then
            // insert newString between every character with replaceAll.
            if (search.isEmpty())
                continue;
            const qsizetype index = content.indexOf(search);
            if (index < 0)
                continue;
            notFound = false;
            if (replaceAll) {
                QString replaced = content;
                return replaced.replace(search, newString);
            }
            if (content.lastIndexOf(search) != index)
                continue;
            return QString(content.left(index) + newString + content.mid(index + search.size()));
        }
    }
    if (notFound)
        return Error{QStringLiteral("Could not find oldString in the file. It must match exactly, including whitespace, "
                        "indentation, and line endings.")};
    return Error{QStringLiteral("Found multiple matches for oldString. Provide more surrounding context to make the match "
                    "unique.")};
}

} // namespace qcode
