#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

#include "engine/message/PromptInput.h"
#include "model/Result.h"

namespace qcode {

// A prompt sent while its session was busy, not stored yet.
struct PendingPrompt {
    QString id; // "queue_…", unique in this engine
    PromptInput input;
};

// The prompts waiting for their sessions (reference §2.2, done
// differently): OpenCode stores a prompt sent while the loop runs at once;
// qcode keeps it here, in memory, until the loop takes it at its next step,
// so the person can still change or withdraw it. Per session, first in,
// first out.
class PromptQueue
{
    Q_DECLARE_TR_FUNCTIONS(PromptQueue)

public:
    // The new entry's id.
    QString enqueue(PromptInput input);
    // Replaces the entry's text (see withText); the edited entry.
    Result<PendingPrompt> edit(const QString &sessionID, const QString &queueID, const QString &text);
    // Drops the entry; the dropped entry.
    Result<PendingPrompt> remove(const QString &sessionID, const QString &queueID);
    std::optional<PendingPrompt> takeFirst(const QString &sessionID);
    QList<PendingPrompt> takeAll(const QString &sessionID);
    bool isEmpty(const QString &sessionID) const;
    QList<PendingPrompt> entries(const QString &sessionID) const { return m_queues.value(sessionID); }

    // What a queued prompt says: its text parts and subtask prompts, joined
    // by blank lines.
    static QString text(const PromptInput &input);
    // `input` saying `text` instead: its text parts give way to one text
    // part where the first was (a subtask prompt is rewritten when there is
    // no text part); files and agents stay. Refused when nothing would be
    // left to send.
    static Result<PromptInput> withText(PromptInput input, const QString &text);

private:
    QHash<QString, QList<PendingPrompt>> m_queues;
    quint64 m_next = 0;
};

} // namespace qcode
