// SessionCompaction against FakeProviderServer (OpenCode's
// test/session/compaction.test.ts, reference §12.5): a compaction request
// is one user message with one compaction part; pruning clears old tool
// output but never the skill tool's; a summary that finishes continues and
// publishes session.compacted; one too large for the model stops with
// OpenCode's ContextOverflowError texts; automatic compaction adds the
// continue message or replays the turn the provider refused, its media as
// notes; an abort or a provider error during the summary stops. And, unlike
// OpenCode, compaction.auto = false is honoured.

#include <QNetworkAccessManager>
#include <QTest>

#include <QCoro/QCoroTask>

#include <memory>

#include "FakeProviderServer.h"
#include "RecordingEventSink.h"
#include "ScriptedPermissionAsker.h"
#include "ScriptedToolRunner.h"
#include "TempDatabase.h"
#include "engine/agent/PromptLibrary.h"
#include "engine/network/ProviderClient.h"
#include "engine/session/compaction/CompactionRules.h"
#include "engine/session/compaction/SessionCompaction.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace qcode;
using namespace qcode::test;
using Outcome = CompactionRun::Outcome;

namespace {

// Messages sort by creation time: the run's clock is pinned a minute after
// the messages a test writes with the real time.
QDateTime pinnedNow()
{
    static const QDateTime now = QDateTime::currentDateTimeUtc().addSecs(60);
    return now;
}
const ModelRef TestModel{u"anthropic"_s, u"fake-model"_s};
const QString CompactionPrompt = u"You summarise conversations."_s;

const QByteArray TooLongBody = QByteArrayLiteral(
    "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
    "\"message\":\"prompt is too long: 250000 tokens > 200000 maximum\"}}");
const QByteArray BadKeyBody = QByteArrayLiteral(
    "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}");

ModelInfo testModel()
{
    ModelInfo model;
    model.id = TestModel.modelID;
    model.apiId = model.id;
    model.providerID = TestModel.providerID;
    model.limits = ModelInfo::Limits{200000, 0, 8192};
    return model;
}

HttpStreamLimits quickLimits()
{
    HttpStreamLimits limits;
    limits.connectTimeout = 10s;
    limits.idleTimeout = 10s;
    return limits;
}

QString outcomeName(Outcome outcome)
{
    return QString::fromLatin1(QMetaEnum::fromType<Outcome>().valueToKey(int(outcome)));
}

QString textOf(const MessageWithParts &message)
{
    QStringList texts;
    for (const Part &part : message.parts)
        if (const auto *text = part.as<TextPart>())
            texts.append(text->text);
    return texts.join(u'\n');
}

// The text the request's last message carries (Anthropic content blocks).
QString lastMessageText(const RecordedRequest &request)
{
    const QJsonArray messages = request.json().value("messages"_L1).toArray();
    const QJsonValue content = messages.last().toObject().value("content"_L1);
    if (content.isString())
        return content.toString();
    QStringList texts;
    for (const QJsonValue &block : content.toArray())
        texts.append(block.toObject().value("text"_L1).toString());
    return texts.join(u'\n');
}

ToolCompleted completedTool(const QString &output)
{
    ToolCompleted done;
    done.output = output;
    done.title = u"done"_s;
    done.start = pinnedNow().toMSecsSinceEpoch();
    done.end = done.start;
    return done;
}

} // namespace

class SessionCompactionTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void createWritesOneUserMessageWithOneCompactionPart();
    void createForAnUnknownSessionFailsAndWritesNothing();
    void pruneClearsOldToolOutputBeyondTheLastTwoTurns();
    void pruneNeverClearsTheSkillToolsOutput();
    void autoFalseNeverAsksForCompactionHoweverFullTheContext();

    void aFinishedSummaryContinuesAndPublishesCompacted();
    void theSummaryIsAskedForWithoutMediaAndWithTheRequestText();
    void aSummaryTooLargeForTheModelStopsWithAnError();
    void aReplayTooLargeToSummariseSaysTheHistoryIsTooLarge();
    void autoCompactionAddsTheContinueMessage();
    void overflowReplaysThePriorTurnWithItsMediaAsNotes();
    void overflowWithoutAReplayableTurnExplainsTheSizeLimit();
    void aProviderErrorDuringTheSummaryStopsWithoutAFollowUp();
    void aToolCallInTheSummaryNeverRuns();
    void anAbortDuringTheSummaryStops();
    void anAbortBeforeTheSummaryWritesNoSummary();
    void aRequestThatIsNotInTheHistoryStopsWithAnError();

