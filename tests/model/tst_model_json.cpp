#include <QJsonDocument>
#include <QTest>

#include "model/Message.h"
#include "model/Part.h"
#include "model/Session.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QJsonObject parse(const char *text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(text), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

QByteArray pretty(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Indented); }

#define IDS R"("id":"prt_01a2b3c4d5e6ABCDEFGHIJKLMN","sessionID":"ses_fe5d4c3b2a19abcdefghijklmn","messageID":"msg_01a2b3c4d5e6ABCDEFGHIJKLMN")"

} // namespace

class ModelJsonTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyPartTypeRoundTripsWithUnknownFields_data();
    void everyPartTypeRoundTripsWithUnknownFields();
    void partTypesParseToTheirValueType();
    void bothMessageRolesRoundTripWithUnknownFields_data();
    void bothMessageRolesRoundTripWithUnknownFields();
    void assistantFieldsAreTyped();
    void sessionRoundTripsWithUnknownFields();
    void partWithoutIdOrTypeIsRefused();
    void messageWithUnknownRoleIsRefused();
    void toolStateMachineAllowsOnlyForwardMoves();
    void abortingAPendingToolMakesAnError();
    void withPartsRefusesAPartOfAnotherMessage();
};

void ModelJsonTest::everyPartTypeRoundTripsWithUnknownFields_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("type");
    // Every case carries a field qcode does not know at the top and, where
    // there is a nested object, inside it too.
    QTest::newRow("text") << QByteArray("{" IDS R"(,"type":"text","text":"Hello","synthetic":true,"ignored":false,
        "time":{"start":1,"end":2,"future":"x"},"metadata":{"anthropic":{"signature":"s"}},"newField":[1,2]})") << u"text"_s;
    QTest::newRow("text-minimal") << QByteArray("{" IDS R"(,"type":"text","text":""})") << u"text"_s;
    QTest::newRow("reasoning") << QByteArray("{" IDS R"(,"type":"reasoning","text":"Thinking","time":{"start":5},
        "metadata":{"openai":{"itemId":"rs_1"}},"extra":{"a":1}})") << u"reasoning"_s;
    QTest::newRow("file") << QByteArray("{" IDS R"(,"type":"file","mime":"image/png","filename":"a.png",
        "url":"data:image/png;base64,AAAA","source":{"type":"file","path":"/a.png","text":{"value":"@a.png","start":0,"end":6}},"z":0})") << u"file"_s;
    QTest::newRow("tool-pending") << QByteArray("{" IDS R"(,"type":"tool","callID":"call_1","tool":"bash",
        "state":{"status":"pending","input":{},"raw":"{\"comm","later":true},"metadata":{"x":1}})") << u"tool"_s;
    QTest::newRow("tool-running") << QByteArray("{" IDS R"(,"type":"tool","callID":"call_1","tool":"bash",
        "state":{"status":"running","input":{"command":"ls"},"title":"ls","metadata":{"output":"a"},"time":{"start":10}}})") << u"tool"_s;
    QTest::newRow("tool-completed") << QByteArray("{" IDS R"(,"type":"tool","callID":"call_1","tool":"read",
        "state":{"status":"completed","input":{"filePath":"/a"},"output":"1: x","title":"a","metadata":{"lines":1},
        "time":{"start":10,"end":20,"compacted":30},"attachments":[{"id":"prt_01a2b3c4d5e7ABCDEFGHIJKLMN",
        "sessionID":"ses_fe5d4c3b2a19abcdefghijklmn","messageID":"msg_01a2b3c4d5e6ABCDEFGHIJKLMN","type":"file",
        "mime":"image/png","url":"data:image/png;base64,AA","odd":1}]}})") << u"tool"_s;
    QTest::newRow("tool-error") << QByteArray("{" IDS R"(,"type":"tool","callID":"call_2","tool":"edit",
        "state":{"status":"error","input":{"filePath":"/a"},"error":"Tool execution aborted","time":{"start":1,"end":1}}})") << u"tool"_s;
    QTest::newRow("step-start") << QByteArray("{" IDS R"(,"type":"step-start","snapshot":"abc123"})") << u"step-start"_s;
    QTest::newRow("step-finish") << QByteArray("{" IDS R"(,"type":"step-finish","reason":"tool-calls","snapshot":"def",
        "cost":0.0123,"tokens":{"total":30,"input":10,"output":20,"reasoning":3,"cache":{"read":4,"write":5,"new":6}}})") << u"step-finish"_s;
    QTest::newRow("snapshot") << QByteArray("{" IDS R"(,"type":"snapshot","snapshot":"tree"})") << u"snapshot"_s;
    QTest::newRow("patch") << QByteArray("{" IDS R"(,"type":"patch","hash":"h","files":["/a","/b"]})") << u"patch"_s;
    QTest::newRow("agent") << QByteArray("{" IDS R"(,"type":"agent","name":"explore","source":{"value":"@explore","start":0,"end":8}})") << u"agent"_s;
    QTest::newRow("subtask") << QByteArray("{" IDS R"(,"type":"subtask","prompt":"Find it","description":"Find the bug",
        "agent":"general","model":{"providerID":"openai","modelID":"gpt-5"},"command":"review"})") << u"subtask"_s;
    QTest::newRow("retry") << QByteArray("{" IDS R"(,"type":"retry","attempt":2,"error":{"name":"APIError","data":{"message":"Overloaded","isRetryable":true}},"time":{"created":99}})") << u"retry"_s;
    QTest::newRow("compaction") << QByteArray("{" IDS R"(,"type":"compaction","auto":true,"overflow":false})") << u"compaction"_s;
    QTest::newRow("future-type") << QByteArray("{" IDS R"(,"type":"hologram","beam":{"x":1},"level":3})") << u"hologram"_s;
}

