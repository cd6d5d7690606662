#pragma once

#include <QCoreApplication>
#include <QString>

#include "Result.h"

namespace qcode {

// Sessions to and from files, for the menu, "/export" and the command
// line: Markdown (.md) to read, OpenCode's export JSON (.json) to move a
// session between machines or between qcode and OpenCode. Each call opens
// a database connection of its own, so it can run on a worker thread.
class SessionFiles
{
    Q_DECLARE_TR_FUNCTIONS(SessionFiles)

public:
    enum class Format { Markdown, Json };

    // .json is JSON; anything else is Markdown.
    static Format formatOf(const QString &filePath);
    static Result<QByteArray> render(const QString &databasePath, const QString &sessionID, Format format);
    // Written atomically: a failed export leaves no half file.
    static Result<void> exportTo(const QString &databasePath, const QString &sessionID, const QString &filePath);
    // The imported session's id.
    static Result<QString> importFrom(const QString &databasePath, const QString &filePath);
};

} // namespace qcode