private:
    MessageWithParts addUser(const QString &text);
    MessageWithParts addAssistantWithTool(const QString &parentID, const QString &tool, const QString &output);
    void addPart(MessageWithParts &message, PartBody body);
    QList<MessageWithParts> history();
    CompactionRun::Input input(const QString &parentID, bool autoCompact, bool overflow = false);
    // Runs process() to its end; false (with a test failure) on a timeout.
    bool runToEnd(CompactionRun &compaction, CompactionRun::Input in, Outcome *outcome);
    std::optional<MessageWithParts> summaryMessage();

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<RecordingEventSink> m_sink;
    std::unique_ptr<ScriptedToolRunner> m_tools;
    std::unique_ptr<ScriptedPermissionAsker> m_permissions;
    std::unique_ptr<FakeProviderServer> m_server;
    std::unique_ptr<AbortSignal> m_abort;
    QNetworkAccessManager m_manager;
    Session m_session;
};

void SessionCompactionTest::init()
{
    m_db = std::make_unique<TempDatabase>();
    m_store = m_db->open();
    QVERIFY(m_store);
    QVERIFY(m_store->upsertProject(makeProject()));
    m_session = makeSession();
    QVERIFY(m_store->upsertSession(m_session));
    m_sink = std::make_unique<RecordingEventSink>();
    m_tools = std::make_unique<ScriptedToolRunner>();
    m_permissions = std::make_unique<ScriptedPermissionAsker>();
    m_server = std::make_unique<FakeProviderServer>();
    QVERIFY(m_server->isListening());
    m_abort = std::make_unique<AbortSignal>();
}

void SessionCompactionTest::cleanup()
{
    m_abort.reset();
    m_server.reset();
    m_permissions.reset();
    m_tools.reset();
    m_sink.reset();
    m_store.reset();
    m_db.reset();
}

void SessionCompactionTest::addPart(MessageWithParts &message, PartBody body)
{
    const Part part{Identifier::ascending(Identifier::Prefix::Part), message.info.sessionID(), message.info.id(),
                    std::move(body), {}};
    QVERIFY(m_store->updatePart(part));
    message.parts.append(part);
}

MessageWithParts SessionCompactionTest::addUser(const QString &text)
{
    Message user = makeUserMessage(m_session.id);
    user.user()->model = TestModel;
    [&] { QVERIFY(m_store->updateMessage(user)); }();
    MessageWithParts message{user, {}};
    addPart(message, TextPart{text, {}, {}, {}, {}});
    return message;
}

MessageWithParts SessionCompactionTest::addAssistantWithTool(const QString &parentID, const QString &tool,
                                                             const QString &output)
{
    Message assistant = makeAssistantMessage(m_session.id, parentID);
    assistant.assistant()->finish = u"stop"_s;
    [&] { QVERIFY(m_store->updateMessage(assistant)); }();
    MessageWithParts message{assistant, {}};
    addPart(message, ToolPart{u"call_"_s + tool, tool, completedTool(output), std::nullopt, {}});
    return message;
}

QList<MessageWithParts> SessionCompactionTest::history()
{
    const auto messages = m_store->messages(m_session.id);
    return messages ? *messages : QList<MessageWithParts>();
}