void ModelJsonTest::everyPartTypeRoundTripsWithUnknownFields()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, type);
    const QJsonObject original = parse(json.constData());
    const auto part = Part::fromJson(original);
    QVERIFY2(part.ok(), qPrintable(part.errorMessage()));
    QCOMPARE(part->type(), type);
    const QJsonObject again = part->toJson();
    QCOMPARE(pretty(again), pretty(original));
    // And a second trip through the value type changes nothing either.
    QCOMPARE(pretty(Part::fromJson(again)->toJson()), pretty(original));
}

void ModelJsonTest::partTypesParseToTheirValueType()
{
    const auto tool = Part::fromJson(parse("{" IDS R"(,"type":"tool","callID":"c","tool":"read",
        "state":{"status":"completed","input":{"filePath":"/a"},"output":"out","title":"t","metadata":{},"time":{"start":1,"end":2}}})"));
    QVERIFY(tool.ok());
    const ToolPart *toolPart = tool->as<ToolPart>();
    QVERIFY(toolPart);
    const auto *completed = std::get_if<ToolCompleted>(&toolPart->state);
    QVERIFY(completed);
    QCOMPARE(completed->output, u"out"_s);
    QCOMPARE(completed->input.value("filePath"_L1).toString(), u"/a"_s);
    QCOMPARE(completed->end, 2);

    const auto finish = Part::fromJson(parse("{" IDS R"(,"type":"step-finish","reason":"stop","cost":1.5,
        "tokens":{"input":10,"output":20,"reasoning":3,"cache":{"read":4,"write":5}}})"));
    QVERIFY(finish.ok());
    const StepFinishPart *step = finish->as<StepFinishPart>();
    QVERIFY(step);
    QCOMPARE(step->cost, 1.5);
    QCOMPARE(step->tokens.cacheWrite, 5);
    QCOMPARE(step->tokens.total, std::nullopt);

    const auto compaction = Part::fromJson(parse("{" IDS R"(,"type":"compaction","auto":true})"));
    QVERIFY(compaction->as<CompactionPart>() && compaction->as<CompactionPart>()->automatic);
}

