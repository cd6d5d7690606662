#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "TempDatabase.h"
#include "model/Identifier.h"
#include "model/SessionTransfer.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

#define REQUIRE(expr)                                                                                                  \
    do {                                                                                                               \
        const auto &result_ = (expr);                                                                                  \
        QVERIFY2(result_.ok(), qPrintable(result_.errorMessage()));                                                    \
    } while (false)

int rowCount(Store &store, const QString &sessionID)
{
    const auto messages = store.messages(sessionID);
    return messages ? int(messages->size()) : -1;
}

} // namespace

class SessionTransferTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void exportImportExportIsIdentical();
    void importsOpenCodesExportShapeWithFieldsQcodeDoesNotKnow();
    void refusesInvalidJsonNamingTheByte();
    void refusesSomethingThatIsNotAnExport();
    void refusesASessionThatIsAlreadyHereAndKeepsIt();
    void refusesAMessageOfAnotherSessionAndWritesNothing();
    void exportingAMissingSessionSaysSo();

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<Store> m_store;
    Session m_session;
};

void SessionTransferTest::init()
{
    m_db = std::make_unique<TempDatabase>();
    m_store = m_db->open();
    QVERIFY(m_store);
    REQUIRE(m_store->upsertProject(makeProject()));
    m_session = makeSession();
    m_session.extra = QJsonObject{{"futureSessionField"_L1, 1}};
    REQUIRE(m_store->upsertSession(m_session));

    const Message user = makeUserMessage(m_session.id, 1000);
    REQUIRE(m_store->updateMessage(user));
    REQUIRE(m_store->updatePart(makeTextPart(m_session.id, user.id(), u"Explain main.cpp"_s)));
    Message assistant = makeAssistantMessage(m_session.id, user.id(), 2000);
    assistant.assistant()->finish = u"tool-calls"_s;
    assistant.assistant()->tokens = TokenUsage{std::nullopt, 10, 20, 3, 4, 5};
    assistant.assistant()->cost = 0.01;
    REQUIRE(m_store->updateMessage(assistant));
    REQUIRE(m_store->updatePart(Part{Identifier::ascending(Identifier::Prefix::Part), m_session.id, assistant.id(),
                                     StepStartPart{u"abc"_s}, {}}));
    ToolPart tool{u"call_1"_s, u"read"_s, ToolPending{}, {}, {}};
    QVERIFY(tool.start(QJsonObject{{"filePath"_L1, "/work/main.cpp"_L1}}, 2100).ok());
    QVERIFY(tool.complete(u"1: int main()"_s, u"main.cpp"_s, QJsonObject{{"lines"_L1, 1}}, 2200).ok());
    REQUIRE(m_store->updatePart(Part{Identifier::ascending(Identifier::Prefix::Part), m_session.id, assistant.id(),
                                     tool, QJsonObject{{"partExtra"_L1, "kept"_L1}}}));
}

void SessionTransferTest::exportImportExportIsIdentical()
{
    const auto first = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(first);
    const QByteArray bytes = SessionTransfer::toBytes(*first);

    TempDatabase other;
    auto target = other.open();
    QVERIFY(target);
    const auto imported = SessionTransfer::importSession(*target, bytes);
    REQUIRE(imported);
    QCOMPARE(*imported, m_session.id);
    const auto second = SessionTransfer::exportSession(*target, m_session.id);
    REQUIRE(second);
    QCOMPARE(SessionTransfer::toBytes(*second), bytes);
    QCOMPARE(first->value("messages"_L1).toArray().size(), 2);
}

