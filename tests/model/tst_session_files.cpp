#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "TempDatabase.h"
#include "model/SessionFiles.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

#define REQUIRE(expr)                                                                                                  \
    do {                                                                                                               \
        const auto &result_ = (expr);                                                                                  \
        QVERIFY2(result_.ok(), qPrintable(result_.errorMessage()));                                                    \
    } while (false)

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class SessionFilesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void theFormatFollowsTheNameUnlessOneIsGiven();
    void importJsonReturnsTheImportedSession();
    void aBadExportNeitherCreatesNorChangesADatabase();
    void importFromAMissingFileNamesIt();

private:
    std::unique_ptr<TempDatabase> m_db;
    Session m_session;
};

void SessionFilesTest::init()
{
    m_db = std::make_unique<TempDatabase>();
    auto store = m_db->open();
    QVERIFY(store);
    REQUIRE(store->upsertProject(makeProject()));
    m_session = makeSession();
    m_session.title = u"Tidy the parser"_s;
    REQUIRE(store->upsertSession(m_session));
    const Message user = makeUserMessage(m_session.id, 1000);
    REQUIRE(store->updateMessage(user));
    REQUIRE(store->updatePart(makeTextPart(m_session.id, user.id(), u"Split parse() in two"_s)));
}

void SessionFilesTest::theFormatFollowsTheNameUnlessOneIsGiven()
{
    const QDir folder(m_db->folder());
    REQUIRE(SessionFiles::exportTo(m_db->path(), m_session.id, folder.filePath(u"a.md"_s)));
    REQUIRE(SessionFiles::exportTo(m_db->path(), m_session.id, folder.filePath(u"b.json"_s)));
    REQUIRE(SessionFiles::exportTo(m_db->path(), m_session.id, folder.filePath(u"c.json"_s),
                                   SessionFiles::Format::Markdown));
    QVERIFY(readAll(folder.filePath(u"a.md"_s)).startsWith("# Tidy the parser\n"));
    QCOMPARE(QJsonDocument::fromJson(readAll(folder.filePath(u"b.json"_s)))
                 .object()
                 .value("info"_L1)
                 .toObject()
                 .value("id"_L1)
                 .toString(),
             m_session.id);
    QVERIFY(readAll(folder.filePath(u"c.json"_s)).startsWith("# Tidy the parser\n"));
}

void SessionFilesTest::importJsonReturnsTheImportedSession()
{
    const auto json = SessionFiles::render(m_db->path(), m_session.id, SessionFiles::Format::Json);
    REQUIRE(json);
    TempDatabase other;
    const auto imported = SessionFiles::importJson(other.path(), *json);
    REQUIRE(imported);
    QCOMPARE(imported->id, m_session.id);
    QCOMPARE(imported->title, u"Tidy the parser"_s);
    auto store = other.open();
    QVERIFY(store);
    const auto messages = store->messages(m_session.id);
    REQUIRE(messages);
    QCOMPARE(messages->size(), 1);
}

void SessionFilesTest::aBadExportNeitherCreatesNorChangesADatabase()
{
    QTemporaryDir empty;
    const QString fresh = QDir(empty.path()).filePath(u"qcode.db"_s);
    for (const QByteArray &bad : {QByteArray(), QByteArray("{"), QByteArray("[]"), QByteArray(R"({"info":{}})")}) {
        const auto imported = SessionFiles::importJson(fresh, bad);
        QVERIFY2(!imported.ok(), bad.constData());
        QVERIFY(!imported.errorMessage().isEmpty());
        QVERIFY2(!QFileInfo::exists(fresh), bad.constData());
    }
    const auto again = SessionFiles::render(m_db->path(), m_session.id, SessionFiles::Format::Json);
    REQUIRE(again);
    const auto refused = SessionFiles::importJson(m_db->path(), *again);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.errorMessage().contains("already here"_L1), qPrintable(refused.errorMessage()));
}

void SessionFilesTest::importFromAMissingFileNamesIt()
{
    const QString missing = QDir(m_db->folder()).filePath(u"gone.json"_s);
    const auto imported = SessionFiles::importFrom(m_db->path(), missing);
    QVERIFY(!imported.ok());
    QVERIFY2(imported.errorMessage().contains(QDir::toNativeSeparators(missing)), qPrintable(imported.errorMessage()));
}

QTEST_GUILESS_MAIN(SessionFilesTest)
#include "tst_session_files.moc"