CompactionRun::Input SessionCompactionTest::input(const QString &parentID, bool autoCompact, bool overflow)
{
    CompactionRun::Input in;
    in.messages = history();
    in.parentID = parentID;
    in.sessionID = m_session.id;
    in.abort = m_abort.get();
    in.autoCompact = autoCompact;
    in.overflow = overflow;
    in.setup.store = m_store.get();
    in.setup.sink = m_sink.get();
    in.setup.tools = m_tools.get();
    in.setup.permissions = m_permissions.get();
    in.setup.model = testModel();
    in.setup.npm = u"@ai-sdk/anthropic"_s;
    in.setup.flushInterval = 20ms;
    in.setup.clock = [] { return pinnedNow(); };
    in.model = TestModel;
    in.target = ModelTarget{TestModel.providerID, TestModel.modelID, true};
    in.directory = u"/work"_s;
    in.worktree = u"/work"_s;

    ProviderEndpoint endpoint;
    endpoint.protocol = WireProtocol::AnthropicMessages;
    endpoint.providerId = TestModel.providerID;
    endpoint.modelId = TestModel.modelID;
    QUrl base = m_server->baseUrl();
    base.setPath(u"/v1"_s);
    endpoint.baseUrl = base;
    endpoint.apiKey = u"test-key"_s;
    QNetworkAccessManager *manager = &m_manager;
    in.summaryCall = [manager, endpoint](QList<ModelMessage> messages) -> SessionProcessor::CallFactory {
        ProviderRequest request;
        request.endpoint = endpoint;
        request.system = {CompactionPrompt};
        request.messages = std::move(messages);
        return [manager, request](QObject *owner) {
            return ProviderClient(manager, quickLimits()).stream(request, owner);
        };
    };
    return in;
}

bool SessionCompactionTest::runToEnd(CompactionRun &compaction, CompactionRun::Input in, Outcome *outcome)
{
    auto result = std::make_shared<std::optional<Outcome>>();
    QCoro::connect(compaction.process(std::move(in)), this, [result](Outcome o) { *result = o; });
    if (!QTest::qWaitFor([result] { return result->has_value(); }, 15000)) {
        QTest::qFail("process() did not finish", __FILE__, __LINE__);
        return false;
    }
    *outcome = **result;
    return true;
}

std::optional<MessageWithParts> SessionCompactionTest::summaryMessage()
{
    for (const MessageWithParts &message : history()) {
        if (const auto *assistant = message.info.assistant(); assistant && assistant->isSummary())
            return message;
    }
    return std::nullopt;
}

void SessionCompactionTest::createWritesOneUserMessageWithOneCompactionPart()
{
    SessionCompaction::Request request{m_session.id, u"build"_s, TestModel, true, true,
                                       pinnedNow().toMSecsSinceEpoch()};
    const Result<MessageWithParts> created = SessionCompaction::create(*m_store, *m_sink, request);
    QVERIFY2(created, qPrintable(created.errorMessage()));

    const QList<MessageWithParts> stored = history();
    QCOMPARE(stored.size(), 1);
    const UserMessage *user = stored.first().info.user();
    QVERIFY(user);
    QCOMPARE(user->agent, u"build"_s);
    QCOMPARE(user->model, TestModel);
    QCOMPARE(user->created, pinnedNow().toMSecsSinceEpoch());
    QCOMPARE(stored.first().parts.size(), 1);
    const QJsonObject part = stored.first().parts.first().toJson();
    QCOMPARE(part.value("type"_L1).toString(), u"compaction"_s);
    QCOMPARE(part.value("auto"_L1).toBool(), true);
    QCOMPARE(part.value("overflow"_L1).toBool(), true);
    QCOMPARE(m_sink->types(), (QStringList{u"message.updated"_s, u"message.part.updated"_s}));
    QCOMPARE(created->info.id(), stored.first().info.id());
}

void SessionCompactionTest::createForAnUnknownSessionFailsAndWritesNothing()
{
    const QString unknown = Identifier::descending(Identifier::Prefix::Session);
    SessionCompaction::Request request{unknown, u"build"_s, TestModel, false, std::nullopt, 0};
    const Result<MessageWithParts> created = SessionCompaction::create(*m_store, *m_sink, request);
    QVERIFY(!created);
    QVERIFY(created.errorMessage().contains(unknown));
    QVERIFY(m_sink->events().isEmpty());
    const auto messages = m_store->messages(unknown);
    QVERIFY(messages);
    QVERIFY(messages->isEmpty());
}

