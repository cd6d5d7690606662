#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <cstdio>

#include "TempDatabase.h"
#include "model/Identifier.h"
#include "model/Store.h"
#include "model/StoreSchema.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const char *const WriterFlag = "--write-until-killed";

QByteArray fingerprint(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

// Runs SQL on a plain connection, outside the Store, to prepare a file.
class Raw
{
public:
    explicit Raw(const QString &path) : m_name(u"raw-%1"_s.arg(quintptr(this)))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_name);
        db.setDatabaseName(path);
        db.open();
    }
    ~Raw()
    {
        QSqlDatabase::database(m_name).close();
        QSqlDatabase::removeDatabase(m_name);
    }
    bool run(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name));
        if (!q.exec(sql)) {
            qWarning("raw SQL failed: %s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
            return false;
        }
        return true;
    }
    QVariant scalar(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name));
        return q.exec(sql) && q.next() ? q.value(0) : QVariant();
    }

private:
    QString m_name;
};

// The child process of the killed-writer test: commits one part per
// transaction forever and reports each id once it is committed.
int writeUntilKilled(const QString &path)
{
    auto store = Store::open(path);
    if (!store) {
        std::fprintf(stderr, "%s\n", qPrintable(store.error().message));
        return 1;
    }
    const Session session = makeSession();
    const Message message = makeUserMessage(session.id);
    if (!(*store)->upsertProject(makeProject()) || !(*store)->upsertSession(session) || !(*store)->updateMessage(message))
        return 1;
    std::printf("session %s\n", qPrintable(session.id));
    std::fflush(stdout);
    const QString text(4000, u'x'); // big enough to fill WAL pages quickly
    for (;;) {
        const Part part = makeTextPart(session.id, message.id(), text);
        if (!(*store)->updatePart(part))
            return 1;
        std::printf("committed %s\n", qPrintable(part.id));
        std::fflush(stdout);
    }
}

} // namespace

class StoreFaultsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aFileThatIsNotADatabaseIsReportedAndLeftUntouched();
    void aDatabaseWithADamagedSchemaPageIsReportedAndLeftUntouched();
    void aReadOnlyDatabaseIsReportedAndLeftUntouched();
    void aDatabaseFromANewerQcodeIsReportedAndLeftUntouched();
    void aLockedDatabaseIsReportedAndLeftUntouched();
    void aFolderInsteadOfAFileIsReported();
    void migratesAnEmptyVersionZeroFile();
    void migratesVersionOneKeepingItsRows();
    void aFailingMigrationRollsBackToTheOldVersion();
    void aDatabaseLeftByAKilledWriterOpensWithEverythingCommitted();
};

void StoreFaultsTest::aFileThatIsNotADatabaseIsReportedAndLeftUntouched()
{
    TempDatabase db;
    writeFile(db.path(), QByteArray("this is my shopping list, not a database\n").repeated(100));
    const QByteArray before = fingerprint(db.path());
    const auto store = Store::open(db.path());
    QVERIFY(!store.ok());
    QVERIFY2(store.errorMessage().contains(QDir::toNativeSeparators(db.path())), qPrintable(store.errorMessage()));
    QVERIFY2(store.errorMessage().contains("Move it aside"_L1), qPrintable(store.errorMessage()));
    QCOMPARE(fingerprint(db.path()), before);
    QVERIFY(!QFile::exists(db.path() + u"-wal"_s));
}

void StoreFaultsTest::aDatabaseWithADamagedSchemaPageIsReportedAndLeftUntouched()
{
    TempDatabase db;
    {
        auto store = db.open();
        QVERIFY(store);
    }
    // Keep SQLite's 100-byte header, scramble the rest of page one (the schema).
    QFile file(db.path());
    QVERIFY(file.open(QIODevice::ReadWrite));
    QByteArray bytes = file.readAll();
    for (qsizetype i = 100; i < 4096 && i < bytes.size(); ++i)
        bytes[i] = char(0xA5 ^ (i & 0xFF));
    file.seek(0);
    file.write(bytes);
    file.close();
    const QByteArray before = fingerprint(db.path());

    const auto store = Store::open(db.path());
    QVERIFY(!store.ok());
    QVERIFY2(store.errorMessage().contains(QDir::toNativeSeparators(db.path())), qPrintable(store.errorMessage()));
    QVERIFY2(store.errorMessage().contains("damaged"_L1), qPrintable(store.errorMessage()));
    QCOMPARE(fingerprint(db.path()), before);
}

