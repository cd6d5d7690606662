#include "Store.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSqlError>
#include <QThread>

#include "CompactionFilter.h"
#include "StoreSchema.h"

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcStore, "qcode.store")

namespace qcode {
namespace {

constexpr QByteArrayView SqliteHeader("SQLite format 3\0", 16);

QString newConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return u"qcode-store-%1"_s.arg(counter.fetchAndAddRelaxed(1));
}

qint64 nowMs() { return QDateTime::currentMSecsSinceEpoch(); }

QString compactJson(const QJsonObject &o) { return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)); }
QString compactJson(const QJsonArray &a) { return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact)); }

// The hot data columns go in and out as UTF-8 bytes: bound as a blob and
// CAST to text in SQL, read back CAST to a blob. The columns hold text (as
// OpenCode's do), and no UTF-16 round trip happens on either side.
QByteArray jsonBytes(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }

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

QVariant optionalColumn(const std::optional<QString> &v) { return v ? QVariant(*v) : QVariant(QMetaType(QMetaType::QString)); }
QVariant optionalColumn(const std::optional<qint64> &v) { return v ? QVariant(*v) : QVariant(QMetaType(QMetaType::LongLong)); }

std::optional<QString> optionalString(const QVariant &v) { return v.isNull() ? std::nullopt : std::optional(v.toString()); }
std::optional<qint64> optionalInteger(const QVariant &v) { return v.isNull() ? std::nullopt : std::optional(v.toLongLong()); }

// Checks a file before SQLite touches it, so a file that is not ours is
// reported and left exactly as it was.
Result<void> inspectFile(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        const QDir folder = info.absoluteDir();
        if (!folder.exists() && !QDir().mkpath(folder.absolutePath()))
            return Error{Store::tr("Cannot create the folder %1 for the database. Check that you may write there, "
                                     "or set QCODE_DATA_DIR to a folder you own.")
                             .arg(QDir::toNativeSeparators(folder.absolutePath()))};
        if (!QFileInfo(folder.absolutePath()).isWritable())
            return Error{Store::tr("Cannot create the database %1: its folder is read-only. Make the folder "
                                     "writable, or set QCODE_DATA_DIR to a folder you own.")
                             .arg(QDir::toNativeSeparators(path))};
        return {};
    }
    if (!info.isFile())
        return Error{Store::tr("%1 is not a file, so it cannot be qcode's database. Move it away, or set "
                                 "QCODE_DATA_DIR to another folder.")
                         .arg(QDir::toNativeSeparators(path))};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{Store::tr("Cannot read the database %1 (%2). Check its permissions.")
                         .arg(QDir::toNativeSeparators(path), file.errorString())};
    const QByteArray head = file.read(SqliteHeader.size());
    if (info.size() > 0 && head != SqliteHeader)
        return Error{Store::tr("%1 is not an SQLite database, or it is damaged. qcode left it untouched. Move "
                                 "it aside (or restore a backup) and start qcode again to create a new one.")
                         .arg(QDir::toNativeSeparators(path))};
    // Root may write anywhere, so the permission bits are asked too: a file
    // someone marked read-only is not qcode's to change.
    const auto writeBits = QFileDevice::WriteOwner | QFileDevice::WriteGroup
                           | QFileDevice::WriteOther;
    if (!info.isWritable() || !(info.permissions() & writeBits))
        return Error{Store::tr("The database %1 is read-only. qcode needs to write to it: give yourself write "
                                 "permission on the file, or copy it somewhere writable and set QCODE_DATA_DIR.")
                         .arg(QDir::toNativeSeparators(path))};
    return {};
}

} // namespace

Store::Store(QString path, QString connectionName)
    : m_path(std::move(path)), m_connectionName(std::move(connectionName)), m_thread(QThread::currentThread())
{
}