void ModelJsonTest::bothMessageRolesRoundTripWithUnknownFields_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("user") << QByteArray(R"({"id":"msg_01a2b3c4d5e6ABCDEFGHIJKLMN","sessionID":"ses_fe5d4c3b2a19abcdefghijklmn",
        "role":"user","time":{"created":1700000000000,"later":1},"agent":"build","model":{"providerID":"anthropic","modelID":"claude","v":2},
        "format":{"type":"json_schema","schema":{"type":"object"},"retryCount":2},"system":"Be brief","tools":{"bash":false},
        "variant":"high","summary":{"title":"T","diffs":[]},"unknownTop":"kept"})");
    QTest::newRow("user-minimal") << QByteArray(R"({"id":"msg_01a2b3c4d5e6ABCDEFGHIJKLMN","sessionID":"ses_fe5d4c3b2a19abcdefghijklmn",
        "role":"user","time":{"created":1},"agent":"build","model":{"providerID":"p","modelID":"m"}})");
    QTest::newRow("assistant") << QByteArray(R"({"id":"msg_01a2b3c4d5e7ABCDEFGHIJKLMN","sessionID":"ses_fe5d4c3b2a19abcdefghijklmn",
        "role":"assistant","time":{"created":1,"completed":2},"parentID":"msg_01a2b3c4d5e6ABCDEFGHIJKLMN","modelID":"gpt-5",
        "providerID":"openai","mode":"build","agent":"build","path":{"cwd":"/w","root":"/w","other":"o"},"summary":true,
        "cost":0.25,"tokens":{"input":1,"output":2,"reasoning":0,"cache":{"read":0,"write":0}},"structured":{"answer":42},
        "variant":"low","finish":"stop","error":{"name":"APIError","data":{"message":"boom","statusCode":500,"isRetryable":true}},
        "futureField":{"deep":{"deeper":true}}})");
}

void ModelJsonTest::bothMessageRolesRoundTripWithUnknownFields()
{
    QFETCH(QByteArray, json);
    const QJsonObject original = parse(json.constData());
    const auto message = Message::fromJson(original);
    QVERIFY2(message.ok(), qPrintable(message.errorMessage()));
    QCOMPARE(pretty(message->toJson()), pretty(original));
}

void ModelJsonTest::assistantFieldsAreTyped()
{
    const auto message = Message::fromJson(parse(R"({"id":"msg_01a2b3c4d5e7ABCDEFGHIJKLMN","sessionID":"ses_x","role":"assistant",
        "time":{"created":1},"parentID":"msg_p","summary":true,"finish":"stop","tokens":{"input":7,"output":8,"reasoning":0,"cache":{"read":1,"write":2}},
        "error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}})"));
    QVERIFY(message.ok());
    QVERIFY(message->isAssistant());
    const AssistantMessage *a = message->assistant();
    QVERIFY(a->isSummary());
    QCOMPARE(a->finish, u"stop"_s);
    QCOMPARE(a->tokens.input, 7);
    QCOMPARE(a->tokens.cacheRead, 1);
    QCOMPARE(a->error->name, u"MessageAbortedError"_s);
    QCOMPARE(a->error->message(), u"Aborted"_s);
    QCOMPARE(message->id(), u"msg_01a2b3c4d5e7ABCDEFGHIJKLMN"_s);
    QCOMPARE(message->created(), 1);
}

void ModelJsonTest::sessionRoundTripsWithUnknownFields()
{
    const QJsonObject original = parse(R"({"id":"ses_fe5d4c3b2a19abcdefghijklmn","slug":"calm-river","projectID":"global",
        "workspaceID":"wrk_1","directory":"/w","parentID":"ses_ff","title":"New session - 2026-01-01T00:00:00.000Z","version":"1.2.27",
        "time":{"created":1,"updated":2,"compacting":3,"archived":4,"later":5},"summary":{"additions":1,"deletions":2,"files":3,"diffs":[{"file":"a"}]},
        "share":{"url":"https://x","secret":"s"},"permission":[{"permission":"bash","pattern":"*","action":"ask"}],
        "revert":{"messageID":"msg_1","snapshot":"abc"},"mystery":"kept"})");
    const auto session = Session::fromJson(original);
    QVERIFY2(session.ok(), qPrintable(session.errorMessage()));
    QCOMPARE(pretty(session->toJson()), pretty(original));
    QVERIFY(session->isChild());
    QCOMPARE(session->summary->files, 3);
}

