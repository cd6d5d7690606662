#include "CompactionFilter.h"

#include <algorithm>

namespace qcode {

bool CompactionFilter::take(const MessageWithParts &message)
{
    if (const AssistantMessage *assistant = message.info.assistant()) {
        // 1.2.27: a summary that ended in an error did not complete the compaction.
        if (assistant->isSummary() && assistant->finish && !assistant->error)
            m_answeredCompactions.insert(assistant->parentID);
        return true;
    }
    const bool requestsCompaction = std::any_of(message.parts.begin(), message.parts.end(),
                                                [](const Part &p) { return p.as<CompactionPart>() != nullptr; });
    return !(requestsCompaction && m_answeredCompactions.contains(message.info.id()));
}

QList<MessageWithParts> filterCompacted(const QList<MessageWithParts> &newestFirst)
{
    CompactionFilter filter;
    QList<MessageWithParts> visible;
    for (const MessageWithParts &message : newestFirst) {
        visible.append(message);
        if (!filter.take(message))
            break;
    }
    std::reverse(visible.begin(), visible.end());
    return visible;
}

} // namespace qcode
