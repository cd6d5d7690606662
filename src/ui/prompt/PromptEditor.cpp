#include "PromptEditor.h"

#include <QAbstractTextDocumentLayout>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextLayout>
#include <QTimer>

namespace qcode {

PromptEditor::PromptEditor(QWidget *parent) : QPlainTextEdit(parent)
{
    setTabChangesFocus(false);
    setAcceptDrops(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            [this] { updateHeight(); });
    updateHeight();
}

PromptEditor::~PromptEditor() = default;

void PromptEditor::setMaximumHeightShare(double share)
{
    m_maximumShare = share;
    updateHeight();
}

void PromptEditor::setMinimumLines(int lines)
{
    m_minimumLines = std::max(1, lines);
    updateHeight();
}

bool PromptEditor::isEnter(const QKeyEvent *event)
{
    return event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
}

bool PromptEditor::event(QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        auto *key = static_cast<QKeyEvent *>(event);
        // Keys an input method is composing with are never shortcuts; Enter
        // with Ctrl sends, whatever the window binds to it.
        if (isComposing() || (key->key() == Qt::Key_Escape && m_claimsEscape)
            || (isEnter(key) && key->modifiers().testFlag(Qt::ControlModifier))) {
            event->accept();
            return true;
        }
        // Ctrl+End is the window's "jump to the latest message", also
        // from here; the end of a prompt is a Page Down away.
        if (key->key() == Qt::Key_End && key->modifiers() == Qt::ControlModifier) {
            event->ignore();
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

void PromptEditor::keyPressEvent(QKeyEvent *event)
{
    if (isComposing()) {
        // A key the input method let through while composing is still the
        // composition's, never "send" and never a line break.
        if (isEnter(event)) {
            event->accept();
            return;
        }
        QPlainTextEdit::keyPressEvent(event);
        return;
    }
    if (m_guardCommitEnter) {
        m_guardCommitEnter = false;
        if (isEnter(event)) {
            event->accept();
            return;
        }
    }
    const bool tab = event->key() == Qt::Key_Tab || event->key() == Qt::Key_Backtab;
    const bool forward = event->key() == Qt::Key_Tab && !event->modifiers().testFlag(Qt::ShiftModifier);
    if (tab && event->modifiers().testFlag(Qt::ControlModifier)) {
        // Ctrl+Tab moves on even while a popup would take Tab.
        QWidget::focusNextPrevChild(forward); // QTextEdit's own keeps the focus while editable
        event->accept();
        return;
    }
    if (m_interceptor && m_interceptor(event)) {
        event->accept();
        return;
    }
    if (tab) {
        // Tab leaves the box like any other field (an open popup took it above).
        QWidget::focusNextPrevChild(forward); // QTextEdit's own keeps the focus while editable
        event->accept();
        return;
    }
    if (isEnter(event)) {
        const Qt::KeyboardModifiers modifiers = event->modifiers() & ~Qt::KeypadModifier;
        if (modifiers.testFlag(Qt::ShiftModifier) || modifiers.testFlag(Qt::AltModifier))
            textCursor().insertBlock(); // a paragraph break, not the line separator Qt inserts
        else
            Q_EMIT submitRequested();
        event->accept();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void PromptEditor::inputMethodEvent(QInputMethodEvent *event)
{
    const bool wasComposing = isComposing();
    m_preedit = event->preeditString();
    if ((wasComposing || !event->commitString().isEmpty()) && m_preedit.isEmpty()) {
        // Some platforms deliver the Enter that confirmed the composition as
        // a key press right after the commit, in the same pass of the event
        // loop; only that one is swallowed.
        m_guardCommitEnter = true;
        QTimer::singleShot(0, this, [this] { m_guardCommitEnter = false; });
    }
    QPlainTextEdit::inputMethodEvent(event);
}

bool PromptEditor::offersAttachments(const QMimeData *mime) const
{
    return m_mimeHandler && mime && (mime->hasUrls() || mime->hasImage());
}

bool PromptEditor::canInsertFromMimeData(const QMimeData *source) const
{
    return offersAttachments(source) || QPlainTextEdit::canInsertFromMimeData(source);
}

void PromptEditor::insertFromMimeData(const QMimeData *source)
{
    if (offersAttachments(source) && m_mimeHandler(source, false))
        return;
    QPlainTextEdit::insertFromMimeData(source);
}

void PromptEditor::dragEnterEvent(QDragEnterEvent *event)
{
    if (offersAttachments(event->mimeData())) {
        event->acceptProposedAction();
        return;
    }
    QPlainTextEdit::dragEnterEvent(event);
}

void PromptEditor::dragMoveEvent(QDragMoveEvent *event)
{
    if (offersAttachments(event->mimeData())) {
        event->acceptProposedAction();
        return;
    }
    QPlainTextEdit::dragMoveEvent(event);
}

void PromptEditor::dropEvent(QDropEvent *event)
{
    // Files and images become chips; the text cursor stays where it was.
    if (offersAttachments(event->mimeData())) {
        m_mimeHandler(event->mimeData(), true);
        event->acceptProposedAction();
        return;
    }
    QPlainTextEdit::dropEvent(event);
}

bool PromptEditor::isCursorOnFirstLine() const
{
    const QTextCursor cursor = textCursor();
    if (cursor.blockNumber() != 0)
        return false;
    const QTextLayout *layout = cursor.block().layout();
    return !layout || layout->lineCount() == 0
        || layout->lineForTextPosition(cursor.positionInBlock()).lineNumber() <= 0;
}

bool PromptEditor::isCursorOnLastLine() const
{
    const QTextCursor cursor = textCursor();
    if (cursor.block() != document()->lastBlock())
        return false;
    const QTextLayout *layout = cursor.block().layout();
    if (!layout || layout->lineCount() == 0)
        return true;
    const QTextLine line = layout->lineForTextPosition(cursor.positionInBlock());
    return !line.isValid() || line.lineNumber() == layout->lineCount() - 1;
}

int PromptEditor::heightForLines(qreal lines) const
{
    const QMargins margins = contentsMargins();
    return int(std::ceil(lines * fontMetrics().lineSpacing() + 2 * document()->documentMargin())) + margins.top()
        + margins.bottom();
}

QSize PromptEditor::sizeHint() const
{
    return QSize(QPlainTextEdit::sizeHint().width(), height());
}

QSize PromptEditor::minimumSizeHint() const
{
    return QSize(QPlainTextEdit::minimumSizeHint().width(), heightForLines(m_minimumLines));
}

void PromptEditor::updateHeight()
{
    // QPlainTextEdit's document layout measures its height in lines.
    const qreal lines = std::max<qreal>(m_minimumLines, document()->documentLayout()->documentSize().height());
    const int wanted = heightForLines(lines);
    const int minimum = heightForLines(m_minimumLines);
    const QWidget *top = window();
    const int maximum = (top && top != this) ? std::max(minimum, int(top->height() * m_maximumShare)) : wanted;
    const int target = std::clamp(wanted, minimum, maximum);
    if (target != height() || minimumHeight() != target) {
        setFixedHeight(target);
        updateGeometry();
    }
}

void PromptEditor::watchWindow()
{
    QWidget *top = window();
    if (top == m_watchedWindow || top == this)
        return;
    if (m_watchedWindow)
        m_watchedWindow->removeEventFilter(this);
    m_watchedWindow = top;
    top->installEventFilter(this);
}

bool PromptEditor::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_watchedWindow && event->type() == QEvent::Resize)
        updateHeight();
    return QPlainTextEdit::eventFilter(watched, event);
}

void PromptEditor::showEvent(QShowEvent *event)
{
    QPlainTextEdit::showEvent(event);
    watchWindow();
    updateHeight();
}

} // namespace qcode
