#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include "Result.h"

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

    // Validates everything before writing anything; on success returns the
    // imported session's id. A session already in the store is refused
    // rather than overwritten.
    static Result<QString> importSession(Store &store, const QByteArray &json);
    static Result<QString> importSession(Store &store, const QJsonObject &exported);
};

} // namespace qcode
