#pragma once

#include <QWidget>

#include "PromptChoices.h"

class QLabel;
class QToolButton;

namespace qcode {

class PromptEditor;

// One prompt waiting in the queue: its text (elided to one line), an edit
// button that turns it into an editor in place (Enter saves, Shift+Enter
// is a new line, Escape cancels), "Send now" (after a stop nothing queued
// goes by itself) and a remove button. F2 edits and Delete
// removes when the row has focus.
class QueuedPromptRow : public QWidget
{
    Q_OBJECT

public:
    explicit QueuedPromptRow(const QueuedPrompt &prompt, QWidget *parent = nullptr);

    QString id() const { return m_prompt.id; }
    QString text() const { return m_prompt.text; }
    // Updates the shown text, unless the person is editing it right now.
    void setPrompt(const QueuedPrompt &prompt);

    bool isEditing() const { return m_editor != nullptr; }
    void startEditing();
    PromptEditor *editor() const { return m_editor; }
    QToolButton *editButton() const { return m_editButton; }
    QToolButton *removeButton() const { return m_removeButton; }
    QToolButton *sendNowButton() const { return m_sendNowButton; }

Q_SIGNALS:
    void edited(const QString &id, const QString &text);
    void removed(const QString &id);
    void sendNowRequested(const QString &id);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void finishEditing(bool save);
    void updateLabel();

    QueuedPrompt m_prompt;
    QLabel *m_badge = nullptr;
    QLabel *m_label = nullptr;
    PromptEditor *m_editor = nullptr;
    QToolButton *m_editButton = nullptr;
    QToolButton *m_removeButton = nullptr;
    QToolButton *m_sendNowButton = nullptr;
};

} // namespace qcode
