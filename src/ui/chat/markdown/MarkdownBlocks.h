#pragma once

#include <QString>
#include <QStringList>

#include <optional>

#include "MarkdownLine.h"

namespace qcode {

// Splits Markdown source into top-level blocks as it streams in, so a view
// renders each finished block once and re-renders only the last, open one.
//
// A block is closed only where rendering the blocks apart is sure to look
// like rendering the text whole: at a blank line after a paragraph, heading,
// table or quote; before a heading or fence that interrupts a paragraph;
// after a fence's closing line. A fence stays one block until it closes. A
// list continues across blank lines while the next line is indented or
// another item; a fence inside a list or quote keeps it open. Where unsure,
// the block is not split: that only costs re-rendering, never a wrong page.
//
// Input may use LF, CRLF or CR line breaks, split anywhere (even between CR
// and LF); blocks come out with LF.
class MarkdownBlocks
{
public:
    enum class Kind { None, Paragraph, Quote, List, IndentedCode, Fence };

    // Appends source text; returns the blocks it closed, in order.
    QStringList append(QStringView text);
    void clear();

    // The source after the closed blocks: the open block, the blank lines
    // that may still belong to it, and the line still being written.
    QString openBlock() const;
    qsizetype openBlockSize() const;
    Kind openKind() const { return m_kind; }
    int closedCount() const { return m_closedCount; }

private:
    void takeLine(const QString &line, QStringList &closed);
    void continueBlock(const QString &line, QStringList &closed);
    void continueList(const QString &line, QStringList &closed);
    void continueContainerFence(const QString &line, QStringList &closed);
    void startBlock(const QString &line, QStringList &closed);
    void addLine(const QString &line);
    void noteInnerFence(const QString &line);
    void close(QStringList &closed);

    Kind m_kind = Kind::None;
    QString m_block;        // complete lines of the open block
    QString m_blankLines;   // blank lines a list or indented code may yet continue after
    QString m_partialLine;  // text after the last line break
    bool m_afterCarriageReturn = false;
    std::optional<FenceMarker> m_fence;      // the open block's own fence
    std::optional<FenceMarker> m_innerFence; // a fence open inside a list or quote
    int m_closedCount = 0;
};

} // namespace qcode
