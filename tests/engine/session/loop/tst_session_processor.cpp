// SessionProcessor against FakeProviderServer: every stream event becomes
// parts as reference §3.1 says, tools run through the ToolRunner, doom
// loops ask, rejections stop or feed back, retries wait and give up with a
// clear error, overflow asks for compaction, and an abort at any point
// leaves a finished message and no tool still "running". Each test waits on
// the condition it checks, never a fixed time.

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

#include <QCoro/QCoroTask>

#include <memory>

#include "FakeProviderServer.h"
#include "RecordingEventSink.h"
#include "ScriptedPermissionAsker.h"
#include "ScriptedToolRunner.h"
#include "TempDatabase.h"
#include "engine/network/ProviderClient.h"
#include "engine/session/loop/SessionProcessor.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace qcode;
using namespace qcode::test;
using Outcome = SessionProcessor::Outcome;

namespace {

const QDateTime PinnedNow = QDateTime(QDate(2026, 12, 2), QTime(11, 0), Qt::UTC);

const QByteArray OverloadedBody = R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})";
const QByteArray RateLimitBody =
    R"({"type":"error","error":{"type":"rate_limit_error","message":"Number of requests exceeded"}})";
const QByteArray TooLongBody =
    R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 250000 tokens > 200000 maximum"}})";

ModelInfo testModel()
{
    ModelInfo model;
    model.id = u"fake-model"_s;
    model.apiId = model.id;
    model.providerID = u"anthropic"_s;
    model.limits = ModelInfo::Limits{200000, 0, 8192};
    model.cost.base = ModelPrices{3, 15, 0.3, 3.75};
    return model;
}

HttpStreamLimits quickLimits()
{
    HttpStreamLimits limits;
    limits.connectTimeout = 10s;
    limits.idleTimeout = 10s;
    return limits;
}

std::optional<ToolPart> storedTool(Store &store, const QString &messageID, const QString &callID)
{
    const auto parts = store.parts(messageID);
    if (!parts)
        return std::nullopt;
    for (const Part &part : *parts) {
        if (const auto *tool = part.as<ToolPart>(); tool && tool->callID == callID)
            return *tool;
    }
    return std::nullopt;
}

QStringList storedTypes(Store &store, const QString &messageID)
{
    QStringList types;
    if (const auto parts = store.parts(messageID))
        for (const Part &part : *parts)
            types.append(part.type());
    return types;
}

QString storedText(Store &store, const QString &messageID)
{
    if (const auto parts = store.parts(messageID))
        for (const Part &part : *parts)
            if (const auto *text = part.as<TextPart>())
                return text->text;
    return u"<no text part>"_s;
}

// The statuses a tool part went through, as published.
QStringList toolStatuses(const RecordingEventSink &sink, const QString &callID)
{
    QStringList statuses;
    for (const PartUpdated &updated : sink.all<PartUpdated>()) {
        if (const auto *tool = updated.part.as<ToolPart>(); tool && tool->callID == callID)
            statuses.append(toolStatusName(tool->state));
    }
    return statuses;
}

QList<SessionStatus> statuses(const RecordingEventSink &sink)
{
    QList<SessionStatus> list;
    for (const SessionStatusChanged &changed : sink.all<SessionStatusChanged>())
        list.append(changed.status);
    return list;
}

QString outcomeName(Outcome outcome)
{
    return QString::fromLatin1(QMetaEnum::fromType<Outcome>().valueToKey(int(outcome)));
}

} // namespace

class SessionProcessorTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void streamedTextIsPublishedAsDeltasAndStoredTrimmedAtItsEnd();
    void reasoningBecomesItsOwnPart();
    void stepsRecordTokensAndCostOnTheMessage();
    void aToolCallRunsAndCompletes();
    void aToolErrorIsStoredAndTheLoopGoesOn();
    void aCallWithBrokenArgumentsNeverRuns();
    void thirdIdenticalCallAsksAboutADoomLoop();
    void rejectingTheDoomLoopStops();
    void rejectingAToolStops();
    void rejectingWithAMessageFeedsItBackAndContinues();
    void everyUpdateIsPublishedAfterItsWrite();
    void rateLimitWithRetryAfterWaitsThenSucceeds();
    void aCutStreamIsRetriedOnTheSameMessageReplacingWhatItSaid();
    void retriesStopAtTheCapWithAClearError();
    void aPermanentErrorEndsTheMessageWithIt();
    void usageOverTheContextLimitAsksForCompaction();
    void contextOverflowErrorAsksForCompaction();
    void abortMidStreamEndsTheMessageAndMarksUnfinishedTools();
    void abortWhileAToolRunsMarksItAborted();
    void abortDuringARetryWaitEndsAtOnce();
    void abortDuringAPermissionQuestionMarksTheCallAborted();

