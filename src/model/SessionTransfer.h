#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "Part.h"
#include "Result.h"
#include "Session.h"

namespace qcode {

class Store;

// Moves whole sessions in and out of the store in OpenCode's `export`
// shape, {info, messages: [{info, parts}]}, so a session travels between
// qcode and OpenCode in either direction.
class SessionTransfer
{
    Q_DECLARE_TR_FUNCTIONS(SessionTransfer)

public:
    static Result<QJsonObject> exportSession(Store &store, const QString &sessionID);
    static QByteArray toBytes(const QJsonObject &exported);

    // An export read and checked, not yet written anywhere.
    struct Contents {
        Session session;
        QList<MessageWithParts> messages; // as exported, oldest first
    };

    // Checks an export without a store, so a bad file is refused before
    // any database is opened or created: every message and part belongs to
    // the exported session and to the message it is listed under, no id
    // comes twice, and an answer's parent is in the export. What a file
    // cannot bring along is dropped: the session's parent (it is imported
    // on its own), its revert point, and permission rules that allow.
    static Result<Contents> read(const QByteArray &json);
    static Result<Contents> read(const QJsonObject &exported);
    // Writes checked contents in one transaction that only inserts; on
    // success returns the session's id. A session, message or part whose
    // id is stored already is refused with its id, and the database is left
    // as it was: an import never updates a row from the file.
    static Result<QString> write(Store &store, const Contents &contents);

    // read, then write: validates everything before writing anything.
    static Result<QString> importSession(Store &store, const QByteArray &json);
    static Result<QString> importSession(Store &store, const QJsonObject &exported);
};

} // namespace qcode
