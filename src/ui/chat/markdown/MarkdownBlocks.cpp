#include "MarkdownBlocks.h"

namespace qcode {

using namespace MarkdownLine;

namespace {

constexpr int IndentedCodeColumns = 4;

} // namespace

QStringList MarkdownBlocks::append(QStringView text)
{
    QStringList closed;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'\n' && m_afterCarriageReturn && i == 0) {
            // The LF of a CRLF whose CR ended the previous piece.
            lineStart = 1;
            m_afterCarriageReturn = false;
            continue;
        }
        if (c != u'\n' && c != u'\r')
            continue;
        m_partialLine += text.mid(lineStart, i - lineStart);
        const QString line = std::exchange(m_partialLine, QString());
        takeLine(line, closed);
        const bool crlf = c == u'\r' && i + 1 < text.size() && text[i + 1] == u'\n';
        if (crlf)
            ++i;
        m_afterCarriageReturn = c == u'\r' && !crlf && i + 1 == text.size();
        lineStart = i + 1;
    }
    if (lineStart < text.size()) {
        m_partialLine += text.mid(lineStart);
        m_afterCarriageReturn = false;
    }
    return closed;
}

void MarkdownBlocks::clear()
{
    *this = MarkdownBlocks();
}

QString MarkdownBlocks::openBlock() const
{
    if (m_partialLine.isEmpty())
        return m_block;
    return m_block + m_blankLines + m_partialLine;
}

qsizetype MarkdownBlocks::openBlockSize() const
{
    return m_partialLine.isEmpty() ? m_block.size() : m_block.size() + m_blankLines.size() + m_partialLine.size();
}

void MarkdownBlocks::takeLine(const QString &line, QStringList &closed)
{
    if (m_kind == Kind::Fence) {
        addLine(line);
        if (closesFence(line, *m_fence))
            close(closed);
        return;
    }
    if (m_kind == Kind::None) {
        if (!isBlank(line))
            startBlock(line, closed);
        return;
    }
    continueBlock(line, closed);
}

void MarkdownBlocks::continueBlock(const QString &line, QStringList &closed)
{
    if (m_innerFence) {
        continueContainerFence(line, closed);
        return;
    }
    switch (m_kind) {
    case Kind::Paragraph:
    case Kind::Quote:
        if (isBlank(line)) {
            close(closed);
        } else if (isAtxHeading(line) || fenceOpener(line) || (m_kind == Kind::Paragraph && isBlockQuote(line))) {
            close(closed);
            startBlock(line, closed);
        } else {
            // An item interrupting a paragraph makes the rest list-like: blank
            // lines no longer end it for sure.
            if (isListItem(line))
                m_kind = Kind::List;
            addLine(line);
            noteInnerFence(line);
        }
        return;
    case Kind::List:
        continueList(line, closed);
        return;
    case Kind::IndentedCode:
        if (isBlank(line)) {
            m_blankLines += line + u'\n';
        } else if (indentation(line) >= IndentedCodeColumns) {
            m_block += std::exchange(m_blankLines, QString());
            addLine(line);
        } else {
            close(closed);
            startBlock(line, closed);
        }
        return;
    case Kind::None:
    case Kind::Fence:
        return;
    }
}

void MarkdownBlocks::continueList(const QString &line, QStringList &closed)
{
    if (isBlank(line)) {
        m_blankLines += line + u'\n';
        return;
    }
    const bool unindented = indentation(line) == 0;
    const bool afterBlank = !m_blankLines.isEmpty();
    if (!isListItem(line) && unindented && (afterBlank || isAtxHeading(line) || fenceOpener(line) || isBlockQuote(line))) {
        close(closed);
        startBlock(line, closed);
        return;
    }
    m_block += std::exchange(m_blankLines, QString());
    addLine(line);
    noteInnerFence(line);
}

void MarkdownBlocks::continueContainerFence(const QString &line, QStringList &closed)
{
    if (isBlank(line)) {
        // A blank line ends a quote, and with it the fence; a list may go on.
        if (m_kind == Kind::List) {
            m_blankLines += line + u'\n';
        } else {
            m_innerFence.reset();
            close(closed);
        }
        return;
    }
    const bool inContainer = m_kind == Kind::List ? indentation(line) > 0 || isListItem(line) : isBlockQuote(line);
    if (!inContainer) {
        // Fenced code is never a lazy continuation: an unindented (or
        // unquoted) line ends the container, the fence with it.
        m_innerFence.reset();
        close(closed);
        startBlock(line, closed);
        return;
    }
    m_block += std::exchange(m_blankLines, QString());
    addLine(line);
    if (m_kind == Kind::List && isListItem(line) && indentation(line) == 0) {
        // A new item of the list ends the previous item's fence.
        m_innerFence.reset();
        noteInnerFence(line);
    } else if (closesFence(withoutQuoteMarkers(line), *m_innerFence)) {
        m_innerFence.reset();
    }
}

void MarkdownBlocks::startBlock(const QString &line, QStringList &closed)
{
    m_block.clear();
    m_blankLines.clear();
    m_innerFence.reset();
    addLine(line);
    if ((m_fence = fenceOpener(line))) {
        m_kind = Kind::Fence;
    } else if (isAtxHeading(line)) {
        m_kind = Kind::Paragraph;
        close(closed);
    } else if (indentation(line) >= IndentedCodeColumns) {
        m_kind = Kind::IndentedCode;
    } else if (isListItem(line)) {
        m_kind = Kind::List;
        noteInnerFence(line);
    } else if (isBlockQuote(line)) {
        m_kind = Kind::Quote;
        noteInnerFence(line);
    } else {
        m_kind = Kind::Paragraph;
    }
}

void MarkdownBlocks::addLine(const QString &line)
{
    m_block += line;
    m_block += u'\n';
}

void MarkdownBlocks::noteInnerFence(const QString &line)
{
    if (m_kind == Kind::List || m_kind == Kind::Quote)
        m_innerFence = fenceOpener(withoutContainerMarkers(line));
}

void MarkdownBlocks::close(QStringList &closed)
{
    closed.append(std::exchange(m_block, QString()));
    m_blankLines.clear();
    m_kind = Kind::None;
    m_fence.reset();
    m_innerFence.reset();
    ++m_closedCount;
}

} // namespace qcode
