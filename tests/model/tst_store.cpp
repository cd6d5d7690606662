#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>
#include <QThread>

#include "TempDatabase.h"
#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// A raw second connection, to look at rows the way SQLite stores them.
class RawConnection
{
public:
    explicit RawConnection(const QString &path) : m_name(u"raw-%1"_s.arg(quintptr(this)))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_name);
        db.setDatabaseName(path);
        db.open();
    }
    ~RawConnection() { QSqlDatabase::removeDatabase(m_name); }
    QVariant scalar(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name));
        if (!q.exec(sql) || !q.next())
            return {};
        return q.value(0);
    }

private:
    QString m_name;
};

#define REQUIRE(expr)                                                                                                  \
    do {                                                                                                               \
        const auto &result_ = (expr);                                                                                  \
        QVERIFY2(result_.ok(), qPrintable(result_.errorMessage()));                                                    \
    } while (false)

} // namespace

class StoreTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void opensWithWalForeignKeysAndTheLatestSchema();
    void upsertingAMessageTwiceKeepsOneRowAndItsTimeCreated();
    void upsertingAPartTwiceKeepsOneRowAndItsTimeCreated();
    void partsOfAMessageAreOrderedById();
    void deletingASessionCascadesToChildSessionsMessagesPartsAndTodos();
    void deletingAMessageRemovesItsParts();
    void pagesWalkNewestFirstWithoutGapsOrRepeats();
    void pagesBreakTiesOnEqualTimesById();
    void theMessageIndexListsEveryMessageOldestFirstWithoutContent();
    void messagesByIdComeInTheOrderAskedAndSkipUnknownIds();
    void theLastUserMessageIsTheNewestPromptOfTheSession();
    void usageListsTheCostAndTokensOfEachAssistantMessage();
    void historyStopsAtTheLastCompletedCompaction();
    void sessionsOfAProjectAreNewestFirst();
    void allSessionsListsEveryProjectAndChildNewestFirst();
    void sessionRoundTripsThroughItsColumns();
    void todosReplaceTheWholeList();
    void permissionRulesPersistPerProject();
    void aPartOfAMissingMessageIsRefusedAndNothingElseChanges();
    void aFailedTransactionLeavesNoTrace();
    void aWriterThreadAndAReaderThreadWorkAtOnce();

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<Store> m_store;
    Session m_session;
};

void StoreTest::init()
{
    m_db = std::make_unique<TempDatabase>();
    m_store = m_db->open();
    QVERIFY(m_store);
    REQUIRE(m_store->upsertProject(makeProject()));
    m_session = makeSession();
    REQUIRE(m_store->upsertSession(m_session));
}

void StoreTest::cleanup()
{
    m_store.reset();
    m_db.reset();
}

void StoreTest::opensWithWalForeignKeysAndTheLatestSchema()
{
    RawConnection raw(m_db->path());
    QCOMPARE(raw.scalar(u"PRAGMA journal_mode"_s).toString(), u"wal"_s);
    QCOMPARE(raw.scalar(u"PRAGMA user_version"_s).toInt(), Store::latestSchemaVersion());
    for (const char *table : {"project", "session", "message", "part", "todo", "permission"})
        QVERIFY2(raw.scalar(u"SELECT count(*) FROM sqlite_master WHERE type='table' AND name='%1'"_s.arg(QLatin1StringView(table))).toInt() == 1, table);
    for (const char *index : {"session_project_idx", "session_parent_idx", "session_workspace_idx",
                              "message_session_time_created_id_idx", "part_message_id_id_idx", "part_session_idx"})
        QVERIFY2(raw.scalar(u"SELECT count(*) FROM sqlite_master WHERE type='index' AND name='%1'"_s.arg(QLatin1StringView(index))).toInt() == 1, index);
}