void SessionCompactionTest::pruneClearsOldToolOutputBeyondTheLastTwoTurns()
{
    const MessageWithParts first = addUser(u"first"_s);
    const MessageWithParts assistant = addAssistantWithTool(first.info.id(), u"bash"_s, QString(200000, u'x'));
    addUser(u"second"_s);
    addUser(u"third"_s);

    const qint64 now = pinnedNow().toMSecsSinceEpoch();
    const Result<QList<Part>> pruned = SessionCompaction::prune(*m_store, *m_sink, m_session.id, now);
    QVERIFY2(pruned, qPrintable(pruned.errorMessage()));
    QCOMPARE(pruned->size(), 1);
    QCOMPARE(pruned->first().id, assistant.parts.first().id);

    const auto stored = m_store->parts(assistant.info.id());
    QVERIFY(stored);
    const auto *state = std::get_if<ToolCompleted>(&stored->first().as<ToolPart>()->state);
    QVERIFY(state);
    QCOMPARE(state->compacted, std::optional<qint64>(now));
    QCOMPARE(state->output.size(), 200000); // the text stays; only the model no longer sees it
    const QList<PartUpdated> updates = m_sink->all<PartUpdated>();
    QCOMPARE(updates.size(), 1);
    QCOMPARE(updates.first().part.id, assistant.parts.first().id);
}

void SessionCompactionTest::pruneNeverClearsTheSkillToolsOutput()
{
    const MessageWithParts first = addUser(u"first"_s);
    const MessageWithParts assistant = addAssistantWithTool(first.info.id(), u"skill"_s, QString(200000, u'x'));
    addUser(u"second"_s);
    addUser(u"third"_s);

    const Result<QList<Part>> pruned =
        SessionCompaction::prune(*m_store, *m_sink, m_session.id, pinnedNow().toMSecsSinceEpoch());
    QVERIFY(pruned);
    QVERIFY(pruned->isEmpty());
    const auto stored = m_store->parts(assistant.info.id());
    QVERIFY(stored);
    QVERIFY(!std::get<ToolCompleted>(stored->first().as<ToolPart>()->state).compacted);
    QVERIFY(m_sink->events().isEmpty());
}

void SessionCompactionTest::autoFalseNeverAsksForCompactionHoweverFullTheContext()
{
    // OpenCode's users report compaction.auto = false being ignored (§13
    // item 6). The loop asks isOverflow before creating a request; with
    // auto off it never says yes, even far past the limit.
    const CompactionRules::ContextLimits limits{100000, 0, 32000};
    TokenUsage tokens;
    tokens.input = 190000;
    tokens.output = 9000;
    CompactionRules::CompactionSettings settings;
    QVERIFY(CompactionRules::isOverflow(tokens, limits, settings));
    settings.autoCompact = false;
    QVERIFY(!CompactionRules::isOverflow(tokens, limits, settings));
}

void SessionCompactionTest::aFinishedSummaryContinuesAndPublishesCompacted()
{
    addUser(u"hello"_s);
    SessionCompaction::Request request{m_session.id, u"build"_s, TestModel, false, std::nullopt, 0};
    const Result<MessageWithParts> requested = SessionCompaction::create(*m_store, *m_sink, request);
    QVERIFY(requested);
    m_server->enqueue(FakeTurn().text({u"## Goal\n"_s, u"Say hello"_s}).usage(1200, 40));

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(requested->info.id(), false), &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);

    const auto summary = summaryMessage();
    QVERIFY(summary);
    const AssistantMessage *assistant = summary->info.assistant();
    QCOMPARE(assistant->parentID, requested->info.id());
    QCOMPARE(assistant->agent, u"compaction"_s);
    QCOMPARE(assistant->mode, u"compaction"_s);
    QCOMPARE(assistant->finish, std::optional<QString>(u"stop"_s));
    QVERIFY(!assistant->error);
    QCOMPARE(assistant->modelID, TestModel.modelID);
    QCOMPARE(textOf(*summary), u"## Goal\nSay hello"_s);
    QCOMPARE(m_sink->all<SessionCompacted>().size(), 1);
    QCOMPARE(m_sink->all<SessionCompacted>().first().sessionID, m_session.id);
    // A manual compaction adds nothing after the summary: the loop ends.
    QCOMPARE(history().last().info.id(), assistant->id);
    QVERIFY(compaction.summary());
    QCOMPARE(compaction.summary()->id, assistant->id);
}