Store::~Store()
{
    m_statements.clear();
    {
        QSqlDatabase db = database();
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

int Store::latestSchemaVersion()
{
    return int(StoreSchema::migrations().size());
}

Result<std::unique_ptr<Store>> Store::open(const QString &path, StoreOptions options)
{
    if (auto checked = inspectFile(path); !checked)
        return checked.error();

    const QString name = newConnectionName();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=%1"_s.arg(options.busyTimeoutMs));
    }
    std::unique_ptr<Store> store(new Store(path, name));
    if (!store->database().open())
        return store->failure(Store::tr("open"), store->database().lastError().text());
    if (auto configured = store->configure(options); !configured)
        return configured.error();
    if (auto migrated = store->migrate(); !migrated)
        return migrated.error();
    return store;
}

QSqlDatabase Store::database() const
{
    return QSqlDatabase::database(m_connectionName, false);
}

Error Store::failure(const QString &what, const QString &sqliteMessage) const
{
    const QString file = QDir::toNativeSeparators(m_path);
    const QString lower = sqliteMessage.toLower();
    QString advice;
    if (lower.contains("locked"_L1) || lower.contains("busy"_L1))
        advice = Store::tr("Another program is using the database %1. Close other qcode or OpenCode windows "
                             "that use it and try again.")
                     .arg(file);
    else if (lower.contains("malformed"_L1) || lower.contains("not a database"_L1) || lower.contains("corrupt"_L1))
        advice = Store::tr("The database %1 is damaged. qcode did not change it. Move it aside (or restore a "
                             "backup) and start qcode again.")
                     .arg(file);
    else if (lower.contains("readonly"_L1) || lower.contains("read-only"_L1))
        advice = Store::tr("The database %1 or its folder is read-only. Give yourself write permission on both.")
                     .arg(file);
    else if (lower.contains("full"_L1))
        advice = Store::tr("The disk holding %1 is full. Free some space and try again.").arg(file);
    else
        advice = Store::tr("Could not %1 in the database %2.").arg(what, file);
    return Error{advice + u" ("_s + what + u": "_s + sqliteMessage.trimmed() + u')'};
}

Result<void> Store::checkThread() const
{
    if (QThread::currentThread() == m_thread)
        return {};
    qCWarning(lcStore) << "store" << m_connectionName << "used from a thread that did not open it";
    return Error{Store::tr("Internal error: the database %1 was used from the wrong thread.")
                     .arg(QDir::toNativeSeparators(m_path))};
}

Result<QSqlQuery *> Store::prepare(const QString &sql)
{
    if (auto ok = checkThread(); !ok)
        return ok.error();
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        QSqlQuery query(database());
        if (!query.prepare(sql))
            return failure(Store::tr("prepare a query"), query.lastError().text());
        it = m_statements.insert(sql, std::move(query));
    }
    return &it.value();
}

Result<void> Store::exec(QSqlQuery &query, const QString &what)
{
    if (!query.exec())
        return failure(what, query.lastError().text());
    return {};
}

Result<void> Store::configure(const StoreOptions &options)
{
    QSqlQuery query(database());
    // Read-only questions first: a database from a newer qcode, or one that
    // is not a database at all, must be reported before anything is written.
    if (!query.exec(u"PRAGMA user_version"_s) || !query.next())
        return failure(Store::tr("read the schema version"), query.lastError().text());
    const int version = query.value(0).toInt();
    if (version > latestSchemaVersion())
        return Error{Store::tr("The database %1 was written by a newer qcode (schema %2; this qcode knows up to "
                                 "%3). Update qcode, or move the file aside to start afresh. The file was not "
                                 "changed.")
                         .arg(QDir::toNativeSeparators(m_path))
                         .arg(version)
                         .arg(latestSchemaVersion())};
    if (!query.exec(u"SELECT count(*) FROM sqlite_master"_s) || !query.next())
        return failure(Store::tr("read the schema"), query.lastError().text());

    const QStringList pragmas{
        u"PRAGMA busy_timeout = %1"_s.arg(options.busyTimeoutMs),
        u"PRAGMA journal_mode = WAL"_s,
        u"PRAGMA synchronous = NORMAL"_s,
        u"PRAGMA foreign_keys = ON"_s,
        u"PRAGMA cache_size = -64000"_s,
    };
    for (const QString &pragma : pragmas) {
        if (!query.exec(pragma))
            return failure(Store::tr("configure the connection"), query.lastError().text());
    }
    return {};
}