void StoreTest::upsertingAMessageTwiceKeepsOneRowAndItsTimeCreated()
{
    Message message = makeUserMessage(m_session.id, 1000);
    REQUIRE(m_store->updateMessage(message));
    message.user()->agent = u"plan"_s;
    message.user()->created = 5000; // the column keeps the first value, as OpenCode's upsert does
    REQUIRE(m_store->updateMessage(message));

    RawConnection raw(m_db->path());
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM message"_s).toInt(), 1);
    QCOMPARE(raw.scalar(u"SELECT time_created FROM message"_s).toLongLong(), 1000);
    const auto stored = m_store->message(message.id());
    REQUIRE(stored);
    QCOMPARE((*stored)->info.user()->agent, u"plan"_s);
}

void StoreTest::upsertingAPartTwiceKeepsOneRowAndItsTimeCreated()
{
    const Message message = makeUserMessage(m_session.id);
    REQUIRE(m_store->updateMessage(message));
    Part part = makeTextPart(m_session.id, message.id(), u"Hel"_s);
    REQUIRE(m_store->updatePart(part));
    RawConnection raw(m_db->path());
    const qint64 created = raw.scalar(u"SELECT time_created FROM part"_s).toLongLong();
    // Let the clock move on so a rewritten time_created would show.
    QTRY_VERIFY(QDateTime::currentMSecsSinceEpoch() > created + 2);

    part.as<TextPart>()->text = u"Hello"_s;
    REQUIRE(m_store->updatePart(part));
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM part"_s).toInt(), 1);
    QCOMPARE(raw.scalar(u"SELECT time_created FROM part"_s).toLongLong(), created);
    QVERIFY(raw.scalar(u"SELECT time_updated FROM part"_s).toLongLong() > created);
    // The data column is JSON text without the ids that have columns of their own.
    QCOMPARE(raw.scalar(u"SELECT typeof(data) FROM part"_s).toString(), u"text"_s);
    QCOMPARE(raw.scalar(u"SELECT json_extract(data, '$.text') FROM part"_s).toString(), u"Hello"_s);
    QCOMPARE(raw.scalar(u"SELECT json_type(data, '$.id') IS NULL FROM part"_s).toInt(), 1);
    QCOMPARE(raw.scalar(u"SELECT typeof(data) FROM message"_s).toString(), u"text"_s);
    const auto parts = m_store->parts(message.id());
    REQUIRE(parts);
    QCOMPARE(parts->size(), 1);
    QCOMPARE(parts->first().as<TextPart>()->text, u"Hello"_s);
}

void StoreTest::partsOfAMessageAreOrderedById()
{
    const Message message = makeUserMessage(m_session.id);
    REQUIRE(m_store->updateMessage(message));
    QStringList ids;
    for (int i = 0; i < 20; ++i)
        ids.append(Identifier::ascending(Identifier::Prefix::Part));
    // Written in reverse; read back in id (creation) order.
    for (qsizetype i = ids.size() - 1; i >= 0; --i) {
        Part p = makeTextPart(m_session.id, message.id(), QString::number(i));
        p.id = ids[i];
        REQUIRE(m_store->updatePart(p));
    }
    const auto parts = m_store->parts(message.id());
    REQUIRE(parts);
    QStringList read;
    for (const Part &p : *parts)
        read.append(p.id);
    QCOMPARE(read, ids);
}

void StoreTest::deletingASessionCascadesToChildSessionsMessagesPartsAndTodos()
{
    const Session child = makeSession(u"global"_s, m_session.id);
    const Session grandchild = makeSession(u"global"_s, child.id);
    const Session unrelated = makeSession();
    for (const Session &s : {child, grandchild, unrelated})
        REQUIRE(m_store->upsertSession(s));
    for (const Session &s : {m_session, child, grandchild, unrelated}) {
        const Message m = makeUserMessage(s.id);
        REQUIRE(m_store->updateMessage(m));
        REQUIRE(m_store->updatePart(makeTextPart(s.id, m.id(), u"x"_s)));
        REQUIRE(m_store->setTodos(s.id, {Todo{u"do it"_s, u"pending"_s, u"high"_s}}));
    }

    const auto removed = m_store->removeSession(m_session.id);
    REQUIRE(removed);
    QCOMPARE(*removed, (QStringList{grandchild.id, child.id, m_session.id}));

    RawConnection raw(m_db->path());
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM session"_s).toInt(), 1);
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM message"_s).toInt(), 1);
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM part"_s).toInt(), 1);
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM todo"_s).toInt(), 1);
    QCOMPARE(raw.scalar(u"SELECT session_id FROM part"_s).toString(), unrelated.id);
}