void SessionCompactionTest::theSummaryIsAskedForWithoutMediaAndWithTheRequestText()
{
    MessageWithParts user = addUser(u"look at this"_s);
    addPart(user, FilePart{u"image/png"_s, u"cat.png"_s, u"data:image/png;base64,iVBORw0KGgo="_s, std::nullopt});
    SessionCompaction::Request request{m_session.id, u"build"_s, TestModel, false, std::nullopt, 0};
    const Result<MessageWithParts> requested = SessionCompaction::create(*m_store, *m_sink, request);
    QVERIFY(requested);
    m_server->enqueue(FakeTurn().text({u"summary"_s}).usage(10, 5));

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(requested->info.id(), false), &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);

    QCOMPARE(m_server->requests().size(), 1);
    const RecordedRequest &sent = m_server->requests().first();
    const QString body = QString::fromUtf8(sent.body);
    QVERIFY(body.contains("[Attached image/png: cat.png]"_L1));
    QVERIFY(!body.contains("iVBORw0KGgo"_L1));
    QVERIFY(!body.contains("\"tools\""_L1));
    QVERIFY(body.contains(CompactionPrompt));
    // The compaction request reads as OpenCode's question, then the text
    // asking for the summary closes the conversation.
    QVERIFY(body.contains("What did we do so far?"_L1));
    QVERIFY(lastMessageText(sent).endsWith(PromptLibrary::text(PromptText::CompactionRequest)));
}

void SessionCompactionTest::aSummaryTooLargeForTheModelStopsWithAnError()
{
    addUser(u"hello"_s);
    SessionCompaction::Request request{m_session.id, u"build"_s, TestModel, true, std::nullopt, 0};
    const Result<MessageWithParts> requested = SessionCompaction::create(*m_store, *m_sink, request);
    QVERIFY(requested);
    m_server->enqueue(FakeTurn::httpError(400, TooLongBody));

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(requested->info.id(), true), &outcome));
    QCOMPARE(outcomeName(outcome), u"Stop"_s);

    const auto summary = summaryMessage();
    QVERIFY(summary);
    const AssistantMessage *assistant = summary->info.assistant();
    QCOMPARE(assistant->finish, std::optional<QString>(u"error"_s));
    QVERIFY(assistant->error);
    QCOMPARE(assistant->error->name, u"ContextOverflowError"_s);
    QCOMPARE(assistant->error->message(),
             u"Session too large to compact - context exceeds model limit even after stripping media"_s);
    QVERIFY(m_sink->all<SessionCompacted>().isEmpty());
    // No continue message after a failed summary.
    QCOMPARE(history().last().info.id(), assistant->id);
    const QList<SessionError> errors = m_sink->all<SessionError>();
    QVERIFY(!errors.isEmpty());
    QCOMPARE(errors.last().error.message(), assistant->error->message());
}

void SessionCompactionTest::aReplayTooLargeToSummariseSaysTheHistoryIsTooLarge()
{
    addUser(u"root"_s);
    addUser(u"image"_s);
    const MessageWithParts current = addUser(u"current"_s);
    m_server->enqueue(FakeTurn::httpError(400, TooLongBody));

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(current.info.id(), true, true), &outcome));
    QCOMPARE(outcomeName(outcome), u"Stop"_s);
    const auto summary = summaryMessage();
    QVERIFY(summary);
    QCOMPARE(summary->info.assistant()->error->message(),
             u"Conversation history too large to compact - exceeds model context limit"_s);
    QCOMPARE(summary->info.assistant()->finish, std::optional<QString>(u"error"_s));
}