void SessionTransferTest::importsOpenCodesExportShapeWithFieldsQcodeDoesNotKnow()
{
    const QByteArray openCodeExport = R"({
      "info": {"id":"ses_7f1e2d3c4b5aQwErTyUiOpAsDf","slug":"quiet-harbor","version":"1.2.27","projectID":"4b1d9c0ffee",
               "directory":"/home/ana/app","title":"Fix login","time":{"created":1760000000000,"updated":1760000100000},
               "summary":{"additions":3,"deletions":1,"files":1}},
      "messages": [
        {"info":{"id":"msg_a1b2c3d4e5f6AbCdEfGhIjKlMn","sessionID":"ses_7f1e2d3c4b5aQwErTyUiOpAsDf","role":"user",
                 "time":{"created":1760000000000},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4-5"}},
         "parts":[{"id":"prt_a1b2c3d4e5f7AbCdEfGhIjKlMn","sessionID":"ses_7f1e2d3c4b5aQwErTyUiOpAsDf",
                   "messageID":"msg_a1b2c3d4e5f6AbCdEfGhIjKlMn","type":"text","text":"Fix the login bug"}]},
        {"info":{"id":"msg_a1b2c3d4e5f8AbCdEfGhIjKlMn","sessionID":"ses_7f1e2d3c4b5aQwErTyUiOpAsDf","role":"assistant",
                 "time":{"created":1760000001000,"completed":1760000009000},"parentID":"msg_a1b2c3d4e5f6AbCdEfGhIjKlMn",
                 "modelID":"claude-sonnet-4-5","providerID":"anthropic","mode":"build","agent":"build",
                 "path":{"cwd":"/home/ana/app","root":"/home/ana/app"},"cost":0.002,
                 "tokens":{"input":100,"output":50,"reasoning":0,"cache":{"read":0,"write":0}},"finish":"stop",
                 "someFutureOpenCodeField":{"nested":true}},
         "parts":[{"id":"prt_a1b2c3d4e5f9AbCdEfGhIjKlMn","sessionID":"ses_7f1e2d3c4b5aQwErTyUiOpAsDf",
                   "messageID":"msg_a1b2c3d4e5f8AbCdEfGhIjKlMn","type":"text","text":"Done.","time":{"start":1,"end":2}}]}
      ]})";
    const auto imported = SessionTransfer::importSession(*m_store, openCodeExport);
    REQUIRE(imported);
    const auto project = m_store->project(u"4b1d9c0ffee"_s);
    REQUIRE(project);
    QVERIFY(project->has_value());
    QCOMPARE((*project)->worktree, u"/home/ana/app"_s);
    const auto exported = SessionTransfer::exportSession(*m_store, *imported);
    REQUIRE(exported);
    QCOMPARE(QJsonDocument(*exported).toJson(QJsonDocument::Compact),
             QJsonDocument::fromJson(openCodeExport).toJson(QJsonDocument::Compact));
}

void SessionTransferTest::refusesInvalidJsonNamingTheByte()
{
    const auto imported = SessionTransfer::importSession(*m_store, QByteArray(R"({"info": {"id": "ses_x", )"));
    QVERIFY(!imported.ok());
    QVERIFY2(imported.errorMessage().contains("invalid at byte"_L1), qPrintable(imported.errorMessage()));
}

void SessionTransferTest::refusesSomethingThatIsNotAnExport()
{
    for (const QByteArray &bytes : {QByteArray("[1,2,3]"), QByteArray(R"({"info":{}})"),
                                    QByteArray(R"({"info":{"id":"msg_wrong"},"messages":[]})")}) {
        const auto imported = SessionTransfer::importSession(*m_store, bytes);
        QVERIFY2(!imported.ok(), bytes.constData());
        QVERIFY(!imported.errorMessage().isEmpty());
    }
}

void SessionTransferTest::refusesASessionThatIsAlreadyHereAndKeepsIt()
{
    const auto exported = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(exported);
    QJsonObject changed = *exported;
    QJsonObject info = changed.value("info"_L1).toObject();
    info.insert("title"_L1, u"Overwritten?"_s);
    changed.insert("info"_L1, info);
    const auto imported = SessionTransfer::importSession(*m_store, changed);
    QVERIFY(!imported.ok());
    QVERIFY2(imported.errorMessage().contains("already here"_L1), qPrintable(imported.errorMessage()));
    const auto kept = m_store->session(m_session.id);
    QCOMPARE((*kept)->title, m_session.title);
    QCOMPARE(rowCount(*m_store, m_session.id), 2);
}

void SessionTransferTest::refusesAMessageOfAnotherSessionAndWritesNothing()
{
    auto exported = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(exported);
    QJsonObject doc = *exported;
    QJsonObject info = doc.value("info"_L1).toObject();
    const QString newId = Identifier::descending(Identifier::Prefix::Session);
    info.insert("id"_L1, newId); // the messages still name the old session
    doc.insert("info"_L1, info);

    TempDatabase other;
    auto target = other.open();
    QVERIFY(target);
    const auto imported = SessionTransfer::importSession(*target, doc);
    QVERIFY(!imported.ok());
    QVERIFY2(imported.errorMessage().contains("belongs to session"_L1), qPrintable(imported.errorMessage()));
    const auto session = target->session(newId);
    REQUIRE(session);
    QVERIFY(!session->has_value());
}

void SessionTransferTest::exportingAMissingSessionSaysSo()
{
    const auto exported = SessionTransfer::exportSession(*m_store, u"ses_gone"_s);
    QVERIFY(!exported.ok());
    QVERIFY2(exported.errorMessage().contains("ses_gone"_L1), qPrintable(exported.errorMessage()));
}

QTEST_GUILESS_MAIN(SessionTransferTest)
#include "tst_session_transfer.moc"
