#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include "Result.h"

namespace qcode {

class Store;

// Moves whole sessions in and out of the store in OpenCode's `export`
// shape, {info, messages: [{info, parts}]}, so a session travels between
// qcode and OpenCode in either direction.
namespace SessionTransfer {

Result<QJsonObject> exportSession(Store &store, const QString &sessionID);
QByteArray toBytes(const QJsonObject &exported);

// Validates everything before writing anything; on success returns the
// imported session's id. A session already in the store is refused rather
// than overwritten.
Result<QString> importSession(Store &store, const QByteArray &json);
Result<QString> importSession(Store &store, const QJsonObject &exported);

} // namespace SessionTransfer
} // namespace qcode
