#include "StoreColumns.h"

#include <QDateTime>

#include "Store.h"

using namespace Qt::StringLiterals;

namespace qcode::StoreColumns {

qint64 nowMs() { return QDateTime::currentMSecsSinceEpoch(); }

QByteArray jsonBytes(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }
QVariant jsonText(const QJsonObject &o) { return QString::fromUtf8(jsonBytes(o)); }
QVariant jsonText(const QJsonArray &a) { return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact)); }

std::optional<QJsonDocument> parseJson(const QVariant &column)
{
    if (column.isNull())
        return std::nullopt;
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(
        column.typeId() == QMetaType::QByteArray ? column.toByteArray() : column.toString().toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        return std::nullopt;
    return doc;
}

QVariant nullable(const std::optional<QString> &v) { return v ? QVariant(*v) : QVariant(QMetaType(QMetaType::QString)); }
QVariant nullable(const std::optional<qint64> &v) { return v ? QVariant(*v) : QVariant(QMetaType(QMetaType::LongLong)); }
QVariant nullable(const std::optional<QJsonObject> &v) { return v ? jsonText(*v) : QVariant(QMetaType(QMetaType::QString)); }
QVariant nullable(const std::optional<QJsonArray> &v) { return v ? jsonText(*v) : QVariant(QMetaType(QMetaType::QString)); }

std::optional<QString> optionalString(const QVariant &v) { return v.isNull() ? std::nullopt : std::optional(v.toString()); }
std::optional<qint64> optionalInteger(const QVariant &v) { return v.isNull() ? std::nullopt : std::optional(v.toLongLong()); }

const QString ProjectColumns = u"id, worktree, vcs, name, icon_url, icon_color, time_created, time_updated,"
                               " time_initialized, sandboxes, commands"_s;

QVariantList projectValues(const Project &p)
{
    const qint64 now = nowMs();
    return {p.id,
            p.worktree,
            nullable(p.vcs),
            nullable(p.name),
            nullable(p.iconUrl),
            nullable(p.iconColor),
            p.timeCreated ? p.timeCreated : now,
            p.timeUpdated ? p.timeUpdated : now,
            nullable(p.timeInitialized),
            jsonText(p.sandboxes),
            nullable(p.commands)};
}

Project projectFromRow(const QSqlQuery &q)
{
    Project p;
    p.id = q.value(0).toString();
    p.worktree = q.value(1).toString();
    p.vcs = optionalString(q.value(2));
    p.name = optionalString(q.value(3));
    p.iconUrl = optionalString(q.value(4));
    p.iconColor = optionalString(q.value(5));
    p.timeCreated = q.value(6).toLongLong();
    p.timeUpdated = q.value(7).toLongLong();
    p.timeInitialized = optionalInteger(q.value(8));
    if (const auto doc = parseJson(q.value(9)))
        p.sandboxes = doc->array();
    if (const auto doc = parseJson(q.value(10)))
        p.commands = doc->object();
    return p;
}

const QString SessionColumns =
    u"id, project_id, workspace_id, parent_id, slug, directory, title, version, share_url, summary_additions,"
    " summary_deletions, summary_files, summary_diffs, revert, permission, time_created, time_updated,"
    " time_compacting, time_archived, data"_s;

QVariantList sessionValues(const Session &s)
{
    const auto summaryField = [&s](qint64 SessionSummary::*field) {
        return s.summary ? QVariant((*s.summary).*field) : QVariant(QMetaType(QMetaType::LongLong));
    };
    return {s.id,
            s.projectID,
            nullable(s.workspaceID),
            nullable(s.parentID),
            s.slug,
            s.directory,
            s.title,
            s.version,
            nullable(s.shareUrl),
            summaryField(&SessionSummary::additions),
            summaryField(&SessionSummary::deletions),
            summaryField(&SessionSummary::files),
            nullable(s.summary ? s.summary->diffs : std::nullopt),
            nullable(s.revert),
            nullable(s.permission),
            s.time.created,
            s.time.updated,
            nullable(s.time.compacting),
            nullable(s.time.archived),
            // data: qcode's addition, the fields no column holds (a newer OpenCode's).
            s.extra.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : jsonText(s.extra)};
}

Result<Session> sessionFromRow(const QSqlQuery &q)
{
    Session s;
    s.id = q.value(0).toString();
    s.projectID = q.value(1).toString();
    s.workspaceID = optionalString(q.value(2));
    s.parentID = optionalString(q.value(3));
    s.slug = q.value(4).toString();
    s.directory = q.value(5).toString();
    s.title = q.value(6).toString();
    s.version = q.value(7).toString();
    s.shareUrl = optionalString(q.value(8));
    if (!q.value(9).isNull()) {
        s.summary = SessionSummary{q.value(9).toLongLong(), q.value(10).toLongLong(), q.value(11).toLongLong(), {}};
        if (const auto doc = parseJson(q.value(12)))
            s.summary->diffs = doc->array();
    }
    if (const auto doc = parseJson(q.value(13)))
        s.revert = doc->object();
    if (const auto doc = parseJson(q.value(14)))
        s.permission = doc->array();
    s.time.created = q.value(15).toLongLong();
    s.time.updated = q.value(16).toLongLong();
    s.time.compacting = optionalInteger(q.value(17));
    s.time.archived = optionalInteger(q.value(18));
    if (!q.value(19).isNull()) {
        const auto doc = parseJson(q.value(19));
        if (!doc)
            return Error{Store::tr("Session %1 has damaged data in the database.").arg(s.id)};
        s.extra = doc->object();
    }
    return s;
}

Result<Message> messageFromRow(const QString &id, const QString &sessionID, const QVariant &data)
{
    const auto doc = parseJson(data);
    if (!doc || !doc->isObject())
        return Error{Store::tr("Message %1 has damaged data in the database.").arg(id)};
    QJsonObject o = doc->object();
    o.insert("id"_L1, id);
    o.insert("sessionID"_L1, sessionID);
    return Message::fromJson(o);
}

Result<Part> partFromRow(const QString &id, const QString &messageID, const QString &sessionID, const QVariant &data)
{
    const auto doc = parseJson(data);
    if (!doc || !doc->isObject())
        return Error{Store::tr("Part %1 has damaged data in the database.").arg(id)};
    QJsonObject o = doc->object();
    o.insert("id"_L1, id);
    o.insert("messageID"_L1, messageID);
    o.insert("sessionID"_L1, sessionID);
    return Part::fromJson(o);
}

} // namespace qcode::StoreColumns
