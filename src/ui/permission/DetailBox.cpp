#include "DetailBox.h"

#include <QAbstractTextDocumentLayout>
#include <QFontDatabase>
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
    // A plain text layout measures its height in lines, wrapped ones counted.
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &DetailBox::fitHeight);
    fitHeight();
}

void DetailBox::fitHeight()
{
    const int lines = qBound(1, qCeil(document()->documentLayout()->documentSize().height()), m_maximumLines);
    // One pixel spare each side: rounding must not cost a scroll bar.
    const int margins = 2 * (frameWidth() + qCeil(document()->documentMargin()) + 1);
    setFixedHeight(lines * fontMetrics().lineSpacing() + margins);
}

} // namespace qcode
