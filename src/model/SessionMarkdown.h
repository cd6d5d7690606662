#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>

#include "Part.h"
#include "Session.h"

namespace qcode {

// A session as a Markdown document a person can read, paste or keep:
// the title, then each message under "## You" or "## Assistant (agent ·
// model)", its text as written, reasoning quoted, each tool call with its
// input and (shortened) output in fenced blocks, attachments as links.
// Bookkeeping parts (step markers, snapshots) and the synthetic text qcode
// adds for the model are left out.
class SessionMarkdown
{
    Q_DECLARE_TR_FUNCTIONS(SessionMarkdown)

public:
    // A tool's output longer than this many lines is cut in the export.
    static constexpr int OutputLines = 40;

    static QString render(const Session &session, const QList<MessageWithParts> &messages);
    static QString renderMessage(const MessageWithParts &message);
    static QString renderPart(const Part &part);
};

} // namespace qcode
