#include "QueuedPromptList.h"

#include <QVBoxLayout>

#include <algorithm>

#include "QueuedPromptRow.h"

using namespace Qt::StringLiterals;

namespace qcode {

QueuedPromptList::QueuedPromptList(QWidget *parent) : QWidget(parent)
{
    setObjectName(u"queuedPrompts"_s);
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(2);
    hide();
}

void QueuedPromptList::setQueued(const QList<QueuedPrompt> &queued)
{
    QList<QueuedPromptRow *> kept;
    for (const QueuedPrompt &prompt : queued) {
        auto existing = std::find_if(m_rows.begin(), m_rows.end(),
                                     [&](const QueuedPromptRow *row) { return row->id() == prompt.id; });
        QueuedPromptRow *row = nullptr;
        if (existing != m_rows.end()) {
            row = *existing;
            m_rows.erase(existing);
            row->setPrompt(prompt);
        } else {
            row = new QueuedPromptRow(prompt, this);
            connect(row, &QueuedPromptRow::edited, this, &QueuedPromptList::edited);
            connect(row, &QueuedPromptRow::removed, this, &QueuedPromptList::removed);
            connect(row, &QueuedPromptRow::sendNowRequested, this, &QueuedPromptList::sendNowRequested);
        }
        kept.append(row);
    }
    for (QueuedPromptRow *gone : std::as_const(m_rows)) {
        gone->hide();
        gone->deleteLater(); // it may be inside its own signal
    }
    m_rows = kept;
    for (QueuedPromptRow *row : std::as_const(m_rows)) {
        m_layout->removeWidget(row);
        m_layout->addWidget(row);
    }
    setVisible(!m_rows.isEmpty());
}

} // namespace qcode
