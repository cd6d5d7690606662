#include "FencedCodeWriter.h"

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include "CodeBlockFormats.h"
#include "FencedCode.h"
#include "MarkdownDocument.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// Characters QTextDocument treats as structure (block and frame separators,
// object placeholders) or cannot show: code is text, so they become U+FFFD.
QString displayable(const QString &line)
{
    QString shown = line;
    for (QChar &c : shown) {
        switch (c.unicode()) {
        case 0x0000:
        case 0x000D:
        case 0x2028:
        case 0x2029:
        case 0xFDD0:
        case 0xFDD1:
        case 0xFFFC:
            c = QChar::ReplacementCharacter;
            break;
        default:
            break;
        }
    }
    return shown;
}

} // namespace

FencedCodeWriter::FencedCodeWriter(QTextDocument *document, const CodeBlockFormats *formats, int codeIndex)
    : m_document(document), m_formats(formats), m_codeIndex(codeIndex)
{
}

void FencedCodeWriter::write(const FencedCode &code)
{
    QTextCursor cursor = MarkdownDocument::appendBlock(m_document, m_formats->header, m_formats->headerText);
    const QString label = code.language.isEmpty() ? tr("code") : code.language;
    cursor.insertText(displayable(label), m_formats->headerText);
    cursor.insertText(u"   "_s, m_formats->headerText);
    cursor.insertText(tr("Copy"), m_formats->copyLinkFor(m_codeIndex));
    m_lineCount = 0;
    appendLines(code, 0);
}

void FencedCodeWriter::grow(const FencedCode &code)
{
    // Every line but the last was complete when written; the last may have grown.
    const qsizetype keep = qMin(qMax<qsizetype>(0, m_lineCount - 1), code.lines.size());
    removeLinesAfter(keep);
    appendLines(code, keep);
}

void FencedCodeWriter::removeLinesAfter(qsizetype keep)
{
    if (m_lineCount <= keep)
        return;
    // The block is the end of the document while it grows.
    QTextBlock first = m_document->lastBlock();
    for (qsizetype line = m_lineCount - 1; line > keep; --line)
        first = first.previous();
    QTextCursor cursor(m_document);
    cursor.setPosition(first.position() - 1); // with the break before it
    cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    m_lineCount = keep;
}

void FencedCodeWriter::appendLines(const FencedCode &code, qsizetype from)
{
    const QTextBlockFormat lineFormat = m_formats->codeBlockFor(code.language, code.fence.marker);
    QTextCursor cursor(m_document);
    cursor.movePosition(QTextCursor::End);
    for (qsizetype i = from; i < code.lines.size(); ++i) {
        cursor.insertBlock(lineFormat, m_formats->codeText);
        cursor.insertText(displayable(code.lines.at(i)), m_formats->codeText);
        ++m_lineCount;
    }
}

} // namespace qcode