void StoreTest::deletingAMessageRemovesItsParts()
{
    const Message message = makeUserMessage(m_session.id);
    REQUIRE(m_store->updateMessage(message));
    REQUIRE(m_store->updatePart(makeTextPart(m_session.id, message.id(), u"a"_s)));
    REQUIRE(m_store->removeMessage(message.id()));
    RawConnection raw(m_db->path());
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM part"_s).toInt(), 0);
}

void StoreTest::pagesWalkNewestFirstWithoutGapsOrRepeats()
{
    QStringList written;
    REQUIRE(m_store->transaction([&]() -> Result<void> {
        for (int i = 0; i < 120; ++i) {
            const Message m = makeUserMessage(m_session.id, 1000 + i);
            written.prepend(m.id());
            if (auto ok = m_store->updateMessage(m); !ok)
                return ok;
            for (int j = 0; j < 3; ++j) {
                if (auto ok = m_store->updatePart(makeTextPart(m_session.id, m.id(), QString::number(j))); !ok)
                    return ok;
            }
        }
        return {};
    }));

    QStringList read;
    QList<int> sizes;
    std::optional<MessageCursor> cursor;
    do {
        const auto page = m_store->messagePage(m_session.id, cursor);
        REQUIRE(page);
        sizes.append(int(page->messages.size()));
        for (const MessageWithParts &m : page->messages) {
            read.append(m.info.id());
            QCOMPARE(m.parts.size(), 3);
            QCOMPARE(m.parts[0].as<TextPart>()->text, u"0"_s);
        }
        cursor = page->next;
    } while (cursor);
    QCOMPARE(sizes, (QList<int>{50, 50, 20}));
    QCOMPARE(read, written);

    const auto all = m_store->messages(m_session.id);
    REQUIRE(all);
    QCOMPARE(all->size(), 120);
    QCOMPARE(all->first().info.id(), written.last()); // oldest first
}

void StoreTest::theMessageIndexListsEveryMessageOldestFirstWithoutContent()
{
    QStringList written;
    REQUIRE(m_store->transaction([&]() -> Result<void> {
        for (int i = 0; i < 30; ++i) {
            // Equal times every other message: the index orders them by id.
            const Message m = makeUserMessage(m_session.id, 1000 + i / 2);
            written.append(m.id());
            if (auto ok = m_store->updateMessage(m); !ok)
                return ok;
        }
        return {};
    }));
    const Session other = makeSession();
    REQUIRE(m_store->upsertSession(other));
    REQUIRE(m_store->updateMessage(makeUserMessage(other.id, 500)));

    const auto index = m_store->messageIndex(m_session.id);
    REQUIRE(index);
    QStringList ids;
    for (const MessageCursor &row : *index)
        ids.append(row.id);
    QCOMPARE(ids, written);
    QCOMPARE(index->first().timeCreated, 1000);
    QCOMPARE(index->last().timeCreated, 1014);
    QVERIFY(m_store->messageIndex(u"ses_unknown"_s)->isEmpty());
}

void StoreTest::messagesByIdComeInTheOrderAskedAndSkipUnknownIds()
{
    QStringList ids;
    REQUIRE(m_store->transaction([&]() -> Result<void> {
        // More than one batch of bound values.
        for (int i = 0; i < 450; ++i) {
            const Message m = makeUserMessage(m_session.id, 1000 + i);
            ids.append(m.id());
            if (auto ok = m_store->updateMessage(m); !ok)
                return ok;
            if (auto ok = m_store->updatePart(makeTextPart(m_session.id, m.id(), QString::number(i))); !ok)
                return ok;
        }
        return {};
    }));
    QStringList asked{ids.at(7), u"msg_unknown"_s, ids.at(2)};
    asked.append(ids.mid(10));
    const auto found = m_store->messagesById(asked);
    REQUIRE(found);
    QCOMPARE(found->size(), asked.size() - 1);
    QCOMPARE(found->at(0).info.id(), ids.at(7));
    QCOMPARE(found->at(0).parts.size(), 1);
    QCOMPARE(found->at(0).parts.first().as<TextPart>()->text, u"7"_s);
    QCOMPARE(found->at(1).info.id(), ids.at(2));
    QCOMPARE(found->last().info.id(), ids.last());
    QCOMPARE(found->last().parts.first().as<TextPart>()->text, u"449"_s);
    QVERIFY(m_store->messagesById({})->isEmpty());
}