private:
    SessionProcessor::Setup setup();
    SessionProcessor::CallFactory factory();
    // Runs process() to its end; false (with a test failure) on a timeout.
    bool run(SessionProcessor &processor, Outcome *outcome, int timeoutMs = 15000);
    std::unique_ptr<SessionProcessor> makeProcessor(const SessionProcessor::Setup &setup)
    {
        return std::make_unique<SessionProcessor>(setup, m_assistant, QPointer<AbortSignal>(m_abort.get()));
    }
    AssistantMessage storedMessage()
    {
        const auto message = m_store->message(m_assistant.id);
        return message && *message ? *(*message)->info.assistant() : AssistantMessage{};
    }

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<RecordingEventSink> m_sink;
    std::unique_ptr<ScriptedToolRunner> m_tools;
    std::unique_ptr<ScriptedPermissionAsker> m_permissions;
    std::unique_ptr<FakeProviderServer> m_server;
    std::unique_ptr<AbortSignal> m_abort;
    QNetworkAccessManager m_manager;
    AssistantMessage m_assistant;
};

void SessionProcessorTest::init()
{
    m_db = std::make_unique<TempDatabase>();
    m_store = m_db->open();
    QVERIFY(m_store);
    QVERIFY(m_store->upsertProject(makeProject()));
    const Session session = makeSession();
    QVERIFY(m_store->upsertSession(session));
    const Message user = makeUserMessage(session.id);
    QVERIFY(m_store->updateMessage(user));
    m_assistant = *makeAssistantMessage(session.id, user.id()).assistant();
    QVERIFY(m_store->updateMessage(m_assistant));

    m_sink = std::make_unique<RecordingEventSink>();
    m_tools = std::make_unique<ScriptedToolRunner>();
    m_permissions = std::make_unique<ScriptedPermissionAsker>();
    m_server = std::make_unique<FakeProviderServer>();
    QVERIFY(m_server->isListening());
    m_abort = std::make_unique<AbortSignal>();
}

void SessionProcessorTest::cleanup()
{
    m_abort.reset();
    m_server.reset();
    m_permissions.reset();
    m_tools.reset();
    m_sink.reset();
    m_store.reset();
    m_db.reset();
}

SessionProcessor::Setup SessionProcessorTest::setup()
{
    SessionProcessor::Setup s;
    s.store = m_store.get();
    s.sink = m_sink.get();
    s.tools = m_tools.get();
    s.permissions = m_permissions.get();
    s.model = testModel();
    s.npm = u"@ai-sdk/anthropic"_s;
    s.flushInterval = 20ms;
    s.clock = [] { return PinnedNow; };
    return s;
}

SessionProcessor::CallFactory SessionProcessorTest::factory()
{
    const HttpRequestSpec request{m_server->endpoint(WireProtocol::AnthropicMessages),
                                  {{"x-api-key", "test-key"}, {"content-type", "application/json"}},
                                  R"({"model":"fake-model","stream":true,"messages":[{"role":"user","content":"hi"}]})"};
    QNetworkAccessManager *manager = &m_manager;
    return [manager, request](QObject *owner) -> Result<ProviderCall *> {
        return ProviderClient(manager, quickLimits()).stream(WireProtocol::AnthropicMessages, request, owner);
    };
}

bool SessionProcessorTest::run(SessionProcessor &processor, Outcome *outcome, int timeoutMs)
{
    // Shared, so a late answer after a timeout writes nowhere dangerous.
    auto result = std::make_shared<std::optional<Outcome>>();
    QCoro::connect(processor.process(factory()), this, [result](Outcome o) { *result = o; });
    if (!QTest::qWaitFor([result] { return result->has_value(); }, timeoutMs)) {
        QTest::qFail("process() did not finish", __FILE__, __LINE__);
        return false;
    }
    *outcome = **result;
    return true;
}

