#include "Store.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSqlError>
#include <QThread>

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

Result<void> Store::run(const QString &sql, const QVariantList &values, const QString &what)
{
    auto query = prepare(sql);
    if (!query)
        return query.error();
    QSqlQuery &q = **query;
    for (const QVariant &value : values)
        q.addBindValue(value);
    if (!q.exec())
        return failure(what, q.lastError().text());
    return {};
}

Result<void> Store::forEachRow(const QString &sql, const QVariantList &values, const QString &what,
                               const std::function<Result<void>(const QSqlQuery &)> &onRow)
{
    if (auto ran = run(sql, values, what); !ran)
        return ran;
    QSqlQuery &q = *m_statements.find(sql);
    Result<void> result;
    while (result && q.next())
        result = onRow(q);
    // A statement left mid-read would hold its read lock and block COMMIT.
    q.finish();
    return result;
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

} // namespace qcode
