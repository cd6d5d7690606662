#pragma once

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QVariant>
#include <QVariantList>

#include <optional>

#include "Message.h"
#include "Part.h"
#include "Project.h"
#include "Result.h"
#include "Session.h"

// How the store's value types map to and from table columns. Internal to
// the Store's implementation files.
namespace qcode::StoreColumns {

qint64 nowMs();

// The hot data columns go in and out as UTF-8 bytes: bound as a blob and
// CAST to text in SQL, read back CAST to a blob. The columns hold text (as
// OpenCode's do), and no UTF-16 round trip happens on either side.
QByteArray jsonBytes(const QJsonObject &o);
QVariant jsonText(const QJsonObject &o);
QVariant jsonText(const QJsonArray &a);
std::optional<QJsonDocument> parseJson(const QVariant &column);

QVariant nullable(const std::optional<QString> &v);
QVariant nullable(const std::optional<qint64> &v);
QVariant nullable(const std::optional<QJsonObject> &v);
QVariant nullable(const std::optional<QJsonArray> &v);
std::optional<QString> optionalString(const QVariant &v);
std::optional<qint64> optionalInteger(const QVariant &v);

extern const QString ProjectColumns;
QVariantList projectValues(const Project &p);
Project projectFromRow(const QSqlQuery &q);

extern const QString SessionColumns;
QVariantList sessionValues(const Session &s);
Result<Session> sessionFromRow(const QSqlQuery &q);

Result<Message> messageFromRow(const QString &id, const QString &sessionID, const QVariant &data);
Result<Part> partFromRow(const QString &id, const QString &messageID, const QString &sessionID, const QVariant &data);

} // namespace qcode::StoreColumns
