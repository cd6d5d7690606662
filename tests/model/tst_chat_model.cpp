#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

#include "TempDatabase.h"
#include "model/ChatModel.h"
#include "model/Identifier.h"
#include "model/StreamingText.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

#define REQUIRE(expr)                                                                                                  \
    do {                                                                                                               \
        const auto &result_ = (expr);                                                                                  \
        QVERIFY2(result_.ok(), qPrintable(result_.errorMessage()));                                                    \
    } while (false)

class ChatModelTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void listsEveryMessageButReadsNoContentUntilAsked();
    void loadsARangeInOneGoAndReleasesItAgain();
    void keepsAnAnswerThatIsStillBeingWritten();
    void aNewMessageIsAppendedAsARow();
    void anUpdatedMessageChangesItsRowInPlace();
    void partsAreInsertedInIdOrderAndUpdatedInPlace();
    void aDeltaAppendsToItsPartAndSaysSo();
    void eventsOfOtherSessionsAndOfUnloadedRowsChangeNothing();
    void aStreamingPartReadMidStreamGetsItsWholeText();
    void removalsTakeOutTheirRowOrPart();
    void theRevertPointHidesWhatFollowsIt();
    void aDatabaseThatCannotBeReadIsReportedAndNothingIsLost();

private:
    Message addUser(qint64 created, const QString &text);

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<Store> m_store;
    Session m_session;
};

void ChatModelTest::init()
{
    m_db = std::make_unique<TempDatabase>();
    m_store = m_db->open();
    REQUIRE(m_store->upsertProject(makeProject()));
    m_session = makeSession();
    REQUIRE(m_store->upsertSession(m_session));
}

void ChatModelTest::cleanup()
{
    m_store.reset();
    m_db.reset();
}

Message ChatModelTest::addUser(qint64 created, const QString &text)
{
    const Message message = makeUserMessage(m_session.id, created);
    if (!m_store->updateMessage(message).ok() || !m_store->updatePart(makeTextPart(m_session.id, message.id(), text)).ok())
        qFatal("could not write the test message");
    return message;
}

void ChatModelTest::listsEveryMessageButReadsNoContentUntilAsked()
{
    QStringList ids;
    for (int i = 0; i < 120; ++i)
        ids.append(addUser(1000 + i, u"m%1"_s.arg(i)).id());
    ChatModel model(m_store.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    REQUIRE(model.setSession(m_session.id));
    QCOMPARE(model.rowCount(), 120);
    QCOMPARE(model.loadedCount(), 0);
    QCOMPARE(model.messageIdAt(0), ids.first());
    QCOMPARE(model.messageIdAt(119), ids.last());
    QVERIFY(!model.loadedMessage(119));
    const MessageWithParts *last = model.message(119);
    QVERIFY(last);
    QCOMPARE(last->parts.first().as<TextPart>()->text, u"m119"_s);
    QCOMPARE(model.loadedCount(), 1);
    QCOMPARE(model.index(119).data().toString(), u"m119"_s);
}

void ChatModelTest::loadsARangeInOneGoAndReleasesItAgain()
{
    for (int i = 0; i < 30; ++i)
        addUser(1000 + i, u"m%1"_s.arg(i));
    ChatModel model(m_store.get());
    REQUIRE(model.setSession(m_session.id));
    model.load(10, 19);
    QCOMPARE(model.loadedCount(), 10);
    QVERIFY(model.loadedMessage(10));
    QVERIFY(!model.loadedMessage(20));
    model.release(0, 14);
    QCOMPARE(model.loadedCount(), 5);
    QVERIFY(!model.loadedMessage(10));
    QVERIFY(model.loadedMessage(15));
}

void ChatModelTest::keepsAnAnswerThatIsStillBeingWritten()
{
    const Message user = addUser(1000, u"hi"_s);
    const Message answer = makeAssistantMessage(m_session.id, user.id(), 1001);
    REQUIRE(m_store->updateMessage(answer));
    ChatModel model(m_store.get());
    REQUIRE(model.setSession(m_session.id));
    model.load(0, 1);
    model.release(0, 1);
    QVERIFY(!model.loadedMessage(0));
    QVERIFY2(model.loadedMessage(1), "an assistant message without completed time is still streaming");
}

void ChatModelTest::aNewMessageIsAppendedAsARow()
{
    addUser(1000, u"first"_s);
    ChatModel model(m_store.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    REQUIRE(model.setSession(m_session.id));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    const Message next = makeUserMessage(m_session.id, 2000);
    model.applyMessage(next);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), 1);
    QCOMPARE(model.rowCount(), 2);
    QVERIFY2(model.loadedMessage(1), "a message that just arrived is in memory");
    QVERIFY(model.loadedMessage(1)->parts.isEmpty());
}

