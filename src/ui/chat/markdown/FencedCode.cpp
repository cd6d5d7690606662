#include "FencedCode.h"

namespace qcode {
namespace {

// Removes up to `indent` columns of leading spaces, as the opening fence had.
QString withoutIndent(QStringView line, int indent)
{
    qsizetype i = 0;
    while (i < line.size() && i < indent && line[i] == u' ')
        ++i;
    return line.mid(i).toString();
}

} // namespace

std::optional<FencedCode> FencedCode::parse(const QString &source)
{
    const qsizetype firstBreak = source.indexOf(u'\n');
    const QStringView opener = QStringView(source).left(firstBreak < 0 ? source.size() : firstBreak);
    std::optional<FenceMarker> fence = MarkdownLine::fenceOpener(opener);
    if (!fence)
        return std::nullopt;
    FencedCode code;
    code.fence = *fence;
    code.language = fence->info.section(QChar(u' '), 0, 0, QString::SectionSkipEmpty);
    if (firstBreak < 0)
        return code;
    QStringView body = QStringView(source).mid(firstBreak + 1);
    // The block's own last line break ends its last line; it is not an empty line.
    if (body.endsWith(u'\n'))
        body.chop(1);
    if (body.isEmpty() && !source.endsWith(u"\n\n"))
        return code;
    for (QStringView line : body.split(u'\n')) {
        if (MarkdownLine::closesFence(line, *fence)) {
            code.closed = true;
            break;
        }
        code.lines.append(withoutIndent(line, fence->indent));
    }
    return code;
}

qsizetype FencedCode::truncate(qsizetype maxLength, qsizetype maxLineLength)
{
    qsizetype length = 0;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString &line = lines[i];
        if (line.size() > maxLineLength) {
            line.truncate(maxLineLength);
            line += QChar(0x2026);
        }
        length += line.size() + 1;
        if (length > maxLength) {
            const qsizetype dropped = lines.size() - i;
            lines.resize(i);
            return dropped;
        }
    }
    return 0;
}

} // namespace qcode