void SessionCompactionTest::autoCompactionAddsTheContinueMessage()
{
    addUser(u"hello"_s);
    SessionCompaction::Request request{m_session.id, u"plan"_s, TestModel, true, std::nullopt, 0};
    const Result<MessageWithParts> requested = SessionCompaction::create(*m_store, *m_sink, request);
    QVERIFY(requested);
    m_server->enqueue(FakeTurn().text({u"summary"_s}).usage(10, 5));

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(requested->info.id(), true), &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);

    const MessageWithParts last = history().last();
    QVERIFY(last.info.isUser());
    QCOMPARE(last.info.user()->agent, u"plan"_s);
    QCOMPARE(last.info.user()->model, TestModel);
    QCOMPARE(last.parts.size(), 1);
    const TextPart *text = last.parts.first().as<TextPart>();
    QVERIFY(text);
    QCOMPARE(text->synthetic, std::optional<bool>(true));
    QVERIFY(text->text.contains("Continue if you have next steps"_L1));
    QVERIFY(!text->text.contains("size limit"_L1));
    QCOMPARE(m_sink->all<SessionCompacted>().size(), 1);
    // The follow-up is published after the summary, before compacted.
    const QStringList types = m_sink->types();
    QCOMPARE(types.last(), u"session.compacted"_s);
}

void SessionCompactionTest::overflowReplaysThePriorTurnWithItsMediaAsNotes()
{
    addUser(u"root"_s);
    MessageWithParts replay = addUser(u"image"_s);
    addPart(replay, FilePart{u"image/png"_s, u"cat.png"_s, u"https://example.com/cat.png"_s, std::nullopt});
    const MessageWithParts current = addUser(u"current"_s);
    m_server->enqueue(FakeTurn().text({u"summary"_s}).usage(10, 5));

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(current.info.id(), true, true), &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);

    const MessageWithParts last = history().last();
    QVERIFY(last.info.isUser());
    QVERIFY(last.info.id() != replay.info.id());
    QCOMPARE(last.info.user()->agent, replay.info.user()->agent);
    QCOMPARE(last.info.user()->model, replay.info.user()->model);
    QCOMPARE(last.parts.size(), 2);
    for (const Part &part : last.parts) {
        QVERIFY(!part.as<FilePart>());
        QCOMPARE(part.messageID, last.info.id());
        QVERIFY(part.id != replay.parts.at(0).id && part.id != replay.parts.at(1).id);
    }
    QCOMPARE(textOf(last), u"image\n[Attached image/png: cat.png]"_s);
    // Only what came before the replayed turn was summarised.
    const QString sent = QString::fromUtf8(m_server->requests().first().body);
    QVERIFY(sent.contains("root"_L1));
    QVERIFY(!sent.contains("cat.png"_L1));
}

void SessionCompactionTest::overflowWithoutAReplayableTurnExplainsTheSizeLimit()
{
    addUser(u"earlier"_s);
    const MessageWithParts current = addUser(u"current"_s);
    m_server->enqueue(FakeTurn().text({u"summary"_s}).usage(10, 5));

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(current.info.id(), true, true), &outcome));
    QCOMPARE(outcomeName(outcome), u"Continue"_s);

    const MessageWithParts last = history().last();
    QVERIFY(last.info.isUser());
    const TextPart *text = last.parts.first().as<TextPart>();
    QVERIFY(text);
    QVERIFY(text->text.contains("previous request exceeded the provider's size limit"_L1));
    QVERIFY(text->text.endsWith(SessionCompaction::ContinueText));
    // Nothing was replayed, so everything was summarised.
    const QString sent = QString::fromUtf8(m_server->requests().first().body);
    QVERIFY(sent.contains("earlier"_L1));
    QVERIFY(sent.contains("current"_L1));
}

void SessionCompactionTest::aProviderErrorDuringTheSummaryStopsWithoutAFollowUp()
{
    addUser(u"hello"_s);
    SessionCompaction::Request request{m_session.id, u"build"_s, TestModel, true, std::nullopt, 0};
    const Result<MessageWithParts> requested = SessionCompaction::create(*m_store, *m_sink, request);
    QVERIFY(requested);
    m_server->enqueue(FakeTurn::httpError(401, BadKeyBody));

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(requested->info.id(), true), &outcome));
    QCOMPARE(outcomeName(outcome), u"Stop"_s);
    const auto summary = summaryMessage();
    QVERIFY(summary);
    QVERIFY(summary->info.assistant()->error);
    QCOMPARE(summary->info.assistant()->error->name, u"APIError"_s);
    QCOMPARE(history().last().info.id(), summary->info.id());
    QVERIFY(m_sink->all<SessionCompacted>().isEmpty());
}