void ChatModelTest::anUpdatedMessageChangesItsRowInPlace()
{
    const Message user = addUser(1000, u"hi"_s);
    AssistantMessage answer = *makeAssistantMessage(m_session.id, user.id(), 1001).assistant();
    REQUIRE(m_store->updateMessage(answer));
    ChatModel model(m_store.get());
    REQUIRE(model.setSession(m_session.id));
    model.load(0, 1);
    QSignalSpy changed(&model, &ChatModel::messageChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    answer.cost = 0.25;
    model.applyMessage(answer);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toInt(), 1);
    QCOMPARE(model.loadedMessage(1)->info.assistant()->cost, 0.25);
}

void ChatModelTest::partsAreInsertedInIdOrderAndUpdatedInPlace()
{
    const Message user = addUser(1000, u"hi"_s);
    ChatModel model(m_store.get());
    REQUIRE(model.setSession(m_session.id));
    model.load(0, 0);
    QSignalSpy inserted(&model, &ChatModel::partInserted);
    QSignalSpy changed(&model, &ChatModel::partChanged);
    Part early = makeTextPart(m_session.id, user.id(), u"early"_s);
    Part late = makeTextPart(m_session.id, user.id(), u"late"_s);
    model.applyPart(late);
    model.applyPart(early); // an older id goes before
    QCOMPARE(inserted.count(), 2);
    const MessageWithParts *content = model.loadedMessage(0);
    QCOMPARE(content->parts.size(), 3);
    QCOMPARE(content->parts.at(1).id, early.id);
    QCOMPARE(content->parts.at(2).id, late.id);
    late.as<TextPart>()->text = u"later"_s;
    model.applyPart(late);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(1).toInt(), 2);
    QCOMPARE(model.loadedMessage(0)->parts.at(2).as<TextPart>()->text, u"later"_s);
}

void ChatModelTest::aDeltaAppendsToItsPartAndSaysSo()
{
    const Message user = addUser(1000, u"hi"_s);
    const Message answer = makeAssistantMessage(m_session.id, user.id(), 1001);
    REQUIRE(m_store->updateMessage(answer));
    Part text = makeTextPart(m_session.id, answer.id(), QString());
    text.as<TextPart>()->time = PartTime{1001, std::nullopt};
    REQUIRE(m_store->updatePart(text));
    ChatModel model(m_store.get());
    REQUIRE(model.setSession(m_session.id));
    model.load(0, 1);
    QSignalSpy appended(&model, &ChatModel::partTextAppended);
    model.applyPartDelta(m_session.id, answer.id(), text.id, u"text"_s, u"Hel"_s);
    model.applyPartDelta(m_session.id, answer.id(), text.id, u"text"_s, u"lo"_s);
    QCOMPARE(appended.count(), 2);
    QCOMPARE(appended.last().at(0).toInt(), 1);
    QCOMPARE(appended.last().at(3).toString(), u"lo"_s);
    QCOMPARE(model.loadedMessage(1)->parts.first().as<TextPart>()->text, u"Hello"_s);
}

void ChatModelTest::eventsOfOtherSessionsAndOfUnloadedRowsChangeNothing()
{
    const Message user = addUser(1000, u"hi"_s);
    ChatModel model(m_store.get());
    REQUIRE(model.setSession(m_session.id));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy parts(&model, &ChatModel::partInserted);
    model.applyMessage(makeUserMessage(u"ses_other"_s, 2000));
    model.applyPart(makeTextPart(m_session.id, user.id(), u"more"_s)); // row 0 not loaded
    model.applyPartDelta(u"ses_other"_s, user.id(), u"prt_x"_s, u"text"_s, u"x"_s);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(parts.count(), 0);
    QCOMPARE(model.loadedCount(), 0);
}