void StoreTest::theLastUserMessageIsTheNewestPromptOfTheSession()
{
    QVERIFY(!m_store->lastUserMessage(m_session.id)->has_value());
    const Message first = makeUserMessage(m_session.id, 1000);
    const Message newest = makeUserMessage(m_session.id, 1002);
    REQUIRE(m_store->updateMessage(first));
    REQUIRE(m_store->updateMessage(newest));
    // Answers after it, and another session's newer prompt, do not count.
    REQUIRE(m_store->updateMessage(makeAssistantMessage(m_session.id, newest.id(), 1003)));
    const Session other = makeSession();
    REQUIRE(m_store->upsertSession(other));
    REQUIRE(m_store->updateMessage(makeUserMessage(other.id, 2000)));

    const auto last = m_store->lastUserMessage(m_session.id);
    REQUIRE(last);
    QVERIFY(last->has_value());
    QCOMPARE((*last)->id(), newest.id());
    QVERIFY((*last)->isUser());
}

void StoreTest::usageListsTheCostAndTokensOfEachAssistantMessage()
{
    const Message user = makeUserMessage(m_session.id, 1000);
    REQUIRE(m_store->updateMessage(user));
    AssistantMessage first = *makeAssistantMessage(m_session.id, user.id(), 1001).assistant();
    first.cost = 0.5;
    first.tokens.input = 100;
    first.tokens.output = 20;
    first.tokens.cacheRead = 7;
    AssistantMessage second = *makeAssistantMessage(m_session.id, user.id(), 1002).assistant();
    second.cost = 0.25;
    REQUIRE(m_store->updateMessage(first));
    REQUIRE(m_store->updateMessage(second));
    const auto usage = m_store->usage(m_session.id);
    REQUIRE(usage);
    QCOMPARE(usage->size(), 2);
    QCOMPARE(usage->at(0).id, first.id);
    QCOMPARE(usage->at(0).cost, 0.5);
    QCOMPARE(usage->at(0).tokens.input, 100);
    QCOMPARE(usage->at(0).tokens.output, 20);
    QCOMPARE(usage->at(0).tokens.cacheRead, 7);
    QCOMPARE(usage->at(1).cost, 0.25);
}

void StoreTest::pagesBreakTiesOnEqualTimesById()
{
    QStringList written;
    for (int i = 0; i < 7; ++i) {
        const Message m = makeUserMessage(m_session.id, 4242);
        written.prepend(m.id());
        REQUIRE(m_store->updateMessage(m));
    }
    QStringList read;
    std::optional<MessageCursor> cursor;
    do {
        const auto page = m_store->messagePage(m_session.id, cursor, 3);
        REQUIRE(page);
        for (const MessageWithParts &m : page->messages)
            read.append(m.info.id());
        cursor = page->next;
    } while (cursor);
    QCOMPARE(read, written);
}

void StoreTest::historyStopsAtTheLastCompletedCompaction()
{
    // 60 old messages, then a compaction request, its finished summary, and
    // two newer messages: the model sees the last four, oldest first.
    qint64 t = 1000;
    for (int i = 0; i < 60; ++i)
        REQUIRE(m_store->updateMessage(makeUserMessage(m_session.id, t++)));
    const Message request = makeUserMessage(m_session.id, t++);
    REQUIRE(m_store->updateMessage(request));
    REQUIRE(m_store->updatePart(Part{Identifier::ascending(Identifier::Prefix::Part), m_session.id, request.id(),
                                     CompactionPart{true, std::nullopt}, {}}));
    Message summary = makeAssistantMessage(m_session.id, request.id(), t++);
    summary.assistant()->summary = true;
    summary.assistant()->finish = u"stop"_s;
    REQUIRE(m_store->updateMessage(summary));
    const Message next = makeUserMessage(m_session.id, t++);
    REQUIRE(m_store->updateMessage(next));
    const Message answer = makeAssistantMessage(m_session.id, next.id(), t++);
    REQUIRE(m_store->updateMessage(answer));

    const auto history = m_store->history(m_session.id);
    REQUIRE(history);
    QStringList ids;
    for (const MessageWithParts &m : *history)
        ids.append(m.info.id());
    QCOMPARE(ids, (QStringList{request.id(), summary.id(), next.id(), answer.id()}));
}

