#include "MarkdownLine.h"

namespace qcode::MarkdownLine {
namespace {

constexpr int MaxBlockIndent = 3;
constexpr int MaxListNumberDigits = 9;

bool isSpace(QChar c)
{
    return c == u' ' || c == u'\t';
}

qsizetype firstNonSpace(QStringView line)
{
    qsizetype i = 0;
    while (i < line.size() && isSpace(line[i]))
        ++i;
    return i;
}

// The length of a list marker at the start of `text` ("-", "12."), or 0.
qsizetype listMarkerLength(QStringView text)
{
    if (text.isEmpty())
        return 0;
    qsizetype length = 0;
    if (text[0] == u'-' || text[0] == u'*' || text[0] == u'+') {
        length = 1;
    } else {
        while (length < text.size() && length < MaxListNumberDigits && text[length].isDigit() && text[length].unicode() < 128)
            ++length;
        if (length == 0 || length >= text.size() || (text[length] != u'.' && text[length] != u')'))
            return 0;
        ++length;
    }
    return length == text.size() || isSpace(text[length]) ? length : 0;
}

} // namespace

bool isBlank(QStringView line)
{
    return firstNonSpace(line) == line.size();
}

int indentation(QStringView line)
{
    int column = 0;
    for (QChar c : line) {
        if (c == u' ')
            ++column;
        else if (c == u'\t')
            column += 4 - column % 4;
        else
            break;
    }
    return column;
}

std::optional<FenceMarker> fenceOpener(QStringView line)
{
    const int indent = indentation(line);
    if (indent > MaxBlockIndent)
        return std::nullopt;
    const QStringView rest = line.mid(firstNonSpace(line));
    if (rest.isEmpty() || (rest[0] != u'`' && rest[0] != u'~'))
        return std::nullopt;
    const QChar marker = rest[0];
    qsizetype length = 0;
    while (length < rest.size() && rest[length] == marker)
        ++length;
    if (length < 3)
        return std::nullopt;
    const QStringView info = rest.mid(length).trimmed();
    // "```inline``` code" is a code span, not a fence.
    if (marker == u'`' && info.contains(u'`'))
        return std::nullopt;
    return FenceMarker{marker, int(length), indent, info.toString()};
}

bool closesFence(QStringView line, const FenceMarker &fence)
{
    if (indentation(line) > MaxBlockIndent)
        return false;
    const QStringView rest = line.mid(firstNonSpace(line));
    qsizetype length = 0;
    while (length < rest.size() && rest[length] == fence.marker)
        ++length;
    return length >= fence.length && isBlank(rest.mid(length));
}

bool isAtxHeading(QStringView line)
{
    if (indentation(line) > MaxBlockIndent)
        return false;
    const QStringView rest = line.mid(firstNonSpace(line));
    qsizetype hashes = 0;
    while (hashes < rest.size() && rest[hashes] == u'#')
        ++hashes;
    return hashes >= 1 && hashes <= 6 && (hashes == rest.size() || isSpace(rest[hashes]));
}

bool isListItem(QStringView line)
{
    return indentation(line) <= MaxBlockIndent && listMarkerLength(line.mid(firstNonSpace(line))) > 0;
}

bool isBlockQuote(QStringView line)
{
    return indentation(line) <= MaxBlockIndent && line.mid(firstNonSpace(line)).startsWith(u'>');
}

QStringView withoutContainerMarkers(QStringView line)
{
    QStringView rest = line;
    for (;;) {
        rest = rest.mid(firstNonSpace(rest));
        if (rest.startsWith(u'>')) {
            rest = rest.mid(1);
        } else if (const qsizetype marker = listMarkerLength(rest); marker > 0) {
            rest = rest.mid(marker);
        } else {
            return rest;
        }
    }
}

QStringView withoutQuoteMarkers(QStringView line)
{
    QStringView rest = line.mid(firstNonSpace(line));
    while (rest.startsWith(u'>')) {
        rest = rest.mid(1);
        rest = rest.mid(firstNonSpace(rest));
    }
    return rest;
}

} // namespace qcode::MarkdownLine
