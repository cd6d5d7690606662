#include "PromptQueue.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

Error gone(const QString &queueID)
{
    return Error(PromptQueue::tr("The queued prompt %1 was already sent or removed.").arg(queueID));
}

} // namespace

QString PromptQueue::enqueue(PromptInput input)
{
    const QString id = u"queue_%1"_s.arg(++m_next);
    const QString sessionID = input.sessionID;
    m_queues[sessionID].append(PendingPrompt{id, std::move(input)});
    return id;
}

Result<PendingPrompt> PromptQueue::edit(const QString &sessionID, const QString &queueID, const QString &text)
{
    auto queue = m_queues.find(sessionID);
    if (queue == m_queues.end())
        return gone(queueID);
    for (PendingPrompt &entry : *queue) {
        if (entry.id != queueID)
            continue;
        Result<PromptInput> edited = withText(entry.input, text);
        if (!edited)
            return Error(edited.errorMessage());
        entry.input = std::move(*edited);
        return entry;
    }
    return gone(queueID);
}

Result<PendingPrompt> PromptQueue::remove(const QString &sessionID, const QString &queueID)
{
    auto queue = m_queues.find(sessionID);
    if (queue == m_queues.end())
        return gone(queueID);
    for (qsizetype i = 0; i < queue->size(); ++i) {
        if (queue->at(i).id == queueID) {
            PendingPrompt removed = queue->takeAt(i);
            if (queue->isEmpty())
                m_queues.erase(queue);
            return removed;
        }
    }
    return gone(queueID);
}

std::optional<PendingPrompt> PromptQueue::takeFirst(const QString &sessionID)
{
    auto found = m_queues.find(sessionID);
    if (found == m_queues.end() || found->isEmpty())
        return std::nullopt;
    PendingPrompt first = found->takeFirst();
    if (found->isEmpty())
        m_queues.erase(found);
    return first;
}

QList<PendingPrompt> PromptQueue::takeAll(const QString &sessionID)
{
    return m_queues.take(sessionID);
}

bool PromptQueue::isEmpty(const QString &sessionID) const
{
    return m_queues.value(sessionID).isEmpty();
}

QString PromptQueue::text(const PromptInput &input)
{
    QStringList texts;
    for (const PromptPart &part : input.parts) {
        if (const auto *text = std::get_if<TextPart>(&part.body))
            texts.append(text->text);
        else if (const auto *subtask = std::get_if<SubtaskPart>(&part.body))
            texts.append(subtask->prompt);
    }
    return texts.join(u"\n\n"_s);
}

Result<PromptInput> PromptQueue::withText(PromptInput input, const QString &text)
{
    qsizetype first = -1;
    for (qsizetype i = 0; i < input.parts.size(); ++i) {
        if (std::holds_alternative<TextPart>(input.parts.at(i).body)) {
            first = first < 0 ? i : first;
            input.parts.removeAt(i--);
        }
    }
    if (first < 0) {
        for (PromptPart &part : input.parts) {
            if (auto *subtask = std::get_if<SubtaskPart>(&part.body)) {
                if (text.trimmed().isEmpty())
                    return Error(tr("A subtask needs a prompt: remove the queued prompt instead."));
                subtask->prompt = text;
                return input;
            }
        }
    }
    if (text.trimmed().isEmpty()) {
        if (input.parts.isEmpty())
            return Error(tr("A queued prompt cannot be empty: remove it instead."));
        return input;
    }
    input.parts.insert(first < 0 ? 0 : first, PromptPart::text(text));
    return input;
}

} // namespace qcode