void StoreTest::sessionsOfAProjectAreNewestFirst()
{
    REQUIRE(m_store->upsertProject(makeProject(u"other"_s, u"/other"_s)));
    const Session second = makeSession();
    const Session third = makeSession();
    REQUIRE(m_store->upsertSession(second));
    REQUIRE(m_store->upsertSession(third));
    REQUIRE(m_store->upsertSession(makeSession(u"other"_s)));
    const auto list = m_store->sessions(u"global"_s);
    REQUIRE(list);
    QCOMPARE(list->size(), 3);
    QCOMPARE(list->at(0).id, third.id);
    QCOMPARE(list->at(1).id, second.id);
    QCOMPARE(list->at(2).id, m_session.id);
    const auto project = m_store->projectForWorktree(u"/other/"_s);
    REQUIRE(project);
    QCOMPARE((*project)->id, u"other"_s);
}

void StoreTest::allSessionsListsEveryProjectAndChildNewestFirst()
{
    REQUIRE(m_store->upsertProject(makeProject(u"other"_s, u"/other"_s)));
    const Session elsewhere = makeSession(u"other"_s);
    const Session child = makeSession(u"global"_s, m_session.id);
    REQUIRE(m_store->upsertSession(elsewhere));
    REQUIRE(m_store->upsertSession(child));
    const auto list = m_store->allSessions();
    REQUIRE(list);
    QStringList ids;
    for (const Session &s : *list)
        ids.append(s.id);
    QCOMPARE(ids, (QStringList{child.id, elsewhere.id, m_session.id}));
}

void StoreTest::sessionRoundTripsThroughItsColumns()
{
    Session s = makeSession();
    s.workspaceID = u"wrk_1"_s;
    s.summary = SessionSummary{3, 4, 5, QJsonArray{QJsonObject{{"file"_L1, "a"_L1}}}};
    s.shareUrl = u"https://example.invalid/s"_s;
    s.permission = QJsonArray{QJsonObject{{"permission"_L1, "bash"_L1}, {"pattern"_L1, "*"_L1}, {"action"_L1, "ask"_L1}}};
    s.revert = QJsonObject{{"messageID"_L1, "msg_1"_L1}};
    s.time.compacting = 7;
    s.time.archived = 8;
    s.extra = QJsonObject{{"fromTheFuture"_L1, true}};
    REQUIRE(m_store->upsertSession(s));
    const auto read = m_store->session(s.id);
    REQUIRE(read);
    QVERIFY(read->has_value());
    QCOMPARE((*read)->toJson(), s.toJson());
    const auto missing = m_store->session(u"ses_nothere"_s);
    REQUIRE(missing);
    QVERIFY(!missing->has_value());
}

void StoreTest::todosReplaceTheWholeList()
{
    const QList<Todo> first{{u"a"_s, u"pending"_s, u"high"_s}, {u"b"_s, u"in_progress"_s, u"low"_s}};
    REQUIRE(m_store->setTodos(m_session.id, first));
    auto read = m_store->todos(m_session.id);
    REQUIRE(read);
    QCOMPARE(*read, first);
    const QList<Todo> second{{u"c"_s, u"completed"_s, u"medium"_s}};
    REQUIRE(m_store->setTodos(m_session.id, second));
    read = m_store->todos(m_session.id);
    QCOMPARE(*read, second);
}