Result<void> Store::migrate()
{
    QSqlQuery query(database());
    if (!query.exec(u"PRAGMA user_version"_s) || !query.next())
        return failure(Store::tr("read the schema version"), query.lastError().text());
    const int current = query.value(0).toInt();
    const QList<QStringList> &all = StoreSchema::migrations();
    if (current == all.size())
        return {};

    return transaction([&]() -> Result<void> {
        for (int version = current + 1; version <= all.size(); ++version) {
            for (const QString &statement : all.at(version - 1)) {
                if (!query.exec(statement))
                    return failure(Store::tr("upgrade the schema to version %1").arg(version),
                                   query.lastError().text());
            }
        }
        if (!query.exec(u"PRAGMA user_version = %1"_s.arg(all.size())))
            return failure(Store::tr("record the schema version"), query.lastError().text());
        qCInfo(lcStore) << "migrated" << m_path << "from schema" << current << "to" << all.size();
        return {};
    });
}

Result<void> Store::transaction(const std::function<Result<void>()> &body)
{
    if (auto ok = checkThread(); !ok)
        return ok.error();
    if (m_transactionDepth > 0) {
        ++m_transactionDepth;
        Result<void> result = body();
        --m_transactionDepth;
        return result;
    }
    QSqlQuery control(database());
    // IMMEDIATE takes the write lock up front, so two writers queue on the
    // busy timeout instead of one failing when it upgrades a read lock.
    if (!control.exec(u"BEGIN IMMEDIATE"_s))
        return failure(Store::tr("start a transaction"), control.lastError().text());
    ++m_transactionDepth;
    Result<void> result = body();
    --m_transactionDepth;
    if (!result) {
        control.exec(u"ROLLBACK"_s);
        return result;
    }
    if (!control.exec(u"COMMIT"_s)) {
        const QString message = control.lastError().text();
        control.exec(u"ROLLBACK"_s);
        return failure(Store::tr("commit"), message);
    }
    return {};
}