void ModelJsonTest::partWithoutIdOrTypeIsRefused()
{
    const auto noId = Part::fromJson(parse(R"({"type":"text","text":"x"})"));
    QVERIFY(!noId.ok());
    QVERIFY2(noId.errorMessage().contains("prt_"_L1), qPrintable(noId.errorMessage()));
    const auto noType = Part::fromJson(parse(R"({"id":"prt_1","text":"x"})"));
    QVERIFY(!noType.ok());
    QVERIFY2(noType.errorMessage().contains("type"_L1), qPrintable(noType.errorMessage()));
}

void ModelJsonTest::messageWithUnknownRoleIsRefused()
{
    const auto message = Message::fromJson(parse(R"({"id":"msg_1","sessionID":"ses_1","role":"system"})"));
    QVERIFY(!message.ok());
    QVERIFY2(message.errorMessage().contains("system"_L1), qPrintable(message.errorMessage()));
    QVERIFY(!Message::fromJson(parse(R"({"id":"msg_1","role":"user"})")).ok());
}

void ModelJsonTest::toolStateMachineAllowsOnlyForwardMoves()
{
    ToolPart tool{u"call_1"_s, u"bash"_s, ToolPending{{}, u"{\"co"_s}, {}, {}};
    QVERIFY(!tool.complete(u"out"_s, u"t"_s, {}, 5).ok()); // pending cannot complete
    QVERIFY(tool.start(QJsonObject{{"command"_L1, "ls"_L1}}, 10).ok());
    QVERIFY(!tool.start({}, 11).ok()); // running cannot start again
    QVERIFY(tool.updateRunning(u"ls"_s, QJsonObject{{"output"_L1, "a"_L1}}).ok());
    QVERIFY(tool.complete(u"a\nb"_s, u"ls"_s, QJsonObject{{"exit"_L1, 0}}, 20).ok());
    const auto *done = std::get_if<ToolCompleted>(&tool.state);
    QVERIFY(done);
    QCOMPARE(done->start, 10);
    QCOMPARE(done->end, 20);
    QCOMPARE(done->input.value("command"_L1).toString(), u"ls"_s);
    QVERIFY(!tool.fail(u"late"_s, 30).ok()); // completed is terminal
    QVERIFY(!tool.updateRunning(u"x"_s, {}).ok());
    QCOMPARE(toolStatusName(tool.state), u"completed"_s);
}

void ModelJsonTest::abortingAPendingToolMakesAnError()
{
    ToolPart tool{u"call_1"_s, u"bash"_s, ToolPending{}, {}, {}};
    QVERIFY(tool.fail(u"Tool execution aborted"_s, 7).ok());
    const auto *error = std::get_if<ToolError>(&tool.state);
    QVERIFY(error);
    QCOMPARE(error->error, u"Tool execution aborted"_s);
    QCOMPARE(error->start, 7);
    QCOMPARE(error->end, 7);
    QVERIFY(tool.isFinished());
}

void ModelJsonTest::withPartsRefusesAPartOfAnotherMessage()
{
    const auto parsed = MessageWithParts::fromJson(parse(R"({"info":{"id":"msg_a","sessionID":"ses_1","role":"user",
        "time":{"created":1},"agent":"build","model":{"providerID":"p","modelID":"m"}},
        "parts":[{"id":"prt_1","sessionID":"ses_1","messageID":"msg_b","type":"text","text":"x"}]})"));
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.errorMessage().contains("msg_b"_L1), qPrintable(parsed.errorMessage()));
}

QTEST_GUILESS_MAIN(ModelJsonTest)
#include "tst_model_json.moc"
