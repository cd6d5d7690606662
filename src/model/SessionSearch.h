#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include "Result.h"

namespace qcode {

// Finds sessions by what was said in them: the ids of the project's
// sessions whose text (the person's prompts and the agent's answers, not
// tool output) contains `text`, case-insensitively for ASCII letters.
// Opens a read-only connection of its own to `databasePath`, so it runs on
// any thread (the window runs it off the GUI thread, after each pause in
// typing) beside the app's own connections.
class SessionSearch
{
    Q_DECLARE_TR_FUNCTIONS(SessionSearch)

public:
    static Result<QStringList> sessionsContaining(const QString &databasePath, const QString &projectID,
                                                  const QString &text);
};

} // namespace qcode