void SessionProcessorTest::streamedTextIsPublishedAsDeltasAndStoredTrimmedAtItsEnd()
{
    m_server->enqueue(FakeTurn().text({u"Hel"_s, u"lo "_s, u"world \n"_s}).usage(10, 5));
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);

    const auto text = m_sink->lastPartOf<TextPart>();
    QVERIFY(text);
    QCOMPARE(m_sink->deltaText(text->id), u"Hello world \n"_s);
    QCOMPARE(text->as<TextPart>()->text, u"Hello world"_s);
    QVERIFY(text->as<TextPart>()->time->end.has_value());
    QCOMPARE(storedText(*m_store, m_assistant.id), u"Hello world"_s);
    QCOMPARE(storedTypes(*m_store, m_assistant.id), (QStringList{u"step-start"_s, u"text"_s, u"step-finish"_s}));

    // busy on start; the empty text part before its first delta.
    QCOMPARE(statuses(*m_sink).first(), SessionStatus::busy());
    const QStringList types = m_sink->types();
    QVERIFY(types.indexOf(u"message.part.delta"_s) > types.indexOf(u"message.part.updated"_s));
    QCOMPARE(m_sink->all<PartUpdated>().at(1).part.as<TextPart>()->text, QString());

    const AssistantMessage stored = storedMessage();
    QCOMPARE(stored.finish, std::optional<QString>(u"stop"_s));
    QVERIFY(stored.completed.has_value());
    QCOMPARE(*stored.completed, PinnedNow.toMSecsSinceEpoch());
    QVERIFY(!stored.error);
    QCOMPARE(m_sink->all<MessageUpdated>().last().info, Message(stored));
}

void SessionProcessorTest::reasoningBecomesItsOwnPart()
{
    m_server->enqueue(FakeTurn().reasoning({u"Let me "_s, u"think  "_s}).text({u"Done."_s}).usage(10, 5, 3));
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);
    const auto reasoning = m_sink->lastPartOf<ReasoningPart>();
    QVERIFY(reasoning);
    QCOMPARE(reasoning->as<ReasoningPart>()->text, u"Let me think"_s);
    QCOMPARE(m_sink->deltaText(reasoning->id), u"Let me think  "_s);
    QVERIFY(reasoning->as<ReasoningPart>()->time.end.has_value());
    QCOMPARE(storedTypes(*m_store, m_assistant.id),
             (QStringList{u"step-start"_s, u"reasoning"_s, u"text"_s, u"step-finish"_s}));
}

void SessionProcessorTest::stepsRecordTokensAndCostOnTheMessage()
{
    m_server->enqueue(FakeTurn().text({u"ok"_s}).usage(1000, 200));
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));

    const auto finish = m_sink->lastPartOf<StepFinishPart>();
    QVERIFY(finish);
    const StepFinishPart *step = finish->as<StepFinishPart>();
    QCOMPARE(step->reason, u"stop"_s);
    QCOMPARE(step->tokens.input, 1000);
    QCOMPARE(step->tokens.output, 200);
    // (1000 × 3 + 200 × 15) / 1e6 dollars.
    QCOMPARE(step->cost, 0.006);
    const AssistantMessage stored = storedMessage();
    QCOMPARE(stored.cost, 0.006);
    QCOMPARE(stored.tokens, step->tokens);
}

