#include "DetailBox.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextLayout>
#include <QtMath>

namespace qcode {

DetailBox::DetailBox(int maximumLines, QWidget *parent)
    : QPlainTextEdit(parent)
    , m_maximumLines(maximumLines)
{
    setReadOnly(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    connect(document(), &QTextDocument::contentsChanged, this, &DetailBox::fitHeight);
    fitHeight();
}

void DetailBox::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    fitHeight(); // a new width wraps the text into another number of lines
}

int DetailBox::wrappedLines() const
{
    const bool wraps = lineWrapMode() != QPlainTextEdit::NoWrap;
    const qreal width = viewport()->width() - 2 * document()->documentMargin();
    QTextOption option;
    option.setWrapMode(wraps ? wordWrapMode() : QTextOption::NoWrap);
    int lines = 0;
    for (QTextBlock block = document()->begin(); block.isValid() && lines < m_maximumLines; block = block.next()) {
        if (!wraps || width <= 0) {
            ++lines;
            continue;
        }
        QTextLayout layout(block.text(), font());
        layout.setTextOption(option);
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            ++lines;
        }
        layout.endLayout();
    }
    return qBound(1, lines, m_maximumLines);
}

void DetailBox::fitHeight()
{
    // One pixel spare each side: rounding must not cost a scroll bar.
    int height = wrappedLines() * fontMetrics().lineSpacing()
                 + 2 * (frameWidth() + qCeil(document()->documentMargin()) + 1);
    // Unwrapped text may need the horizontal scroll bar; it must not
    // cover the last line.
    if (lineWrapMode() == QPlainTextEdit::NoWrap)
        height += horizontalScrollBar()->sizeHint().height();
    setFixedHeight(height);
}

} // namespace qcode
