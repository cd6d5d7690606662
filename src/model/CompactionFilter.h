#pragma once

#include <QList>
#include <QSet>
#include <QString>

#include "Part.h"

namespace qcode {

// OpenCode's filterCompacted (reference 4.3): walk a session's messages
// newest first and stop at the user message whose compaction request a
// finished summary answered. That message and everything after it is what
// the model sees; older history stays in the database.
class CompactionFilter
{
public:
    // Takes the next older message; false once it was the stopping point
    // (the message itself still belongs to the result).
    bool take(const MessageWithParts &message);

private:
    QSet<QString> m_answeredCompactions;
};

// The visible history, oldest first, from messages given newest first.
QList<MessageWithParts> filterCompacted(const QList<MessageWithParts> &newestFirst);

} // namespace qcode