void SessionProcessorTest::aToolCallRunsAndCompletes()
{
    const QJsonObject input{{"filePath"_L1, "/work/a.cpp"_L1}};
    m_server->enqueue(FakeTurn().toolCall(u"read"_s, input, u"call_1"_s).usage(10, 5));
    m_tools->script(u"read"_s, ToolOutput{u"int main() {}"_s, u"a.cpp"_s, QJsonObject{{"lines"_L1, 1}}, {}});
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);

    QCOMPARE(m_tools->calls().size(), 1);
    QCOMPARE(m_tools->calls().first().tool, u"read"_s);
    QCOMPARE(m_tools->calls().first().callID, u"call_1"_s);
    QCOMPARE(m_tools->calls().first().input, input);
    QCOMPARE(m_tools->contexts().first().sessionID, m_assistant.sessionID);
    QCOMPARE(m_tools->contexts().first().messageID, m_assistant.id);
    QCOMPARE(m_tools->contexts().first().agent, m_assistant.agent);

    QCOMPARE(toolStatuses(*m_sink, u"call_1"_s), (QStringList{u"pending"_s, u"running"_s, u"completed"_s}));
    const auto tool = storedTool(*m_store, m_assistant.id, u"call_1"_s);
    QVERIFY(tool);
    const auto *completed = std::get_if<ToolCompleted>(&tool->state);
    QVERIFY(completed);
    QCOMPARE(completed->output, u"int main() {}"_s);
    QCOMPARE(completed->title, u"a.cpp"_s);
    QCOMPARE(completed->input, input);
    QCOMPARE(storedMessage().finish, std::optional<QString>(u"tool-calls"_s));
}

void SessionProcessorTest::aToolErrorIsStoredAndTheLoopGoesOn()
{
    m_server->enqueue(FakeTurn().toolCall(u"bash"_s, QJsonObject{{"command"_L1, "false"_L1}}, u"call_1"_s));
    m_tools->script(u"bash"_s, ToolFailure{u"exit code 1"_s, ToolFailure::Kind::Failed});
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);
    const auto tool = storedTool(*m_store, m_assistant.id, u"call_1"_s);
    QVERIFY(tool);
    QVERIFY(std::holds_alternative<ToolError>(tool->state));
    QCOMPARE(std::get<ToolError>(tool->state).error, u"exit code 1"_s);
    QVERIFY(!storedMessage().error);
}

void SessionProcessorTest::aCallWithBrokenArgumentsNeverRuns()
{
    // Cut by the output limit: the arguments' JSON never closes, so the
    // decoder hands over no parsed input.
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    m_server->enqueue(FakeTurn::raw(200, "text/event-stream",
                                    "event: message_start\n"
                                    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\","
                                    "\"role\":\"assistant\",\"model\":\"fake-model\",\"content\":[],"
                                    "\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n"
                                    "event: content_block_start\n"
                                    "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                                    "{\"type\":\"tool_use\",\"id\":\"call_2\",\"name\":\"write\",\"input\":{}}}\n\n"
                                    "event: content_block_delta\n"
                                    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                                    "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"filePath\\\": \\\"/wo\"}}\n\n"
                                    "event: content_block_stop\n"
                                    "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
                                    "event: message_delta\n"
                                    "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},"
                                    "\"usage\":{\"output_tokens\":5}}\n\n"
                                    "event: message_stop\n"
                                    "data: {\"type\":\"message_stop\"}\n\n"));
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);
    QCOMPARE(m_tools->calls().size(), 0);
    const auto tool = storedTool(*m_store, m_assistant.id, u"call_2"_s);
    QVERIFY(tool);
    QVERIFY(std::holds_alternative<ToolError>(tool->state));
    QVERIFY2(std::get<ToolError>(tool->state).error.contains(u"invalid"_s),
             qPrintable(std::get<ToolError>(tool->state).error));
}

void SessionProcessorTest::thirdIdenticalCallAsksAboutADoomLoop()
{
    const QJsonObject input{{"filePath"_L1, "/work/a.cpp"_L1}};
    m_server->enqueue(FakeTurn()
                          .toolCall(u"read"_s, input, u"call_1"_s)
                          .toolCall(u"read"_s, input, u"call_2"_s)
                          .toolCall(u"read"_s, input, u"call_3"_s));
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);

    QCOMPARE(m_permissions->requests().size(), 1);
    const PermissionRequest &request = m_permissions->requests().first();
    QCOMPARE(request.permission, u"doom_loop"_s);
    QCOMPARE(request.patterns, QStringList{u"read"_s});
    QCOMPARE(request.always, QStringList{u"read"_s});
    QCOMPARE(request.sessionID, m_assistant.sessionID);
    QCOMPARE(request.metadata, (QJsonObject{{"tool"_L1, "read"_L1}, {"input"_L1, input}}));
    QVERIFY(request.tool);
    QCOMPARE(request.tool->callID, u"call_3"_s);
    // Allowed once: the third call runs too.
    QCOMPARE(m_tools->calls().size(), 3);
}