void StoreTest::permissionRulesPersistPerProject()
{
    const auto none = m_store->permission(u"global"_s);
    REQUIRE(none);
    QVERIFY(!none->has_value());
    const QJsonArray rules{QJsonObject{{"permission"_L1, "bash"_L1}, {"pattern"_L1, "git *"_L1}, {"action"_L1, "allow"_L1}}};
    REQUIRE(m_store->setPermission(u"global"_s, rules));
    m_store.reset();
    m_store = m_db->open();
    const auto read = m_store->permission(u"global"_s);
    REQUIRE(read);
    QCOMPARE(read->value(), rules);
}

void StoreTest::aPartOfAMissingMessageIsRefusedAndNothingElseChanges()
{
    const Message message = makeUserMessage(m_session.id);
    REQUIRE(m_store->updateMessage(message));
    const auto refused = m_store->updatePart(makeTextPart(m_session.id, u"msg_missing"_s, u"x"_s));
    QVERIFY(!refused.ok());
    QVERIFY2(refused.errorMessage().contains(m_db->path()) || refused.errorMessage().contains(QDir::toNativeSeparators(m_db->path())),
             qPrintable(refused.errorMessage()));
    const auto orphanSession = m_store->upsertSession(makeSession(u"no-such-project"_s));
    QVERIFY(!orphanSession.ok());
    const auto kept = m_store->message(message.id());
    REQUIRE(kept);
    QVERIFY(kept->has_value());
}

void StoreTest::aFailedTransactionLeavesNoTrace()
{
    const Message message = makeUserMessage(m_session.id);
    const auto result = m_store->transaction([&]() -> Result<void> {
        if (auto ok = m_store->updateMessage(message); !ok)
            return ok;
        return Error{u"changed my mind"_s};
    });
    QVERIFY(!result.ok());
    QCOMPARE(result.errorMessage(), u"changed my mind"_s);
    const auto read = m_store->message(message.id());
    REQUIRE(read);
    QVERIFY(!read->has_value());
    // The connection is still usable afterwards.
    REQUIRE(m_store->updateMessage(message));
}

void StoreTest::aWriterThreadAndAReaderThreadWorkAtOnce()
{
    const QString path = m_db->path();
    const QString sessionID = m_session.id;
    constexpr int Messages = 300;
    QString writerError, readerError;
    std::atomic<bool> writing{true};
    int pagesRead = 0;

    std::unique_ptr<QThread> writer(QThread::create([&] {
        auto store = Store::open(path);
        if (!store) {
            writerError = store.error().message;
            writing = false;
            return;
        }
        for (int i = 0; i < Messages && writerError.isEmpty(); ++i) {
            const auto ok = (*store)->transaction([&]() -> Result<void> {
                const Message m = makeUserMessage(sessionID);
                if (auto r = (*store)->updateMessage(m); !r)
                    return r;
                for (int j = 0; j < 5; ++j) {
                    if (auto r = (*store)->updatePart(makeTextPart(sessionID, m.id(), u"part"_s)); !r)
                        return r;
                }
                return {};
            });
            if (!ok)
                writerError = ok.errorMessage();
        }
        writing = false;
    }));
    std::unique_ptr<QThread> reader(QThread::create([&] {
        auto store = Store::open(path);
        if (!store) {
            readerError = store.error().message;
            return;
        }
        while (writing && readerError.isEmpty()) {
            const auto page = (*store)->messagePage(sessionID);
            if (!page) {
                readerError = page.errorMessage();
                break;
            }
            // A reader sees whole transactions: every message with all five parts.
            for (const MessageWithParts &m : page->messages) {
                if (m.parts.size() != 5)
                    readerError = u"message %1 seen with %2 parts"_s.arg(m.info.id()).arg(m.parts.size());
            }
            ++pagesRead;
        }
    }));
    writer->start();
    reader->start();
    QVERIFY(writer->wait(120000));
    QVERIFY(reader->wait(120000));
    QVERIFY2(writerError.isEmpty(), qPrintable(writerError));
    QVERIFY2(readerError.isEmpty(), qPrintable(readerError));
    QVERIFY(pagesRead > 0);
    RawConnection raw(path);
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM message"_s).toInt(), Messages);
    QCOMPARE(raw.scalar(u"SELECT count(*) FROM part"_s).toInt(), Messages * 5);
}

QTEST_GUILESS_MAIN(StoreTest)
#include "tst_store.moc"
