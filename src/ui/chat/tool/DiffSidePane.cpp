#include "DiffSidePane.h"

#include "DiffGutter.h"

namespace qcode {

DiffSidePane::DiffSidePane(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new DiffGutter(this, DiffGutter::Columns::New))
{
    setObjectName(QStringLiteral("diffNewSide"));
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setFrameShape(QFrame::NoFrame);
    reserveGutter();
}

void DiffSidePane::reserveGutter()
{
    const QMargins margins(m_gutter->preferredWidth(), 0, 0, 0);
    if (margins != viewportMargins())
        setViewportMargins(margins);
}

} // namespace qcode