void SessionProcessorTest::rejectingTheDoomLoopStops()
{
    const QJsonObject input{{"command"_L1, "make"_L1}};
    m_server->enqueue(FakeTurn()
                          .toolCall(u"bash"_s, input, u"call_1"_s)
                          .toolCall(u"bash"_s, input, u"call_2"_s)
                          .toolCall(u"bash"_s, input, u"call_3"_s));
    m_permissions->answerWith(PermissionAnswer{PermissionReply::Reject, {}});
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Stop"_s);

    QCOMPARE(m_tools->calls().size(), 2);
    const auto third = storedTool(*m_store, m_assistant.id, u"call_3"_s);
    QVERIFY(third);
    QCOMPARE(std::get<ToolError>(third->state).error,
             u"The user rejected permission to use this specific tool call."_s);
    // Stopped by the person, not by a failure.
    QVERIFY(!storedMessage().error);
}

void SessionProcessorTest::rejectingAToolStops()
{
    m_server->enqueue(FakeTurn()
                          .toolCall(u"bash"_s, QJsonObject{{"command"_L1, "rm -rf build"_L1}}, u"call_1"_s)
                          .toolCall(u"read"_s, QJsonObject{{"filePath"_L1, "/work/a"_L1}}, u"call_2"_s));
    m_tools->script(u"bash"_s, ToolFailure{u"The user rejected permission to use this specific tool call."_s,
                                           ToolFailure::Kind::PermissionRejected});
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Stop"_s);
    // Nothing runs after the rejection; the later call is marked aborted.
    QCOMPARE(m_tools->calls().size(), 1);
    const auto later = storedTool(*m_store, m_assistant.id, u"call_2"_s);
    QVERIFY(later);
    QCOMPARE(std::get<ToolError>(later->state).error, u"Tool execution aborted"_s);
}

void SessionProcessorTest::rejectingWithAMessageFeedsItBackAndContinues()
{
    const QString feedback =
        u"The user rejected permission to use this specific tool call with the following feedback: use grep"_s;
    m_server->enqueue(FakeTurn().toolCall(u"bash"_s, QJsonObject{{"command"_L1, "find ."_L1}}, u"call_1"_s));
    m_tools->script(u"bash"_s, ToolFailure{feedback, ToolFailure::Kind::PermissionRejectedWithMessage});
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);
    QCOMPARE(std::get<ToolError>(storedTool(*m_store, m_assistant.id, u"call_1"_s)->state).error, feedback);

    // The same through the doom-loop question: the call does not run, the
    // model reads why, the loop goes on.
    const QJsonObject input{{"pattern"_L1, "*.cpp"_L1}};
    m_server->enqueue(FakeTurn()
                          .toolCall(u"glob"_s, input, u"call_2"_s)
                          .toolCall(u"glob"_s, input, u"call_3"_s)
                          .toolCall(u"glob"_s, input, u"call_4"_s));
    m_permissions->answerWith(PermissionAnswer{PermissionReply::RejectWithMessage, u"stop globbing"_s});
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);
    QCOMPARE(m_tools->calls().size(), 3);
    QCOMPARE(std::get<ToolError>(storedTool(*m_store, m_assistant.id, u"call_4"_s)->state).error,
             u"The user rejected permission to use this specific tool call with the following feedback: stop globbing"_s);
}

void SessionProcessorTest::everyUpdateIsPublishedAfterItsWrite()
{
    // Reference §1.5: a listener that reads the database on an update finds
    // what the update says.
    QStringList mismatches;
    Store *store = m_store.get();
    m_sink->setObserver([store, &mismatches](const SessionEvent &event) {
        if (const auto *updated = std::get_if<PartUpdated>(&event)) {
            const auto parts = store->parts(updated->part.messageID);
            const bool found = parts && std::any_of(parts->cbegin(), parts->cend(),
                                                    [&](const Part &p) { return p == updated->part; });
            if (!found)
                mismatches.append(u"part %1 (%2)"_s.arg(updated->part.id, updated->part.type()));
        } else if (const auto *message = std::get_if<MessageUpdated>(&event)) {
            const auto stored = store->message(message->info.id());
            if (!stored || !*stored || (*stored)->info != message->info)
                mismatches.append(u"message %1"_s.arg(message->info.id()));
        }
    });
    m_server->enqueue(FakeTurn()
                          .reasoning({u"Plan"_s})
                          .text({u"Reading "_s, u"it"_s})
                          .toolCall(u"read"_s, QJsonObject{{"filePath"_L1, "/a"_L1}}, u"call_1"_s)
                          .usage(10, 5));
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);
    QVERIFY(m_sink->all<PartUpdated>().size() >= 7);
    QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.join(u", "_s)));
    m_sink->setObserver({});
}

