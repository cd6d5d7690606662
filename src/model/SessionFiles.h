#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include "Result.h"
#include "Session.h"

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

    // A JSON export bigger than this is not a session a person made.
    static constexpr qint64 MaxImportBytes = 512LL * 1024 * 1024;

    // .json is JSON; anything else is Markdown.
    static Format formatOf(const QString &filePath);
    static Result<QByteArray> render(const QString &databasePath, const QString &sessionID, Format format);
    // Written atomically: a failed export leaves no half file. The first
    // form takes the format from the file's name (formatOf).
    static Result<void> exportTo(const QString &databasePath, const QString &sessionID, const QString &filePath);
    static Result<void> exportTo(const QString &databasePath, const QString &sessionID, const QString &filePath,
                                 Format format);
    // The imported session's id.
    static Result<QString> importFrom(const QString &databasePath, const QString &filePath);
    // Imports an export already read (standard input); the export is
    // checked before the database is opened, so bad input never creates
    // or changes one. Returns the imported session.
    static Result<Session> importJson(const QString &databasePath, const QByteArray &json);
};

} // namespace qcode