void ChatModelTest::aStreamingPartReadMidStreamGetsItsWholeText()
{
    const Message user = addUser(1000, u"hi"_s);
    const Message answer = makeAssistantMessage(m_session.id, user.id(), 1001);
    REQUIRE(m_store->updateMessage(answer));
    Part text = makeTextPart(m_session.id, answer.id(), u"Hel"_s);
    text.as<TextPart>()->time = PartTime{1001, std::nullopt};
    REQUIRE(m_store->updatePart(text)); // what the last coalesced write saved
    StreamingText streaming;
    Part started = text;
    started.as<TextPart>()->text.clear();
    streaming.partUpdated(started);
    for (const QString &delta : {u"Hel"_s, u"lo, "_s, u"world"_s})
        streaming.partDelta(text.id, u"text"_s, delta);

    ChatModel model(m_store.get(), &streaming);
    REQUIRE(model.setSession(m_session.id));
    QCOMPARE(model.message(1)->parts.first().as<TextPart>()->text, u"Hello, world"_s);
}

void ChatModelTest::removalsTakeOutTheirRowOrPart()
{
    const Message a = addUser(1000, u"a"_s);
    const Message b = addUser(1001, u"b"_s);
    ChatModel model(m_store.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    REQUIRE(model.setSession(m_session.id));
    model.load(0, 1);
    QSignalSpy partRemoved(&model, &ChatModel::partRemoved);
    const QString partID = model.loadedMessage(1)->parts.first().id;
    model.applyPartRemoved(m_session.id, b.id(), partID);
    QCOMPARE(partRemoved.count(), 1);
    QVERIFY(model.loadedMessage(1)->parts.isEmpty());
    model.applyMessageRemoved(m_session.id, a.id());
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.messageIdAt(0), b.id());
}

void ChatModelTest::theRevertPointHidesWhatFollowsIt()
{
    const Message a = addUser(1000, u"a"_s);
    const Message b = addUser(1001, u"b"_s);
    const Message c = addUser(1002, u"c"_s);
    ChatModel model(m_store.get());
    REQUIRE(model.setSession(m_session.id));
    QSignalSpy reverted(&model, &ChatModel::revertChanged);
    model.setRevert(QJsonObject{{u"messageID"_s, b.id()}});
    QCOMPARE(reverted.count(), 1);
    QVERIFY(!model.isHidden(0));
    QVERIFY(model.isHidden(1));
    QVERIFY(model.isHidden(2));
    QVERIFY(model.index(2).data(ChatModel::HiddenRole).toBool());
    model.setRevert(QJsonObject{{u"messageID"_s, b.id()}, {u"partID"_s, u"prt_z"_s}});
    QVERIFY2(!model.isHidden(1), "with a part cut, the message itself stays");
    QCOMPARE(model.revertCut()->partID, std::optional<QString>(u"prt_z"_s));
    model.setRevert(std::nullopt);
    QVERIFY(!model.isHidden(2));
    QCOMPARE(reverted.count(), 3);
    Q_UNUSED(c);
}

void ChatModelTest::aDatabaseThatCannotBeReadIsReportedAndNothingIsLost()
{
    addUser(1000, u"a"_s);
    ChatModel model(m_store.get());
    REQUIRE(model.setSession(m_session.id));
    QCOMPARE(model.rowCount(), 1);
    {
        // Another program breaks the file under us.
        QSqlDatabase raw = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"breaker"_s);
        raw.setDatabaseName(m_db->path());
        QVERIFY(raw.open());
        QSqlQuery query(raw);
        QVERIFY(query.exec(u"ALTER TABLE part RENAME TO part_gone"_s));
    }
    QSqlDatabase::removeDatabase(u"breaker"_s);
    QSignalSpy failed(&model, &ChatModel::loadFailed);
    QVERIFY(!model.message(0));
    QCOMPARE(failed.count(), 1);
    QVERIFY(!failed.first().at(0).toString().isEmpty());
    QCOMPARE(model.rowCount(), 1); // the row stays, to be read again later
}

QTEST_GUILESS_MAIN(ChatModelTest)
#include "tst_chat_model.moc"