void SessionProcessorTest::rateLimitWithRetryAfterWaitsThenSucceeds()
{
    m_server->enqueue(FakeTurn::httpError(429, RateLimitBody, {{"retry-after-ms", "40"}}));
    m_server->enqueue(FakeTurn().text({u"Finally"_s}).usage(10, 5));
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);
    QCOMPARE(m_server->requests().size(), 2);
    QCOMPARE(processor->attempt(), 1);

    const QList<SessionStatus> seen = statuses(*m_sink);
    QCOMPARE(seen.size(), 2);
    QCOMPARE(seen.at(0).type, SessionStatus::Type::Retry);
    QCOMPARE(seen.at(0).attempt, 1);
    QVERIFY(!seen.at(0).message.isEmpty());
    QCOMPARE(seen.at(0).next, PinnedNow.toMSecsSinceEpoch() + 40);
    QCOMPARE(seen.at(1), SessionStatus::busy());

    QCOMPARE(storedText(*m_store, m_assistant.id), u"Finally"_s);
    QVERIFY(!storedMessage().error);
}

void SessionProcessorTest::aCutStreamIsRetriedOnTheSameMessageReplacingWhatItSaid()
{
    // message_start, the text block's start, its first delta — then the
    // server closes the connection. No retry-after: the 2 s backoff.
    m_server->enqueue(FakeTurn().text({u"Partial "_s, u"answer"_s}).disconnectAfter(3));
    m_server->enqueue(FakeTurn().text({u"Whole answer"_s}).usage(10, 5));
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome, 20000));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);
    QCOMPARE(m_server->requests().size(), 2);
    const QList<SessionStatus> seen = statuses(*m_sink);
    QCOMPARE(seen.size(), 3); // busy, retry, busy
    QCOMPARE(seen.at(1).type, SessionStatus::Type::Retry);
    QCOMPARE(seen.at(1).attempt, 1);
    QCOMPARE(seen.at(1).next, PinnedNow.toMSecsSinceEpoch() + RetryPolicy::InitialDelayMs);

    // The cut text was saved when the stream broke, and gave way to the
    // retried answer when it began: one step, one answer.
    QString cutTextID;
    for (const PartUpdated &updated : m_sink->all<PartUpdated>()) {
        if (const auto *text = updated.part.as<TextPart>(); text && text->text == u"Partial"_s)
            cutTextID = updated.part.id;
    }
    QVERIFY(!cutTextID.isEmpty());
    QStringList removed;
    for (const PartRemoved &part : m_sink->all<PartRemoved>())
        removed.append(part.partID);
    QVERIFY2(removed.contains(cutTextID), qPrintable(removed.join(u", "_s)));
    QCOMPARE(storedTypes(*m_store, m_assistant.id), (QStringList{u"step-start"_s, u"text"_s, u"step-finish"_s}));
    QCOMPARE(storedText(*m_store, m_assistant.id), u"Whole answer"_s);
    QVERIFY(!storedMessage().error);
}

