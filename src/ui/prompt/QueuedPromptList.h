#pragma once

#include <QList>
#include <QWidget>

#include "PromptChoices.h"

class QVBoxLayout;

namespace qcode {

class QueuedPromptRow;

// The prompts sent while the agent was busy, above the editor, oldest first.
class QueuedPromptList : public QWidget
{
    Q_OBJECT

public:
    explicit QueuedPromptList(QWidget *parent = nullptr);

    // Replaces the rows; a row being edited keeps the person's edit.
    void setQueued(const QList<QueuedPrompt> &queued);
    QList<QueuedPromptRow *> rows() const { return m_rows; }

Q_SIGNALS:
    void edited(const QString &id, const QString &text);
    void removed(const QString &id);
    void sendNowRequested(const QString &id);

private:
    QVBoxLayout *m_layout = nullptr;
    QList<QueuedPromptRow *> m_rows;
};

} // namespace qcode
