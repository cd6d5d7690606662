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

// The export moved to session `sessionID`, every message and part with
// it; their own ids are kept.
QJsonObject movedTo(QJsonObject exported, const QString &sessionID)
{
    QJsonObject info = exported.value("info"_L1).toObject();
    info.insert("id"_L1, sessionID);
    exported.insert("info"_L1, info);
    QJsonArray messages;
    for (const QJsonValue &value : exported.value("messages"_L1).toArray()) {
        QJsonObject message = value.toObject();
        QJsonObject messageInfo = message.value("info"_L1).toObject();
        messageInfo.insert("sessionID"_L1, sessionID);
        message.insert("info"_L1, messageInfo);
        QJsonArray parts;
        for (const QJsonValue &part : message.value("parts"_L1).toArray()) {
            QJsonObject moved = part.toObject();
            moved.insert("sessionID"_L1, sessionID);
            parts.append(moved);
        }
        message.insert("parts"_L1, parts);
        messages.append(message);
    }
    exported.insert("messages"_L1, messages);
    return exported;
}

// Gives every message and part of the export a new id, parent links kept.
QJsonObject withFreshIds(QJsonObject exported)
{
    QHash<QString, QString> renamed;
    QJsonArray messages;
    for (const QJsonValue &value : exported.value("messages"_L1).toArray()) {
        QJsonObject message = value.toObject();
        QJsonObject info = message.value("info"_L1).toObject();
        const QString id = Identifier::ascending(Identifier::Prefix::Message);
        renamed.insert(info.value("id"_L1).toString(), id);
        info.insert("id"_L1, id);
        if (info.contains("parentID"_L1))
            info.insert("parentID"_L1, renamed.value(info.value("parentID"_L1).toString()));
        message.insert("info"_L1, info);
        QJsonArray parts;
        for (const QJsonValue &part : message.value("parts"_L1).toArray()) {
            QJsonObject renamedPart = part.toObject();
            renamedPart.insert("id"_L1, Identifier::ascending(Identifier::Prefix::Part));
            renamedPart.insert("messageID"_L1, id);
            parts.append(renamedPart);
        }
        message.insert("parts"_L1, parts);
        messages.append(message);
    }
    exported.insert("messages"_L1, messages);
    return exported;
}

QJsonObject withMessage(QJsonObject exported, int index, const QJsonObject &message)
{
    QJsonArray messages = exported.value("messages"_L1).toArray();
    messages.replace(index, message);
    exported.insert("messages"_L1, messages);
    return exported;
}

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
    void anExportWhoseMessageIdsAreAnotherSessionsLeavesThatSessionUntouched();
    void anExportWithOnePartIdOfAnotherSessionImportsNothing();
    void importingTheSameFileTwiceRefusesTheSecondAndKeepsTheFirst();
    void aPartListedUnderAnotherSessionsMessageIsRefused();
    void anAnswerWhoseParentIsNotInTheExportIsRefused();
    void anIdTwiceInTheExportIsRefused();
    void aFileCannotGrantPermissionsOrJoinAnotherSession();

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

void SessionTransferTest::anExportWhoseMessageIdsAreAnotherSessionsLeavesThatSessionUntouched()
{
    const auto before = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(before);
    // A crafted file: a new session, but m_session's message and part ids,
    // with text of its own.
    const QString newId = Identifier::descending(Identifier::Prefix::Session);
    QJsonObject crafted = movedTo(*before, newId);
    QJsonObject first = crafted.value("messages"_L1).toArray().at(0).toObject();
    QJsonArray parts = first.value("parts"_L1).toArray();
    QJsonObject text = parts.at(0).toObject();
    text.insert("text"_L1, u"Rewritten history"_s);
    parts.replace(0, text);
    first.insert("parts"_L1, parts);
    crafted = withMessage(crafted, 0, first);

    const auto imported = SessionTransfer::importSession(*m_store, crafted);
    QVERIFY(!imported.ok());
    const QString messageID = first.value("info"_L1).toObject().value("id"_L1).toString();
    QVERIFY2(imported.errorMessage().contains(messageID) && imported.errorMessage().contains(m_session.id),
             qPrintable(imported.errorMessage()));
    const auto after = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(after);
    QCOMPARE(SessionTransfer::toBytes(*after), SessionTransfer::toBytes(*before));
    const auto session = m_store->session(newId);
    REQUIRE(session);
    QVERIFY(!session->has_value());
}