void SessionCompactionTest::aToolCallInTheSummaryNeverRuns()
{
    addUser(u"hello"_s);
    SessionCompaction::Request request{m_session.id, u"build"_s, TestModel, false, std::nullopt, 0};
    const Result<MessageWithParts> requested = SessionCompaction::create(*m_store, *m_sink, request);
    QVERIFY(requested);
    m_server->enqueue(FakeTurn().toolCall(u"read"_s, QJsonObject{{"filePath"_L1, "/a"_L1}}, u"call_1"_s).usage(10, 5));

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(requested->info.id(), false), &outcome));
    QVERIFY(m_tools->calls().isEmpty());
    const auto summary = summaryMessage();
    QVERIFY(summary);
    const ToolPart *tool = nullptr;
    for (const Part &part : summary->parts)
        if (part.as<ToolPart>())
            tool = part.as<ToolPart>();
    QVERIFY(tool);
    const auto *failed = std::get_if<ToolError>(&tool->state);
    QVERIFY(failed);
    QVERIFY(failed->error.contains("No tools are available"_L1));
    QVERIFY(!QString::fromUtf8(m_server->requests().first().body).contains("\"tools\""_L1));
}

void SessionCompactionTest::anAbortDuringTheSummaryStops()
{
    addUser(u"hello"_s);
    SessionCompaction::Request request{m_session.id, u"build"_s, TestModel, true, std::nullopt, 0};
    const Result<MessageWithParts> requested = SessionCompaction::create(*m_store, *m_sink, request);
    QVERIFY(requested);
    // message_start, text start, one delta — and silence.
    m_server->enqueue(FakeTurn().text({u"Half a sum"_s, u"mary"_s}).stallAfter(3));

    CompactionRun compaction;
    auto result = std::make_shared<std::optional<Outcome>>();
    QCoro::connect(compaction.process(input(requested->info.id(), true)), this, [result](Outcome o) { *result = o; });
    QTRY_VERIFY_WITH_TIMEOUT(!m_sink->all<PartDelta>().isEmpty(), 10000);

    m_abort->abort();
    QTRY_VERIFY_WITH_TIMEOUT(result->has_value(), 10000);
    QCOMPARE(outcomeName(**result), u"Stop"_s);
    const auto summary = summaryMessage();
    QVERIFY(summary);
    QVERIFY(summary->info.assistant()->error);
    QCOMPARE(summary->info.assistant()->error->name, u"MessageAbortedError"_s);
    QVERIFY(summary->info.assistant()->completed);
    QCOMPARE(history().last().info.id(), summary->info.id());
    QVERIFY(m_sink->all<SessionCompacted>().isEmpty());
}

void SessionCompactionTest::anAbortBeforeTheSummaryWritesNoSummary()
{
    const MessageWithParts user = addUser(u"hello"_s);
    m_abort->abort();

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(user.info.id(), true), &outcome));
    QCOMPARE(outcomeName(outcome), u"Stop"_s);
    QVERIFY(!summaryMessage());
    QCOMPARE(history().size(), 1);
    QVERIFY(m_server->requests().isEmpty());
}

void SessionCompactionTest::aRequestThatIsNotInTheHistoryStopsWithAnError()
{
    addUser(u"hello"_s);
    const QString missing = Identifier::ascending(Identifier::Prefix::Message);

    CompactionRun compaction;
    Outcome outcome{};
    QVERIFY(runToEnd(compaction, input(missing, true), &outcome));
    QCOMPARE(outcomeName(outcome), u"Stop"_s);
    QVERIFY(!summaryMessage());
    const QList<SessionError> errors = m_sink->all<SessionError>();
    QCOMPARE(errors.size(), 1);
    QVERIFY(errors.first().error.message().contains(missing));
    QVERIFY(m_server->requests().isEmpty());
}

QTEST_GUILESS_MAIN(SessionCompactionTest)
#include "tst_session_compaction.moc"
