// The Store's messages and parts: upserts, pages, and history.
#include <QJsonDocument>

#include <algorithm>

#include "CompactionFilter.h"
#include "Store.h"
#include "StoreColumns.h"

using namespace Qt::StringLiterals;

namespace qcode {

using namespace StoreColumns;

Result<void> Store::updateMessage(const Message &message)
{
    QJsonObject data = message.toJson();
    data.remove("id"_L1);
    data.remove("sessionID"_L1);
    return run(u"INSERT INTO message (id, session_id, time_created, time_updated, data)"
               " VALUES (?,?,?,?,CAST(? AS TEXT))"
               " ON CONFLICT(id) DO UPDATE SET data = excluded.data, time_updated = excluded.time_updated"_s,
               {message.id(), message.sessionID(), message.created(), nowMs(), jsonBytes(data)},
               tr("save message %1").arg(message.id()));
}

Result<void> Store::updatePart(const Part &part)
{
    const qint64 now = nowMs();
    return run(u"INSERT INTO part (id, message_id, session_id, time_created, time_updated, data)"
               " VALUES (?,?,?,?,?,CAST(? AS TEXT))"
               " ON CONFLICT(id) DO UPDATE SET data = excluded.data, time_updated = excluded.time_updated"_s,
               {part.id, part.messageID, part.sessionID, now, now, jsonBytes(part.toDataJson())},
               tr("save part %1").arg(part.id));
}

Result<void> Store::insertMessage(const Message &message)
{
    QJsonObject data = message.toJson();
    data.remove("id"_L1);
    data.remove("sessionID"_L1);
    const qint64 now = nowMs();
    return run(u"INSERT INTO message (id, session_id, time_created, time_updated, data)"
               " VALUES (?,?,?,?,CAST(? AS TEXT))"_s,
               {message.id(), message.sessionID(), message.created(), now, jsonBytes(data)},
               tr("add message %1").arg(message.id()));
}

Result<void> Store::insertPart(const Part &part)
{
    const qint64 now = nowMs();
    return run(u"INSERT INTO part (id, message_id, session_id, time_created, time_updated, data)"
               " VALUES (?,?,?,?,?,CAST(? AS TEXT))"_s,
               {part.id, part.messageID, part.sessionID, now, now, jsonBytes(part.toDataJson())},
               tr("add part %1").arg(part.id));
}

Result<std::optional<QString>> Store::sessionOfMessage(const QString &messageID)
{
    std::optional<QString> session;
    auto read = forEachRow(u"SELECT session_id FROM message WHERE id = ?"_s, {messageID},
                           tr("read message %1").arg(messageID), [&](const QSqlQuery &row) -> Result<void> {
                               session = row.value(0).toString();
                               return {};
                           });
    if (!read)
        return read.error();
    return session;
}

Result<std::optional<QString>> Store::sessionOfPart(const QString &partID)
{
    std::optional<QString> session;
    auto read = forEachRow(u"SELECT session_id FROM part WHERE id = ?"_s, {partID}, tr("read part %1").arg(partID),
                           [&](const QSqlQuery &row) -> Result<void> {
                               session = row.value(0).toString();
                               return {};
                           });
    if (!read)
        return read.error();
    return session;
}

Result<void> Store::removeMessage(const QString &messageID)
{
    return run(u"DELETE FROM message WHERE id = ?"_s, {messageID}, tr("delete message %1").arg(messageID));
}

Result<void> Store::removePart(const QString &partID)
{
    return run(u"DELETE FROM part WHERE id = ?"_s, {partID}, tr("delete part %1").arg(partID));
}

Result<QList<Part>> Store::partsOf(const QStringList &messageIDs, QHash<QString, QList<Part>> *grouped)
{
    QList<Part> all;
    if (messageIDs.isEmpty())
        return all;
    QString placeholders = u"?"_s;
    for (qsizetype i = 1; i < messageIDs.size(); ++i)
        placeholders += u",?"_s;
    auto read = forEachRow(u"SELECT id, message_id, session_id, CAST(data AS BLOB) FROM part WHERE message_id IN ("_s +
                               placeholders + u") ORDER BY message_id, id"_s,
                           QVariantList(messageIDs.begin(), messageIDs.end()), tr("read parts"),
                           [&](const QSqlQuery &row) -> Result<void> {
                               auto part = partFromRow(row.value(0).toString(), row.value(1).toString(),
                                                       row.value(2).toString(), row.value(3));
                               if (!part)
                                   return part.error();
                               if (grouped)
                                   (*grouped)[part->messageID].append(std::move(part).value());
                               else
                                   all.append(std::move(part).value());
                               return {};
                           });
    if (!read)
        return read.error();
    return all;
}

Result<QList<Part>> Store::unfinishedToolParts(const QString &sessionID)
{
    QList<Part> found;
    QString sql = u"SELECT id, message_id, session_id, CAST(data AS BLOB) FROM part"
                  " WHERE json_extract(data, '$.type') = 'tool'"
                  " AND json_extract(data, '$.state.status') IN ('pending', 'running')"_s;
    QVariantList values;
    if (!sessionID.isEmpty()) {
        sql += u" AND session_id = ?"_s;
        values.append(sessionID);
    }
    auto read = forEachRow(sql + u" ORDER BY session_id, message_id, id"_s, values, tr("read unfinished tool parts"),
                           [&](const QSqlQuery &row) -> Result<void> {
                               auto part = partFromRow(row.value(0).toString(), row.value(1).toString(),
                                                       row.value(2).toString(), row.value(3));
                               if (!part)
                                   return part.error();
                               found.append(std::move(part).value());
                               return {};
                           });
    if (!read)
        return read.error();
    return found;
}

Result<QList<Part>> Store::parts(const QString &messageID)
{
    return partsOf({messageID}, nullptr);
}

Result<std::optional<MessageWithParts>> Store::message(const QString &messageID)
{
    std::optional<Message> info;
    auto read = forEachRow(u"SELECT id, session_id, CAST(data AS BLOB) FROM message WHERE id = ?"_s, {messageID},
                           tr("read message %1").arg(messageID), [&](const QSqlQuery &row) -> Result<void> {
                               auto m = messageFromRow(row.value(0).toString(), row.value(1).toString(), row.value(2));
                               if (!m)
                                   return m.error();
                               info = std::move(m).value();
                               return {};
                           });
    if (!read)
        return read.error();
    if (!info)
        return std::optional<MessageWithParts>();
    auto list = parts(messageID);
    if (!list)
        return list.error();
    return std::optional(MessageWithParts{std::move(*info), std::move(list).value()});
}

Result<MessagePage> Store::messagePage(const QString &sessionID, const std::optional<MessageCursor> &before, int limit)
{
    const QString sql = before ? u"SELECT id, session_id, CAST(data AS BLOB), time_created FROM message"
                                 " WHERE session_id = ? AND (time_created < ? OR (time_created = ? AND id < ?))"
                                 " ORDER BY time_created DESC, id DESC LIMIT ?"_s
                               : u"SELECT id, session_id, CAST(data AS BLOB), time_created FROM message"
                                 " WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT ?"_s;
    const QVariantList values = before ? QVariantList{sessionID, before->timeCreated, before->timeCreated, before->id, limit}
                                       : QVariantList{sessionID, limit};
    MessagePage page;
    QStringList ids;
    qint64 lastTime = 0;
    auto read = forEachRow(sql, values, tr("read the messages of session %1").arg(sessionID),
                           [&](const QSqlQuery &row) -> Result<void> {
                               auto info = messageFromRow(row.value(0).toString(), row.value(1).toString(), row.value(2));
                               if (!info)
                                   return info.error();
                               lastTime = row.value(3).toLongLong();
                               ids.append(info->id());
                               page.messages.append(MessageWithParts{std::move(info).value(), {}});
                               return {};
                           });
    if (!read)
        return read.error();

    QHash<QString, QList<Part>> grouped;
    if (auto loaded = partsOf(ids, &grouped); !loaded)
        return loaded.error();
    for (MessageWithParts &m : page.messages)
        m.parts = grouped.take(m.info.id());
    if (page.messages.size() == limit)
        page.next = MessageCursor{lastTime, ids.last()};
    return page;
}

Result<QList<MessageWithParts>> Store::messages(const QString &sessionID)
{
    QList<MessageWithParts> all;
    std::optional<MessageCursor> cursor;
    do {
        auto page = messagePage(sessionID, cursor);
        if (!page)
            return page.error();
        all.append(page->messages);
        cursor = page->next;
    } while (cursor);
    std::reverse(all.begin(), all.end());
    return all;
}

Result<QList<MessageCursor>> Store::messageIndex(const QString &sessionID)
{
    QList<MessageCursor> index;
    auto read = forEachRow(u"SELECT time_created, id FROM message WHERE session_id = ? ORDER BY time_created, id"_s,
                           {sessionID}, tr("read the messages of session %1").arg(sessionID),
                           [&](const QSqlQuery &row) -> Result<void> {
                               index.append(MessageCursor{row.value(0).toLongLong(), row.value(1).toString()});
                               return {};
                           });
    if (!read)
        return read.error();
    return index;
}

Result<std::optional<Message>> Store::lastUserMessage(const QString &sessionID)
{
    std::optional<Message> found;
    auto read = forEachRow(u"SELECT id, session_id, CAST(data AS BLOB) FROM message"
                           " WHERE session_id = ? AND json_extract(data, '$.role') = 'user'"
                           " ORDER BY time_created DESC, id DESC LIMIT 1"_s,
                           {sessionID}, tr("read the messages of session %1").arg(sessionID),
                           [&](const QSqlQuery &row) -> Result<void> {
                               auto info = messageFromRow(row.value(0).toString(), row.value(1).toString(), row.value(2));
                               if (!info)
                                   return info.error();
                               found = std::move(info).value();
                               return {};
                           });
    if (!read)
        return read.error();
    return found;
}

Result<QList<MessageWithParts>> Store::messagesById(const QStringList &ids)
{
    // SQLite bounds the number of bound values in one statement.
    constexpr qsizetype Batch = 400;
    QHash<QString, Message> infos;
    QHash<QString, QList<Part>> grouped;
    for (qsizetype start = 0; start < ids.size(); start += Batch) {
        const QStringList batch = ids.mid(start, Batch);
        QString placeholders = u"?"_s;
        for (qsizetype i = 1; i < batch.size(); ++i)
            placeholders += u",?"_s;
        auto read = forEachRow(u"SELECT id, session_id, CAST(data AS BLOB) FROM message WHERE id IN ("_s + placeholders +
                                   u")"_s,
                               QVariantList(batch.begin(), batch.end()), tr("read messages"),
                               [&](const QSqlQuery &row) -> Result<void> {
                                   auto info = messageFromRow(row.value(0).toString(), row.value(1).toString(),
                                                              row.value(2));
                                   if (!info)
                                       return info.error();
                                   infos.insert(info->id(), std::move(info).value());
                                   return {};
                               });
        if (!read)
            return read.error();
        if (auto loaded = partsOf(batch, &grouped); !loaded)
            return loaded.error();
    }
    QList<MessageWithParts> found;
    found.reserve(infos.size());
    for (const QString &id : ids) {
        auto info = infos.constFind(id);
        if (info != infos.constEnd())
            found.append(MessageWithParts{*info, grouped.value(id)});
    }
    return found;
}

Result<QList<MessageUsage>> Store::usage(const QString &sessionID)
{
    QList<MessageUsage> usage;
    auto read = forEachRow(u"SELECT id, json_extract(data, '$.cost'), CAST(json_extract(data, '$.tokens') AS TEXT)"
                           " FROM message WHERE session_id = ? AND json_extract(data, '$.role') = 'assistant'"
                           " ORDER BY time_created, id"_s,
                           {sessionID}, tr("read the usage of session %1").arg(sessionID),
                           [&](const QSqlQuery &row) -> Result<void> {
                               const QJsonObject tokens =
                                   QJsonDocument::fromJson(row.value(2).toString().toUtf8()).object();
                               usage.append(MessageUsage{row.value(0).toString(), row.value(1).toDouble(),
                                                         TokenUsage::fromJson(tokens)});
                               return {};
                           });
    if (!read)
        return read.error();
    return usage;
}

Result<QList<MessageWithParts>> Store::history(const QString &sessionID)
{
    CompactionFilter filter;
    QList<MessageWithParts> visible;
    std::optional<MessageCursor> cursor;
    do {
        auto page = messagePage(sessionID, cursor);
        if (!page)
            return page.error();
        cursor = page->next;
        for (MessageWithParts &message : page->messages) {
            const bool more = filter.take(message);
            visible.append(std::move(message));
            if (!more) {
                cursor.reset();
                break;
            }
        }
    } while (cursor);
    std::reverse(visible.begin(), visible.end());
    return visible;
}

} // namespace qcode