void SessionTransferTest::anExportWithOnePartIdOfAnotherSessionImportsNothing()
{
    const auto before = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(before);
    const QString newId = Identifier::descending(Identifier::Prefix::Session);
    QJsonObject crafted = withFreshIds(movedTo(*before, newId));
    // The last part of the last message takes the id of a stored part: the
    // clash comes after everything else would have been written.
    const QJsonArray storedParts = before->value("messages"_L1).toArray().last().toObject().value("parts"_L1).toArray();
    const QString storedPartID = storedParts.last().toObject().value("id"_L1).toString();
    QJsonObject last = crafted.value("messages"_L1).toArray().last().toObject();
    QJsonArray parts = last.value("parts"_L1).toArray();
    QJsonObject part = parts.last().toObject();
    part.insert("id"_L1, storedPartID);
    parts.replace(parts.size() - 1, part);
    last.insert("parts"_L1, parts);
    crafted = withMessage(crafted, int(crafted.value("messages"_L1).toArray().size()) - 1, last);

    const auto imported = SessionTransfer::importSession(*m_store, crafted);
    QVERIFY(!imported.ok());
    QVERIFY2(imported.errorMessage().contains(storedPartID), qPrintable(imported.errorMessage()));
    const auto after = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(after);
    QCOMPARE(SessionTransfer::toBytes(*after), SessionTransfer::toBytes(*before));
    const auto session = m_store->session(newId);
    REQUIRE(session);
    QVERIFY(!session->has_value());
    QCOMPARE(rowCount(*m_store, newId), 0);
}

void SessionTransferTest::importingTheSameFileTwiceRefusesTheSecondAndKeepsTheFirst()
{
    const auto exported = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(exported);
    const QByteArray bytes = SessionTransfer::toBytes(*exported);
    TempDatabase other;
    auto target = other.open();
    QVERIFY(target);
    REQUIRE(SessionTransfer::importSession(*target, bytes));
    const auto second = SessionTransfer::importSession(*target, bytes);
    QVERIFY(!second.ok());
    QVERIFY2(second.errorMessage().contains(m_session.id), qPrintable(second.errorMessage()));
    const auto kept = SessionTransfer::exportSession(*target, m_session.id);
    REQUIRE(kept);
    QCOMPARE(SessionTransfer::toBytes(*kept), bytes);
    const auto all = target->allSessions();
    REQUIRE(all);
    QCOMPARE(all->size(), 1);
}

void SessionTransferTest::aPartListedUnderAnotherSessionsMessageIsRefused()
{
    const auto before = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(before);
    const QString storedMessageID =
        before->value("messages"_L1).toArray().at(0).toObject().value("info"_L1).toObject().value("id"_L1).toString();
    const QString newId = Identifier::descending(Identifier::Prefix::Session);
    QJsonObject crafted = withFreshIds(movedTo(*before, newId));
    // A new part, of the new session, that names m_session's message.
    QJsonObject first = crafted.value("messages"_L1).toArray().at(0).toObject();
    QJsonArray parts = first.value("parts"_L1).toArray();
    parts.append(QJsonObject{{"id"_L1, Identifier::ascending(Identifier::Prefix::Part)},
                             {"sessionID"_L1, newId},
                             {"messageID"_L1, storedMessageID},
                             {"type"_L1, "text"_L1},
                             {"text"_L1, "Injected"_L1}});
    first.insert("parts"_L1, parts);
    crafted = withMessage(crafted, 0, first);

    const auto imported = SessionTransfer::importSession(*m_store, crafted);
    QVERIFY(!imported.ok());
    QVERIFY2(imported.errorMessage().contains(storedMessageID), qPrintable(imported.errorMessage()));
    const auto after = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(after);
    QCOMPARE(SessionTransfer::toBytes(*after), SessionTransfer::toBytes(*before));
    const auto session = m_store->session(newId);
    REQUIRE(session);
    QVERIFY(!session->has_value());
}