void SessionProcessorTest::retriesStopAtTheCapWithAClearError()
{
    for (int i = 0; i < 3; ++i)
        m_server->enqueue(FakeTurn::httpError(529, OverloadedBody, {{"retry-after-ms", "10"}}));
    SessionProcessor::Setup s = setup();
    s.retry.maxAttempts = 2;
    auto processor = makeProcessor(s);
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Stop"_s);
    QCOMPARE(m_server->requests().size(), 3);

    QList<int> attempts;
    for (const SessionStatus &status : statuses(*m_sink)) {
        if (status.type == SessionStatus::Type::Retry)
            attempts.append(status.attempt);
    }
    QCOMPARE(attempts, (QList<int>{1, 2}));
    QCOMPARE(statuses(*m_sink).last(), SessionStatus::idle());

    const AssistantMessage stored = storedMessage();
    QVERIFY(stored.error);
    QCOMPARE(stored.error->name, u"APIError"_s);
    QVERIFY2(stored.error->message().contains(u"failed 3 time"_s), qPrintable(stored.error->message()));
    QVERIFY2(stored.error->message().contains(u"HTTP 529: Overloaded"_s), qPrintable(stored.error->message()));
    QVERIFY2(!stored.error->message().contains(u"will try again"_s), qPrintable(stored.error->message()));
    QCOMPARE(stored.error->data.value("isRetryable"_L1).toBool(true), false);
    QCOMPARE(stored.error->data.value("statusCode"_L1).toInt(), 529);
    QVERIFY(stored.completed);
    QCOMPARE(m_sink->all<SessionError>().size(), 1);
    QCOMPARE(m_sink->all<SessionError>().first().error.toJson(), stored.error->toJson());
}

void SessionProcessorTest::aPermanentErrorEndsTheMessageWithIt()
{
    m_server->enqueue(FakeTurn::httpError(
        401, R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})"));
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Stop"_s);
    QCOMPARE(m_server->requests().size(), 1);
    const AssistantMessage stored = storedMessage();
    QVERIFY(stored.error);
    QCOMPARE(stored.error->name, u"APIError"_s);
    QCOMPARE(stored.error->data.value("statusCode"_L1).toInt(), 401);
    QVERIFY(stored.error->message().contains(u"invalid x-api-key"_s));
    QVERIFY(statuses(*m_sink).isEmpty() || statuses(*m_sink).last() == SessionStatus::idle());
}

