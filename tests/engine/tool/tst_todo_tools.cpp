#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "TempDatabase.h"
#include "ToolTestSupport.h"
#include "engine/session/SessionEvents.h"
#include "engine/tool/TodoFormat.h"
#include "engine/tool/TodoReadTool.h"
#include "engine/tool/TodoWriteTool.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

class EventLog : public SessionEventSink
{
public:
    void publish(const SessionEvent &event) override { events.append(event); }
    QList<SessionEvent> events;
};

QJsonObject todo(const QString &content, const QString &status, const QString &priority)
{
    return QJsonObject{{"content"_L1, content}, {"status"_L1, status}, {"priority"_L1, priority}};
}

} // namespace

class TodoToolsTest : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<test::TempDatabase> m_database;
    std::unique_ptr<Store> m_store;
    EventLog m_events;
    test::RecordingAsker m_asker;
    AbortSignal m_abort;
    QString m_sessionID;

    ToolServices services() { return ToolServices{m_store.get(), &m_events, QString(), nullptr, nullptr, nullptr, {}, {}}; }

    ToolContext context()
    {
        ToolContext toolContext = test::toolContext(u"/project"_s, &m_asker, &m_abort);
        toolContext.sessionID = m_sessionID;
        return toolContext;
    }

private Q_SLOTS:
    void init()
    {
        m_database = std::make_unique<test::TempDatabase>();
        m_store = m_database->open();
        QVERIFY(m_store);
        QVERIFY(m_store->upsertProject(test::makeProject()).ok());
        const Session session = test::makeSession();
        QVERIFY(m_store->upsertSession(session).ok());
        m_sessionID = session.id;
        m_events.events.clear();
        m_asker.requests.clear();
        m_asker.answers.clear();
    }

    void writesTheListStoresItAndPublishesIt()
    {
        TodoWriteTool tool(services());
        const QJsonArray todos{todo(u"Plan"_s, u"completed"_s, u"high"_s), todo(u"Build"_s, u"in_progress"_s, u"high"_s),
                               todo(u"Ship \"it\""_s, u"pending"_s, u"low"_s)};
        const ToolResult result = test::runTool(tool, QJsonObject{{"todos"_L1, todos}}, context());
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->title, u"2 todos"_s);
        QCOMPARE(output->output, u"[\n"
                                 "  {\n    \"content\": \"Plan\",\n    \"status\": \"completed\",\n    \"priority\": \"high\"\n  },\n"
                                 "  {\n    \"content\": \"Build\",\n    \"status\": \"in_progress\",\n    \"priority\": \"high\"\n  },\n"
                                 "  {\n    \"content\": \"Ship \\\"it\\\"\",\n    \"status\": \"pending\",\n    \"priority\": \"low\"\n  }\n"
                                 "]"_s);
        // The output is JSON the model can parse back.
        QCOMPARE(QJsonDocument::fromJson(output->output.toUtf8()).array(), todos);
        QCOMPARE(output->metadata.value("todos"_L1).toArray(), todos);

        const QList<Todo> expected{Todo{u"Plan"_s, u"completed"_s, u"high"_s}, Todo{u"Build"_s, u"in_progress"_s, u"high"_s},
                                   Todo{u"Ship \"it\""_s, u"pending"_s, u"low"_s}};
        const Result<QList<Todo>> stored = m_store->todos(m_sessionID);
        QVERIFY(stored.ok());
        QCOMPARE(*stored, expected);
        QCOMPARE(m_events.events.size(), 1);
        const auto *updated = std::get_if<TodoUpdated>(&m_events.events.first());
        QVERIFY(updated);
        QCOMPARE(updated->sessionID, m_sessionID);
        QCOMPARE(updated->todos, expected);

        QCOMPARE(m_asker.permissions(), QStringList{u"todowrite"_s});
        QCOMPARE(m_asker.requests.first().patterns, QStringList{u"*"_s});
        QCOMPARE(m_asker.requests.first().always, QStringList{u"*"_s});
    }

    void aNewListReplacesTheOldOne()
    {
        TodoWriteTool tool(services());
        QVERIFY(test::outputOf(test::runTool(
            tool, QJsonObject{{"todos"_L1, QJsonArray{todo(u"a"_s, u"pending"_s, u"low"_s)}}}, context())));
        const ToolResult emptied = test::runTool(tool, QJsonObject{{"todos"_L1, QJsonArray()}}, context());
        QCOMPARE(test::outputOf(emptied)->output, u"[]"_s);
        QCOMPARE(test::outputOf(emptied)->title, u"0 todos"_s);
        QVERIFY(m_store->todos(m_sessionID)->isEmpty());
    }

    void todoreadAnswersWithTheStoredList()
    {
        QVERIFY(m_store->setTodos(m_sessionID, {Todo{u"x"_s, u"pending"_s, u"medium"_s}}).ok());
        TodoReadTool tool(services());
        const ToolResult result = test::runTool(tool, QJsonObject(), context());
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->title, u"1 todos"_s);
        QCOMPARE(output->output, TodoFormat::json({Todo{u"x"_s, u"pending"_s, u"medium"_s}}));
        QCOMPARE(m_asker.permissions(), QStringList{u"todoread"_s});
        QVERIFY(m_events.events.isEmpty());
    }

    void malformedTodosAreRefusedAndNothingChanges()
    {
        QVERIFY(m_store->setTodos(m_sessionID, {Todo{u"keep"_s, u"pending"_s, u"high"_s}}).ok());
        TodoWriteTool tool(services());
        const std::optional<ToolFailure> notArray = test::failureOf(test::runTool(tool, QJsonObject{{"todos"_L1, u"x"_s}}, context()));
        QVERIFY(notArray);
        QCOMPARE(notArray->message, u"todos must be an array"_s);
        const QJsonArray missingStatus{QJsonObject{{"content"_L1, u"a"_s}, {"priority"_L1, u"low"_s}}};
        const std::optional<ToolFailure> bad = test::failureOf(test::runTool(tool, QJsonObject{{"todos"_L1, missingStatus}}, context()));
        QVERIFY(bad);
        QCOMPARE(bad->message, u"todos[0] must be an object with string content, status and priority"_s);
        QVERIFY(test::failureOf(test::runTool(tool, QJsonObject{{"todos"_L1, QJsonArray{3}}}, context())));
        QCOMPARE(m_store->todos(m_sessionID)->size(), 1);
        QVERIFY(m_events.events.isEmpty());
        QVERIFY(m_asker.requests.isEmpty());
    }

    void aRefusalWritesNothing()
    {
        m_asker.answers.insert(u"todowrite"_s, PermissionAnswer{PermissionReply::Reject, {}});
        TodoWriteTool tool(services());
        const std::optional<ToolFailure> failure = test::failureOf(test::runTool(
            tool, QJsonObject{{"todos"_L1, QJsonArray{todo(u"a"_s, u"pending"_s, u"low"_s)}}}, context()));
        QVERIFY(failure);
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejected);
        QVERIFY(m_store->todos(m_sessionID)->isEmpty());
        QVERIFY(m_events.events.isEmpty());
    }

    void withoutAStoreTheToolsSaySo()
    {
        TodoWriteTool writer(ToolServices{});
        QVERIFY(test::failureOf(test::runTool(writer, QJsonObject{{"todos"_L1, QJsonArray()}}, context())));
        TodoReadTool reader(ToolServices{});
        QVERIFY(test::failureOf(test::runTool(reader, QJsonObject(), context())));
    }
};

QTEST_GUILESS_MAIN(TodoToolsTest)
#include "tst_todo_tools.moc"