void SessionTransferTest::anAnswerWhoseParentIsNotInTheExportIsRefused()
{
    const auto before = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(before);
    const QString newId = Identifier::descending(Identifier::Prefix::Session);
    QJsonObject crafted = withFreshIds(movedTo(*before, newId));
    // The answer claims to answer m_session's question.
    const QString storedMessageID =
        before->value("messages"_L1).toArray().at(0).toObject().value("info"_L1).toObject().value("id"_L1).toString();
    QJsonObject answer = crafted.value("messages"_L1).toArray().at(1).toObject();
    QJsonObject info = answer.value("info"_L1).toObject();
    info.insert("parentID"_L1, storedMessageID);
    answer.insert("info"_L1, info);
    crafted = withMessage(crafted, 1, answer);

    const auto imported = SessionTransfer::importSession(*m_store, crafted);
    QVERIFY(!imported.ok());
    QVERIFY2(imported.errorMessage().contains(u"not in the export"_s), qPrintable(imported.errorMessage()));
    const auto session = m_store->session(newId);
    REQUIRE(session);
    QVERIFY(!session->has_value());

    // With the parent links the file's own, the same import goes through.
    const QJsonObject consistent = withFreshIds(movedTo(*before, newId));
    const auto accepted = SessionTransfer::importSession(*m_store, consistent);
    REQUIRE(accepted);
    const auto messages = m_store->messages(newId);
    REQUIRE(messages);
    QCOMPARE(messages->size(), 2);
    QCOMPARE(messages->at(1).info.assistant()->parentID, messages->at(0).info.id());
}

void SessionTransferTest::anIdTwiceInTheExportIsRefused()
{
    const auto before = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(before);
    TempDatabase other;
    auto target = other.open();
    QVERIFY(target);
    // The first message's part again, under the same message: the second
    // copy would replace the first.
    QJsonObject first = before->value("messages"_L1).toArray().at(0).toObject();
    QJsonArray parts = first.value("parts"_L1).toArray();
    QJsonObject copy = parts.at(0).toObject();
    copy.insert("text"_L1, u"Second copy"_s);
    parts.append(copy);
    first.insert("parts"_L1, parts);
    const auto imported = SessionTransfer::importSession(*target, withMessage(*before, 0, first));
    QVERIFY(!imported.ok());
    QVERIFY2(imported.errorMessage().contains(u"twice"_s), qPrintable(imported.errorMessage()));
    const auto all = target->allSessions();
    REQUIRE(all);
    QVERIFY(all->isEmpty());
}

void SessionTransferTest::aFileCannotGrantPermissionsOrJoinAnotherSession()
{
    const auto before = SessionTransfer::exportSession(*m_store, m_session.id);
    REQUIRE(before);
    const QString newId = Identifier::descending(Identifier::Prefix::Session);
    QJsonObject crafted = withFreshIds(movedTo(*before, newId));
    QJsonObject info = crafted.value("info"_L1).toObject();
    info.insert("parentID"_L1, m_session.id);
    info.insert("permission"_L1,
                QJsonArray{QJsonObject{{"permission"_L1, "*"_L1}, {"pattern"_L1, "*"_L1}, {"action"_L1, "allow"_L1}},
                           QJsonObject{{"permission"_L1, "bash"_L1}, {"pattern"_L1, "*"_L1}, {"action"_L1, "deny"_L1}}});
    info.insert("revert"_L1, QJsonObject{{"messageID"_L1, "msg_elsewhere"_L1}, {"snapshot"_L1, "abc"_L1}});
    crafted.insert("info"_L1, info);

    const auto imported = SessionTransfer::importSession(*m_store, crafted);
    REQUIRE(imported);
    const auto session = m_store->session(newId);
    REQUIRE(session);
    QVERIFY(session->has_value());
    QVERIFY(!(*session)->parentID);
    QVERIFY(!(*session)->revert);
    QCOMPARE((*session)->permission,
             (QJsonArray{QJsonObject{{"permission"_L1, "bash"_L1}, {"pattern"_L1, "*"_L1}, {"action"_L1, "deny"_L1}}}));
    const auto children = m_store->children(m_session.id);
    REQUIRE(children);
    QVERIFY(children->isEmpty());
}

QTEST_GUILESS_MAIN(SessionTransferTest)
#include "tst_session_transfer.moc"