void SessionProcessorTest::usageOverTheContextLimitAsksForCompaction()
{
    SessionProcessor::Setup s = setup();
    s.model.limits = ModelInfo::Limits{1000, 0, 100};
    m_server->enqueue(FakeTurn().text({u"long"_s}).usage(950, 40));
    auto processor = makeProcessor(s);
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Compact"_s);
    QVERIFY(!storedMessage().error);

    // compaction.auto = false is honoured.
    s.compaction.autoCompact = false;
    m_server->enqueue(FakeTurn().text({u"long"_s}).usage(950, 40));
    auto manual = makeProcessor(s);
    QVERIFY(run(*manual, &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);
}

void SessionProcessorTest::contextOverflowErrorAsksForCompaction()
{
    m_server->enqueue(FakeTurn::httpError(400, TooLongBody));
    auto processor = makeProcessor(setup());
    Outcome outcome{};
    QVERIFY(run(*processor, &outcome));
    QCOMPARE(outcomeName(outcome), u"Compact"_s);
    QCOMPARE(m_server->requests().size(), 1);
    QVERIFY(!storedMessage().error);
    QCOMPARE(m_sink->all<SessionError>().size(), 1);
    QCOMPARE(m_sink->all<SessionError>().first().error.name, u"ContextOverflowError"_s);
}

void SessionProcessorTest::abortMidStreamEndsTheMessageAndMarksUnfinishedTools()
{
    // message_start, the text block (start, two deltas, stop), then the tool
    // block's start — and silence.
    m_server->enqueue(FakeTurn()
                          .text({u"Hel"_s, u"lo"_s})
                          .toolCall(u"read"_s, QJsonObject{{"filePath"_L1, "/a"_L1}}, u"call_1"_s)
                          .stallAfter(6));
    auto processor = makeProcessor(setup());
    auto result = std::make_shared<std::optional<Outcome>>();
    QCoro::connect(processor->process(factory()), this, [result](Outcome o) { *result = o; });
    QTRY_COMPARE_WITH_TIMEOUT(toolStatuses(*m_sink, u"call_1"_s), QStringList{u"pending"_s}, 10000);

    m_abort->abort();
    QTRY_VERIFY_WITH_TIMEOUT(result->has_value(), 10000);
    QCOMPARE(outcomeName(**result), u"Stop"_s);

    const AssistantMessage stored = storedMessage();
    QVERIFY(stored.error);
    QCOMPARE(stored.error->name, u"MessageAbortedError"_s);
    QVERIFY(stored.completed);
    QCOMPARE(storedText(*m_store, m_assistant.id), u"Hello"_s);
    const auto tool = storedTool(*m_store, m_assistant.id, u"call_1"_s);
    QVERIFY(tool);
    QCOMPARE(std::get<ToolError>(tool->state).error, u"Tool execution aborted"_s);
    QCOMPARE(toolStatuses(*m_sink, u"call_1"_s), (QStringList{u"pending"_s, u"error"_s}));
    QCOMPARE(m_tools->calls().size(), 0);
}

void SessionProcessorTest::abortWhileAToolRunsMarksItAborted()
{
    m_server->enqueue(FakeTurn().toolCall(u"bash"_s, QJsonObject{{"command"_L1, "sleep 100"_L1}}, u"call_1"_s));
    m_tools->holdUntilAbort(u"bash"_s);
    auto processor = makeProcessor(setup());
    QSignalSpy started(m_tools.get(), &ScriptedToolRunner::started);
    auto result = std::make_shared<std::optional<Outcome>>();
    QCoro::connect(processor->process(factory()), this, [result](Outcome o) { *result = o; });
    QVERIFY(started.wait(10000));
    QVERIFY(!m_tools->contexts().first().abort.isNull());

    m_abort->abort();
    QTRY_VERIFY_WITH_TIMEOUT(result->has_value(), 10000);
    QCOMPARE(outcomeName(**result), u"Stop"_s);
    QCOMPARE(storedMessage().error->name, u"MessageAbortedError"_s);
    QCOMPARE(std::get<ToolError>(storedTool(*m_store, m_assistant.id, u"call_1"_s)->state).error,
             u"Tool execution aborted"_s);
}

void SessionProcessorTest::abortDuringARetryWaitEndsAtOnce()
{
    m_server->enqueue(FakeTurn::httpError(429, RateLimitBody, {{"retry-after", "600"}}));
    auto processor = makeProcessor(setup());
    auto result = std::make_shared<std::optional<Outcome>>();
    QCoro::connect(processor->process(factory()), this, [result](Outcome o) { *result = o; });
    QTRY_VERIFY_WITH_TIMEOUT(!statuses(*m_sink).isEmpty(), 10000);
    QCOMPARE(statuses(*m_sink).first().next, PinnedNow.toMSecsSinceEpoch() + 600000);

    m_abort->abort();
    QTRY_VERIFY_WITH_TIMEOUT(result->has_value(), 5000);
    QCOMPARE(outcomeName(**result), u"Stop"_s);
    QCOMPARE(m_server->requests().size(), 1);
    QCOMPARE(storedMessage().error->name, u"MessageAbortedError"_s);
}

void SessionProcessorTest::abortDuringAPermissionQuestionMarksTheCallAborted()
{
    const QJsonObject input{{"filePath"_L1, "/a"_L1}};
    m_server->enqueue(FakeTurn()
                          .toolCall(u"read"_s, input, u"call_1"_s)
                          .toolCall(u"read"_s, input, u"call_2"_s)
                          .toolCall(u"read"_s, input, u"call_3"_s));
    m_permissions->holdUntilAbort();
    QSignalSpy asked(m_permissions.get(), &ScriptedPermissionAsker::asked);
    auto processor = makeProcessor(setup());
    auto result = std::make_shared<std::optional<Outcome>>();
    QCoro::connect(processor->process(factory()), this, [result](Outcome o) { *result = o; });
    QVERIFY(asked.wait(10000));

    m_abort->abort();
    QTRY_VERIFY_WITH_TIMEOUT(result->has_value(), 10000);
    QCOMPARE(outcomeName(**result), u"Stop"_s);
    QCOMPARE(m_tools->calls().size(), 2);
    QCOMPARE(std::get<ToolError>(storedTool(*m_store, m_assistant.id, u"call_3"_s)->state).error,
             u"Tool execution aborted"_s);
    QCOMPARE(storedMessage().error->name, u"MessageAbortedError"_s);
}

QTEST_GUILESS_MAIN(SessionProcessorTest)
#include "tst_session_processor.moc"