void StoreFaultsTest::aReadOnlyDatabaseIsReportedAndLeftUntouched()
{
    TempDatabase db;
    {
        auto store = db.open();
        QVERIFY(store);
    }
    QFile::setPermissions(db.path(), QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    const QByteArray before = fingerprint(db.path());
    const auto store = Store::open(db.path());
    QFile::setPermissions(db.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QVERIFY(!store.ok());
    QVERIFY2(store.errorMessage().contains("read-only"_L1), qPrintable(store.errorMessage()));
    QVERIFY2(store.errorMessage().contains(QDir::toNativeSeparators(db.path())), qPrintable(store.errorMessage()));
    QCOMPARE(fingerprint(db.path()), before);
}

void StoreFaultsTest::aDatabaseFromANewerQcodeIsReportedAndLeftUntouched()
{
    TempDatabase db;
    {
        auto store = db.open();
        QVERIFY(store);
    }
    {
        Raw raw(db.path());
        QVERIFY(raw.run(u"PRAGMA user_version = 99"_s));
        QVERIFY(raw.run(u"PRAGMA wal_checkpoint(TRUNCATE)"_s));
    }
    const QByteArray before = fingerprint(db.path());
    const auto store = Store::open(db.path());
    QVERIFY(!store.ok());
    QVERIFY2(store.errorMessage().contains("newer qcode"_L1), qPrintable(store.errorMessage()));
    QVERIFY2(store.errorMessage().contains("99"_L1), qPrintable(store.errorMessage()));
    QCOMPARE(fingerprint(db.path()), before);
}

void StoreFaultsTest::aLockedDatabaseIsReportedAndLeftUntouched()
{
    TempDatabase db;
    {
        auto store = db.open();
        QVERIFY(store);
    }
    Raw holder(db.path());
    QVERIFY(holder.run(u"PRAGMA locking_mode = EXCLUSIVE"_s));
    QVERIFY(holder.run(u"BEGIN EXCLUSIVE"_s));
    QVERIFY(holder.run(u"INSERT INTO project (id, worktree) VALUES ('held', '/held')"_s));

    const auto store = Store::open(db.path(), StoreOptions{200});
    QVERIFY(!store.ok());
    QVERIFY2(store.errorMessage().contains("Another program is using"_L1), qPrintable(store.errorMessage()));
    QVERIFY2(store.errorMessage().contains(QDir::toNativeSeparators(db.path())), qPrintable(store.errorMessage()));
    QVERIFY(holder.run(u"ROLLBACK"_s));
}

void StoreFaultsTest::aFolderInsteadOfAFileIsReported()
{
    TempDatabase db;
    QVERIFY(QDir().mkpath(db.path()));
    const auto store = Store::open(db.path());
    QVERIFY(!store.ok());
    QVERIFY2(store.errorMessage().contains("is not a file"_L1), qPrintable(store.errorMessage()));
}

void StoreFaultsTest::migratesAnEmptyVersionZeroFile()
{
    TempDatabase db;
    writeFile(db.path(), {});
    auto store = db.open();
    QVERIFY(store);
    store.reset();
    Raw raw(db.path());
    QCOMPARE(raw.scalar(u"PRAGMA user_version"_s).toInt(), Store::latestSchemaVersion());
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM sqlite_master WHERE type='table'"_s).toInt(), 6);
}

void StoreFaultsTest::migratesVersionOneKeepingItsRows()
{
    TempDatabase db;
    const Session session = makeSession();
    const Message message = makeUserMessage(session.id, 1234);
    {
        Raw raw(db.path());
        for (const QString &statement : StoreSchema::migrations().at(0))
            QVERIFY(raw.run(statement));
        QVERIFY(raw.run(u"PRAGMA user_version = 1"_s));
        QVERIFY(raw.run(u"INSERT INTO project (id, worktree) VALUES ('global', '/work')"_s));
        QVERIFY(raw.run(u"INSERT INTO session (id, project_id, slug, directory, title, version)"
                        " VALUES ('%1', 'global', 'slug', '/work', 'Old title', '1.2.1')"_s.arg(session.id)));
        QVERIFY(raw.run(u"INSERT INTO message (id, session_id, time_created, data) VALUES ('%1', '%2', 1234,"
                        " '{\"role\":\"user\",\"time\":{\"created\":1234},\"agent\":\"build\","
                        "\"model\":{\"providerID\":\"p\",\"modelID\":\"m\"}}')"_s.arg(message.id(), session.id)));
    }
    auto store = db.open();
    QVERIFY(store);
    const auto read = store->message(message.id());
    QVERIFY2(read.ok(), qPrintable(read.errorMessage()));
    QVERIFY(read->has_value());
    QCOMPARE((*read)->info.user()->agent, u"build"_s);
    const auto s = store->session(session.id);
    QCOMPARE((*s)->title, u"Old title"_s);
    store.reset();

    Raw raw(db.path());
    QCOMPARE(raw.scalar(u"PRAGMA user_version"_s).toInt(), 2);
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM sqlite_master WHERE name='message_session_idx'"_s).toInt(), 0);
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM sqlite_master WHERE name='message_session_time_created_id_idx'"_s).toInt(), 1);
}

void StoreFaultsTest::aFailingMigrationRollsBackToTheOldVersion()
{
    TempDatabase db;
    {
        Raw raw(db.path());
        for (const QString &statement : StoreSchema::migrations().at(0))
            QVERIFY(raw.run(statement));
        // Someone's hand-made column collides with what version 2 adds.
        QVERIFY(raw.run(u"ALTER TABLE session ADD COLUMN workspace_id text"_s));
        QVERIFY(raw.run(u"PRAGMA user_version = 1"_s));
    }
    const auto store = Store::open(db.path());
    QVERIFY(!store.ok());
    QVERIFY2(store.errorMessage().contains("schema to version 2"_L1), qPrintable(store.errorMessage()));
    Raw raw(db.path());
    QCOMPARE(raw.scalar(u"PRAGMA user_version"_s).toInt(), 1);
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM sqlite_master WHERE name='message_session_idx'"_s).toInt(), 1);
}

void StoreFaultsTest::aDatabaseLeftByAKilledWriterOpensWithEverythingCommitted()
{
#ifdef Q_OS_WIN
    QSKIP("QProcess::kill is TerminateProcess on Windows; this test covers the POSIX SIGKILL path");
#endif
    TempDatabase db;
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(), {QString::fromLatin1(WriterFlag), db.path()});
    QVERIFY2(child.waitForStarted(), qPrintable(child.errorString()));

    QByteArray output;
    int committedLines = 0;
    while (committedLines < 400 && child.state() == QProcess::Running) {
        if (child.waitForReadyRead(10000)) {
            output += child.readAllStandardOutput();
            committedLines = int(output.count("committed "));
        }
    }
    QVERIFY2(committedLines >= 400, output.right(300).constData());
    child.kill(); // SIGKILL: no destructor, no checkpoint, no close
    QVERIFY(child.waitForFinished(10000));
    output += child.readAllStandardOutput();

    QString sessionID;
    QStringList committed;
    for (const QByteArray &line : output.split('\n')) {
        if (line.startsWith("session "))
            sessionID = QString::fromLatin1(line.mid(8));
        else if (line.startsWith("committed ") && line.size() == 10 + 30) // a line cut by the kill is ignored
            committed.append(QString::fromLatin1(line.mid(10)));
    }
    QVERIFY(QFile::exists(db.path() + u"-wal"_s)); // the WAL was left behind, unmerged

    auto store = db.open();
    QVERIFY(store);
    const auto messages = store->messages(sessionID);
    QVERIFY2(messages.ok(), qPrintable(messages.errorMessage()));
    QCOMPARE(messages->size(), 1);
    QSet<QString> stored;
    for (const Part &p : messages->first().parts)
        stored.insert(p.id);
    for (const QString &id : committed)
        QVERIFY2(stored.contains(id), qPrintable(u"committed part %1 is missing"_s.arg(id)));
    store.reset();
    Raw raw(db.path());
    QCOMPARE(raw.scalar(u"PRAGMA integrity_check"_s).toString(), u"ok"_s);
}

int main(int argc, char *argv[])
{
    if (argc == 3 && qstrcmp(argv[1], WriterFlag) == 0) {
        QCoreApplication app(argc, argv);
        return writeUntilKilled(QString::fromLocal8Bit(argv[2]));
    }
    QCoreApplication app(argc, argv);
    StoreFaultsTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_store_faults.moc"