Result<void> Store::upsertProject(const Project &p)
{
    auto query = prepare(
        u"INSERT INTO project (id, worktree, vcs, name, icon_url, icon_color, time_created, time_updated,"
        " time_initialized, sandboxes, commands) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
        " ON CONFLICT(id) DO UPDATE SET worktree = excluded.worktree, vcs = excluded.vcs, name = excluded.name,"
        " icon_url = excluded.icon_url, icon_color = excluded.icon_color, time_updated = excluded.time_updated,"
        " time_initialized = excluded.time_initialized, sandboxes = excluded.sandboxes,"
        " commands = excluded.commands"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    const qint64 now = nowMs();
    q.addBindValue(p.id);
    q.addBindValue(p.worktree);
    q.addBindValue(optionalColumn(p.vcs));
    q.addBindValue(optionalColumn(p.name));
    q.addBindValue(optionalColumn(p.iconUrl));
    q.addBindValue(optionalColumn(p.iconColor));
    q.addBindValue(p.timeCreated ? p.timeCreated : now);
    q.addBindValue(p.timeUpdated ? p.timeUpdated : now);
    q.addBindValue(optionalColumn(p.timeInitialized));
    q.addBindValue(compactJson(p.sandboxes));
    q.addBindValue(p.commands ? QVariant(compactJson(*p.commands)) : QVariant(QMetaType(QMetaType::QString)));
    return exec(q, Store::tr("save project %1").arg(p.id));
}

namespace {

const QString ProjectColumns = u"id, worktree, vcs, name, icon_url, icon_color, time_created, time_updated,"
                               " time_initialized, sandboxes, commands"_s;

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

} // namespace

Result<std::optional<Project>> Store::project(const QString &id)
{
    auto query = prepare(u"SELECT "_s + ProjectColumns + u" FROM project WHERE id = ?"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    q.addBindValue(id);
    if (auto ok = exec(q, Store::tr("read project %1").arg(id)); !ok)
        return ok.error();
    std::optional<Project> found;
    if (q.next())
        found = projectFromRow(q);
    q.finish();
    return found;
}

Result<std::optional<Project>> Store::projectForWorktree(const QString &worktree)
{
    auto query = prepare(u"SELECT "_s + ProjectColumns + u" FROM project WHERE worktree = ? ORDER BY time_updated DESC LIMIT 1"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    q.addBindValue(QDir::cleanPath(worktree));
    if (auto ok = exec(q, Store::tr("look up the project of %1").arg(worktree)); !ok)
        return ok.error();
    std::optional<Project> found;
    if (q.next())
        found = projectFromRow(q);
    q.finish();
    return found;
}

namespace {

const QString SessionColumns =
    u"id, project_id, workspace_id, parent_id, slug, directory, title, version, share_url, summary_additions,"
    " summary_deletions, summary_files, summary_diffs, revert, permission, time_created, time_updated,"
    " time_compacting, time_archived, data"_s;

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

} // namespace

Result<void> Store::upsertSession(const Session &s)
{
    auto query = prepare(u"INSERT INTO session ("_s + SessionColumns +
                         u") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
                         " ON CONFLICT(id) DO UPDATE SET project_id = excluded.project_id,"
                         " workspace_id = excluded.workspace_id, parent_id = excluded.parent_id, slug = excluded.slug,"
                         " directory = excluded.directory, title = excluded.title, version = excluded.version,"
                         " share_url = excluded.share_url, summary_additions = excluded.summary_additions,"
                         " summary_deletions = excluded.summary_deletions, summary_files = excluded.summary_files,"
                         " summary_diffs = excluded.summary_diffs, revert = excluded.revert,"
                         " permission = excluded.permission, time_updated = excluded.time_updated,"
                         " time_compacting = excluded.time_compacting, time_archived = excluded.time_archived,"
                         " data = excluded.data"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    const QVariant nullInt{QMetaType(QMetaType::LongLong)};
    const QVariant nullText{QMetaType(QMetaType::QString)};
    q.addBindValue(s.id);
    q.addBindValue(s.projectID);
    q.addBindValue(optionalColumn(s.workspaceID));
    q.addBindValue(optionalColumn(s.parentID));
    q.addBindValue(s.slug);
    q.addBindValue(s.directory);
    q.addBindValue(s.title);
    q.addBindValue(s.version);
    q.addBindValue(optionalColumn(s.shareUrl));
    q.addBindValue(s.summary ? QVariant(s.summary->additions) : nullInt);
    q.addBindValue(s.summary ? QVariant(s.summary->deletions) : nullInt);
    q.addBindValue(s.summary ? QVariant(s.summary->files) : nullInt);
    q.addBindValue(s.summary && s.summary->diffs ? QVariant(compactJson(*s.summary->diffs)) : nullText);
    q.addBindValue(s.revert ? QVariant(compactJson(*s.revert)) : nullText);
    q.addBindValue(s.permission ? QVariant(compactJson(*s.permission)) : nullText);
    q.addBindValue(s.time.created);
    q.addBindValue(s.time.updated);
    q.addBindValue(optionalColumn(s.time.compacting));
    q.addBindValue(optionalColumn(s.time.archived));
    q.addBindValue(s.extra.isEmpty() ? nullText : QVariant(compactJson(s.extra)));
    return exec(q, Store::tr("save session %1").arg(s.id));
}

Result<std::optional<Session>> Store::session(const QString &id)
{
    auto query = prepare(u"SELECT "_s + SessionColumns + u" FROM session WHERE id = ?"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    q.addBindValue(id);
    if (auto ok = exec(q, Store::tr("read session %1").arg(id)); !ok)
        return ok.error();
    std::optional<Session> found;
    if (q.next()) {
        auto s = sessionFromRow(q);
        if (!s) {
            q.finish();
            return s.error();
        }
        found = std::move(s).value();
    }
    q.finish();
    return found;
}

namespace {

Result<QList<Session>> collectSessions(QSqlQuery &q)
{
    QList<Session> out;
    while (q.next()) {
        auto s = sessionFromRow(q);
        if (!s) {
            q.finish();
            return s.error();
        }
        out.append(std::move(s).value());
    }
    q.finish();
    return out;
}

} // namespace

Result<QList<Session>> Store::sessions(const QString &projectID)
{
    // Session ids are descending, so ascending id order is newest first.
    auto query = prepare(u"SELECT "_s + SessionColumns + u" FROM session WHERE project_id = ? ORDER BY id"_s);
    if (!query)
        return query.error();
    (*query)->addBindValue(projectID);
    if (auto ok = exec(**query, Store::tr("list the sessions of project %1").arg(projectID)); !ok)
        return ok.error();
    return collectSessions(**query);
}

Result<QList<Session>> Store::children(const QString &parentID)
{
    auto query = prepare(u"SELECT "_s + SessionColumns + u" FROM session WHERE parent_id = ? ORDER BY id"_s);
    if (!query)
        return query.error();
    (*query)->addBindValue(parentID);
    if (auto ok = exec(**query, Store::tr("list the child sessions of %1").arg(parentID)); !ok)
        return ok.error();
    return collectSessions(**query);
}

Result<QStringList> Store::removeSession(const QString &id)
{
    QStringList removed;
    auto done = transaction([&]() -> Result<void> {
        // Walk the tree down from the session; deepest first when deleting.
        auto query = prepare(u"WITH RECURSIVE tree(id, depth) AS ("
                             " SELECT id, 0 FROM session WHERE id = ?"
                             " UNION ALL SELECT s.id, tree.depth + 1 FROM session s JOIN tree ON s.parent_id = tree.id)"
                             " SELECT id FROM tree ORDER BY depth DESC, id"_s);
        if (!query)
            return query.error();
        QSqlQuery &q = **query;
        q.addBindValue(id);
        if (auto ok = exec(q, Store::tr("find the child sessions of %1").arg(id)); !ok)
            return ok;
        while (q.next())
            removed.append(q.value(0).toString());
        q.finish();

        auto remove = prepare(u"DELETE FROM session WHERE id = ?"_s);
        if (!remove)
            return remove.error();
        for (const QString &victim : std::as_const(removed)) {
            (*remove)->addBindValue(victim);
            if (auto ok = exec(**remove, Store::tr("delete session %1").arg(victim)); !ok)
                return ok;
        }
        return {};
    });
    if (!done)
        return done.error();
    return removed;
}

Result<void> Store::updateMessage(const Message &message)
{
    auto query = prepare(u"INSERT INTO message (id, session_id, time_created, time_updated, data)"
                         " VALUES (?,?,?,?,CAST(? AS TEXT))"
                         " ON CONFLICT(id) DO UPDATE SET data = excluded.data, time_updated = excluded.time_updated"_s);
    if (!query)
        return query.error();
    QJsonObject data = message.toJson();
    data.remove("id"_L1);
    data.remove("sessionID"_L1);
    QSqlQuery &q = **query;
    q.addBindValue(message.id());
    q.addBindValue(message.sessionID());
    q.addBindValue(message.created());
    q.addBindValue(nowMs());
    q.addBindValue(jsonBytes(data));
    return exec(q, Store::tr("save message %1").arg(message.id()));
}

Result<void> Store::updatePart(const Part &part)
{
    auto query = prepare(u"INSERT INTO part (id, message_id, session_id, time_created, time_updated, data)"
                         " VALUES (?,?,?,?,?,CAST(? AS TEXT))"
                         " ON CONFLICT(id) DO UPDATE SET data = excluded.data, time_updated = excluded.time_updated"_s);
    if (!query)
        return query.error();
    const QJsonObject data = part.toDataJson();
    const qint64 now = nowMs();
    QSqlQuery &q = **query;
    q.addBindValue(part.id);
    q.addBindValue(part.messageID);
    q.addBindValue(part.sessionID);
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(jsonBytes(data));
    return exec(q, Store::tr("save part %1").arg(part.id));
}

Result<void> Store::removeMessage(const QString &messageID)
{
    auto query = prepare(u"DELETE FROM message WHERE id = ?"_s);
    if (!query)
        return query.error();
    (*query)->addBindValue(messageID);
    return exec(**query, Store::tr("delete message %1").arg(messageID));
}

Result<void> Store::removePart(const QString &partID)
{
    auto query = prepare(u"DELETE FROM part WHERE id = ?"_s);
    if (!query)
        return query.error();
    (*query)->addBindValue(partID);
    return exec(**query, Store::tr("delete part %1").arg(partID));
}

namespace {

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

} // namespace

Result<QList<Part>> Store::partsOf(const QStringList &messageIDs, QHash<QString, QList<Part>> *grouped)
{
    QList<Part> all;
    if (messageIDs.isEmpty())
        return all;
    QString placeholders = u"?"_s;
    for (qsizetype i = 1; i < messageIDs.size(); ++i)
        placeholders += u",?"_s;
    auto query = prepare(u"SELECT id, message_id, session_id, CAST(data AS BLOB) FROM part WHERE message_id IN ("_s + placeholders +
                         u") ORDER BY message_id, id"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    for (const QString &id : messageIDs)
        q.addBindValue(id);
    if (auto ok = exec(q, Store::tr("read parts")); !ok)
        return ok.error();
    while (q.next()) {
        const QString id = q.value(0).toString();
        const auto doc = parseJson(q.value(3));
        if (!doc || !doc->isObject()) {
            q.finish();
            return Error{Store::tr("Part %1 has damaged data in the database.").arg(id)};
        }
        QJsonObject o = doc->object();
        o.insert("id"_L1, id);
        o.insert("messageID"_L1, q.value(1).toString());
        o.insert("sessionID"_L1, q.value(2).toString());
        auto part = Part::fromJson(o);
        if (!part) {
            q.finish();
            return part.error();
        }
        if (grouped)
            (*grouped)[part->messageID].append(part.value());
        else
            all.append(std::move(part).value());
    }
    q.finish();
    return all;
}

Result<std::optional<MessageWithParts>> Store::message(const QString &messageID)
{
    auto query = prepare(u"SELECT id, session_id, CAST(data AS BLOB) FROM message WHERE id = ?"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    q.addBindValue(messageID);
    if (auto ok = exec(q, Store::tr("read message %1").arg(messageID)); !ok)
        return ok.error();
    if (!q.next()) {
        q.finish();
        return std::optional<MessageWithParts>();
    }
    auto info = messageFromRow(q.value(0).toString(), q.value(1).toString(), q.value(2));
    q.finish();
    if (!info)
        return info.error();
    auto list = parts(messageID);
    if (!list)
        return list.error();
    return std::optional(MessageWithParts{std::move(info).value(), std::move(list).value()});
}

Result<QList<Part>> Store::parts(const QString &messageID)
{
    return partsOf({messageID}, nullptr);
}

Result<MessagePage> Store::messagePage(const QString &sessionID, const std::optional<MessageCursor> &before, int limit)
{
    auto query = before ? prepare(u"SELECT id, session_id, CAST(data AS BLOB), time_created FROM message WHERE session_id = ?"
                                  " AND (time_created < ? OR (time_created = ? AND id < ?))"
                                  " ORDER BY time_created DESC, id DESC LIMIT ?"_s)
                        : prepare(u"SELECT id, session_id, CAST(data AS BLOB), time_created FROM message WHERE session_id = ?"
                                  " ORDER BY time_created DESC, id DESC LIMIT ?"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    q.addBindValue(sessionID);
    if (before) {
        q.addBindValue(before->timeCreated);
        q.addBindValue(before->timeCreated);
        q.addBindValue(before->id);
    }
    q.addBindValue(limit);
    if (auto ok = exec(q, Store::tr("read the messages of session %1").arg(sessionID)); !ok)
        return ok.error();

    MessagePage page;
    QStringList ids;
    qint64 lastTime = 0;
    while (q.next()) {
        auto info = messageFromRow(q.value(0).toString(), q.value(1).toString(), q.value(2));
        if (!info) {
            q.finish();
            return info.error();
        }
        lastTime = q.value(3).toLongLong();
        ids.append(info->id());
        page.messages.append(MessageWithParts{std::move(info).value(), {}});
    }
    q.finish();

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

Result<void> Store::setTodos(const QString &sessionID, const QList<Todo> &todos)
{
    return transaction([&]() -> Result<void> {
        auto clear = prepare(u"DELETE FROM todo WHERE session_id = ?"_s);
        if (!clear)
            return clear.error();
        (*clear)->addBindValue(sessionID);
        if (auto ok = exec(**clear, Store::tr("replace the todo list of %1").arg(sessionID)); !ok)
            return ok;
        auto insert = prepare(u"INSERT INTO todo (session_id, content, status, priority, position, time_created,"
                              " time_updated) VALUES (?,?,?,?,?,?,?)"_s);
        if (!insert)
            return insert.error();
        const qint64 now = nowMs();
        for (qsizetype i = 0; i < todos.size(); ++i) {
            QSqlQuery &q = **insert;
            q.addBindValue(sessionID);
            q.addBindValue(todos[i].content);
            q.addBindValue(todos[i].status);
            q.addBindValue(todos[i].priority);
            q.addBindValue(qint64(i));
            q.addBindValue(now);
            q.addBindValue(now);
            if (auto ok = exec(q, Store::tr("save the todo list of %1").arg(sessionID)); !ok)
                return ok;
        }
        return {};
    });
}

Result<QList<Todo>> Store::todos(const QString &sessionID)
{
    auto query = prepare(u"SELECT content, status, priority FROM todo WHERE session_id = ? ORDER BY position"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    q.addBindValue(sessionID);
    if (auto ok = exec(q, Store::tr("read the todo list of %1").arg(sessionID)); !ok)
        return ok.error();
    QList<Todo> out;
    while (q.next())
        out.append(Todo{q.value(0).toString(), q.value(1).toString(), q.value(2).toString()});
    q.finish();
    return out;
}

Result<std::optional<QJsonArray>> Store::permission(const QString &projectID)
{
    auto query = prepare(u"SELECT data FROM permission WHERE project_id = ?"_s);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    q.addBindValue(projectID);
    if (auto ok = exec(q, Store::tr("read the permission rules of %1").arg(projectID)); !ok)
        return ok.error();
    std::optional<QJsonArray> rules;
    if (q.next()) {
        const auto doc = parseJson(q.value(0));
        if (!doc || !doc->isArray()) {
            q.finish();
            return Error{Store::tr("The saved permission rules of project %1 are damaged.").arg(projectID)};
        }
        rules = doc->array();
    }
    q.finish();
    return rules;
}

Result<void> Store::setPermission(const QString &projectID, const QJsonArray &ruleset)
{
    auto query = prepare(u"INSERT INTO permission (project_id, time_created, time_updated, data) VALUES (?,?,?,?)"
                         " ON CONFLICT(project_id) DO UPDATE SET data = excluded.data,"
                         " time_updated = excluded.time_updated"_s);
    if (!query)
        return query.error();
    const qint64 now = nowMs();
    QSqlQuery &q = **query;
    q.addBindValue(projectID);
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(compactJson(ruleset));
    return exec(q, Store::tr("save the permission rules of %1").arg(projectID));
}

} // namespace qcode
