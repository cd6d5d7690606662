#include "PromptCompleter.h"

#include <QFocusEvent>
#include <QKeyEvent>
#include <QTextCursor>

#include "CompletionPopup.h"
#include "CompletionRanking.h"
#include "PromptEditor.h"

namespace qcode {

PromptCompleter::PromptCompleter(PromptEditor *editor) : QObject(editor), m_editor(editor)
{
    m_popup = new CompletionPopup(editor);
    connect(m_popup, &CompletionPopup::activated, this, [this](int row) {
        choose(row, Choice::Enter);
        m_editor->setFocus(Qt::PopupFocusReason);
    });
    // A keystroke moves both; the second call finds nothing new.
    connect(editor, &PromptEditor::textChanged, this, [this] { refresh(); });
    connect(editor, &PromptEditor::cursorPositionChanged, this, [this] { refresh(); });
    editor->installEventFilter(this);
}

bool PromptCompleter::eventFilter(QObject *watched, QEvent *event)
{
    // Focus gone elsewhere (not into a popup of ours) takes the list along.
    if (watched == m_editor && event->type() == QEvent::FocusOut
        && static_cast<QFocusEvent *>(event)->reason() != Qt::PopupFocusReason && isOpen())
        close();
    return QObject::eventFilter(watched, event);
}

PromptCompleter::~PromptCompleter()
{
    // The popup lives in the window (an overlay), which may outlive us.
    delete m_popup;
}

void PromptCompleter::setAgents(const QList<AgentChoice> &agents)
{
    m_agents = agents;
    if (isOpen())
        refresh(true);
}

void PromptCompleter::setCommands(const QList<SlashCommand> &commands)
{
    m_commands = commands;
    if (isOpen())
        refresh(true);
}

void PromptCompleter::setPaths(const QStringList &paths)
{
    m_paths = paths;
    if (isOpen())
        refresh(true);
}

bool PromptCompleter::isOpen() const
{
    return m_open && m_popup && m_popup->isVisible();
}

void PromptCompleter::setOpen(bool open)
{
    if (!m_popup)
        return;
    if (open)
        m_popup->showAt(m_editor);
    else
        m_popup->hide();
    if (open != m_open) {
        m_open = open;
        Q_EMIT openChanged(open);
    }
}

void PromptCompleter::close()
{
    m_mode = Mode::Closed;
    setOpen(false);
}

void PromptCompleter::refresh(bool force)
{
    if (m_replacing)
        return;
    const QTextCursor cursor = m_editor->textCursor();
    const QString text = m_editor->toPlainText();
    if (!force && text == m_seenText && cursor.position() == m_seenCursor && !cursor.hasSelection())
        return;
    m_seenText = text;
    m_seenCursor = cursor.position();
    std::optional<PromptTextParser::Token> token;
    Mode mode = Mode::Closed;
    if (!cursor.hasSelection()) {
        if ((token = PromptTextParser::commandAt(text, cursor.position())) && !m_commands.isEmpty())
            mode = Mode::Command;
        else if ((token = PromptTextParser::mentionAt(text, cursor.position())))
            mode = Mode::Mention;
    }
    if (mode == Mode::Closed) {
        m_dismissedAt = -1;
        close();
        return;
    }
    if (token->start == m_dismissedAt) {
        close();
        return;
    }
    m_dismissedAt = -1;
    m_mode = mode;
    m_token = *token;
    const QList<CompletionItem> items = mode == Mode::Command
        ? CompletionRanking::commands(token->text, m_commands, MaxRows)
        : CompletionRanking::mentions(token->text, m_agents, m_paths, MaxRows);
    if (items.isEmpty()) {
        setOpen(false);
        return;
    }
    m_popup->setItems(items);
    setOpen(true);
}

bool PromptCompleter::handleKey(QKeyEvent *event)
{
    if (!isOpen())
        return false;
    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~Qt::KeypadModifier;
    switch (event->key()) {
    case Qt::Key_Up:
        m_popup->moveCurrent(-1);
        return true;
    case Qt::Key_Down:
        m_popup->moveCurrent(1);
        return true;
    case Qt::Key_PageUp:
        m_popup->moveCurrent(-CompletionPopup::VisibleRows);
        return true;
    case Qt::Key_PageDown:
        m_popup->moveCurrent(CompletionPopup::VisibleRows);
        return true;
    case Qt::Key_Escape:
        m_dismissedAt = m_token.start;
        close();
        return true;
    case Qt::Key_Tab:
        if (modifiers != Qt::NoModifier)
            return false;
        choose(m_popup->currentRow(), Choice::Tab);
        return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        // Shift+Enter is still a new line, and Ctrl+Enter always sends.
        if (modifiers.testFlag(Qt::ShiftModifier) || modifiers.testFlag(Qt::ControlModifier))
            return false;
        choose(m_popup->currentRow(), Choice::Enter);
        return true;
    default:
        return false;
    }
}

void PromptCompleter::replaceToken(const QString &replacement, bool spaceAfter)
{
    const QString text = m_editor->toPlainText();
    // The whole token goes, also what stands after the cursor.
    qsizetype end = m_token.end;
    while (end < text.size() && !text.at(end).isSpace())
        ++end;
    const bool spaceFollows = end < text.size() && text.at(end).isSpace();
    m_replacing = true;
    QTextCursor cursor = m_editor->textCursor();
    cursor.setPosition(int(m_token.start));
    cursor.setPosition(int(end), QTextCursor::KeepAnchor);
    cursor.insertText(replacement + (spaceAfter && !spaceFollows ? QStringLiteral(" ") : QString()));
    if (spaceAfter && spaceFollows)
        cursor.movePosition(QTextCursor::NextCharacter);
    m_editor->setTextCursor(cursor);
    m_replacing = false;
}

void PromptCompleter::choose(int row, Choice how)
{
    if (row < 0 || row >= m_popup->items().size())
        return;
    const CompletionItem item = m_popup->items().at(row);
    const Mode mode = m_mode;
    close();
    if (mode == Mode::Command) {
        const bool runNow = item.kind == CompletionItem::Kind::Command && how == Choice::Enter;
        replaceToken(QStringLiteral("/") + item.value, !runNow);
        if (runNow)
            Q_EMIT sendRequested();
        return;
    }
    const bool drillDown = item.kind == CompletionItem::Kind::Folder && how == Choice::Tab;
    if (item.kind == CompletionItem::Kind::File || item.kind == CompletionItem::Kind::Folder)
        Q_EMIT fileChosen(item.value);
    replaceToken(QStringLiteral("@") + item.value, !drillDown);
    if (drillDown)
        refresh(true);
}

} // namespace qcode
