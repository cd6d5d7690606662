#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QScopeGuard>
#include <QTranslator>

#include <algorithm>

#include "EngineHarness.h"
#include "engine/session/loop/PromptLoop.h"
#include "engine/session/compaction/SessionCompaction.h"
#include "engine/session/loop/TitleGenerator.h"
#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QStringList roles(const QList<MessageWithParts> &messages)
{
    QStringList roles;
    for (const MessageWithParts &message : messages)
        roles.append(message.info.isUser() ? u"user"_s : u"assistant"_s);
    return roles;
}

const AssistantMessage *lastAssistant(const QList<MessageWithParts> &messages)
{
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        if (const AssistantMessage *assistant = messages.at(i).info.assistant())
            return assistant;
    }
    return nullptr;
}

QList<ToolPart> toolParts(const QList<MessageWithParts> &messages)
{
    QList<ToolPart> tools;
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            if (const ToolPart *tool = part.as<ToolPart>())
                tools.append(*tool);
        }
    }
    return tools;
}

// Translates every qcode text to a marked one (Qt's own, contexts "Q" and
// a capital, are left alone), so a tr() on the model's path shows.
class MarkingTranslator : public QTranslator
{
public:
    static QString mark() { return u"\u27E6translated\u27E7"_s; }
    QString translate(const char *context, const char *sourceText, const char *, int) const override
    {
        const QByteArray name(context ? context : "");
        if (name.size() > 1 && name.at(0) == 'Q' && QChar::isUpper(name.at(1)))
            return {};
        return mark() + QString::fromUtf8(sourceText);
    }
    bool isEmpty() const override { return false; }
};

QJsonObject agentSteps(int steps)
{
    return QJsonObject{{u"build"_s, QJsonObject{{u"steps"_s, steps}}}};
}

// What an OpenAI-compatible server answers a request too large for the model.
const QByteArray ContextOverflowBody = QByteArrayLiteral(
    "{\"error\":{\"message\":\"This model's maximum context length is 20000 tokens. However, your messages "
    "resulted in 25000 tokens.\",\"type\":\"invalid_request_error\",\"code\":\"context_length_exceeded\"}}");

// From now on the database refuses to store a summary message, as a full
// disk would.
bool refuseSummaries(const QString &databasePath)
{
    const QString connection = u"refuse-summaries"_s;
    bool created = false;
    {
        QSqlDatabase database = QSqlDatabase::addDatabase(u"QSQLITE"_s, connection);
        database.setDatabaseName(databasePath);
        if (database.open()) {
            QSqlQuery query(database);
            created = query.exec(u"CREATE TRIGGER refuse_summaries BEFORE INSERT ON message "
                                 "WHEN json_extract(NEW.data, '$.summary') = 1 "
                                 "BEGIN SELECT RAISE(ABORT, 'no room for a summary'); END"_s);
            if (!created)
                qWarning() << query.lastError().text();
        }
        database.close();
    }
    QSqlDatabase::removeDatabase(connection);
    return created;
}

} // namespace

class PromptLoopTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aTextAnswerEndsTheLoop();
    void finishUnknownContinues();
    void aToolCallTurnIsFollowedByATextTurn();
    void theLastStepSendsTheMaxStepsMessage();
    void doomLoopAsksAndARejectStops();
    void aRejectWithMessageFeedsBackAndContinues();
    void aDoomLoopDeniedByTheAgentsRuleStopsWithTheRuleNotThePerson();
    void theDoomLoopCheckUsesTheAgentsRulesNotTheSessions();
    void retriesStopAtTheCapWithAClearError();
    void aNonRetryableErrorEndsWithItsMessage();
    void abortMidStreamLeavesAConsistentDatabase();
    void aCrashedToolIsSentAsInterrupted();
    void overflowSummarisesAndContinues();
    void autoFalseIsHonoured();
    void autoFalseStopsAtAProviderOverflowWithoutAskingForASummary();
    void compactionThatCannotHelpStopsWithAnError();
    void compactionsWithSuccessfulStepsBetweenThemNeverReachTheCap();
    void anOverflowWithAPromptQueuedCutsTheHistoryAtItsOwnRequest();
    void aCompactionThatStopsReportsItsOwnErrorNotAnOlderSummarys();
    void pruneClearsOldToolOutputAfterTheLoop();
    void aSubtaskRunsAChildSession();
    void promptsSentWhileBusyAreQueuedAndWrapped();
    void anUnknownModelIsAClearError();
    void manualCompactionSummarisesAndStops();
    void theEngineRunsOnItsOwnThread();
    void theFirstExchangeGetsATitle();
    void windingDownWaitsForATitleWithinItsGrace();
    void windingDownCutsATitleThatDoesNotCome();
    void windingDownStopsARunningTurnAndSavesItStopped();
    void forkCopiesUpToAMessage();
    void deleteRemovesTheSessionAndItsChildren();
    void abortCancelsAPendingQuestion();
    void permissionAllowShorthandIsHonoured();
    void instructionFilesReachTheSystemPrompt();
    void aPromptWhoseMessageIdIsStoredAlreadyChangesNothing();
    void nothingSentToTheModelIsTranslated();
};

void PromptLoopTest::aPromptWhoseMessageIdIsStoredAlreadyChangesNothing()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"Hello"_s}).usage(10, 5));
    QVERIFY(h.prompt(u"first words"_s));
    const QList<MessageWithParts> before = h.messages();
    const QString stored = before.first().info.id();

    // A caller-chosen id that is stored already: refused, not written over.
    PromptInput input;
    input.sessionID = h.session();
    input.messageID = stored;
    input.parts = {PromptPart::text(u"rewritten words"_s)};
    h.engine().prompt(input);
    QTRY_VERIFY(!h.sink().all<SessionError>().isEmpty());
    QCOMPARE(h.userTexts(), QStringList{u"first words"_s});
    QCOMPARE(h.messages().size(), before.size());
    QCOMPARE(h.server().requests().size(), 1);
}

void PromptLoopTest::aTextAnswerEndsTheLoop()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"Hel"_s, u"lo"_s}).usage(10, 5));
    const auto outcome = h.prompt(u"hi"_s);
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(h.server().requests().size(), 1);
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(roles(messages), (QStringList{u"user"_s, u"assistant"_s}));
    QCOMPARE(lastAssistant(messages)->finish, u"stop"_s);
    QCOMPARE(outcome->messageID, lastAssistant(messages)->id);
    // The deltas reached listeners; busy, then idle.
    QVERIFY(h.sink().types().contains(u"message.part.delta"_s));
    const QList<SessionStatusChanged> statuses = h.sink().all<SessionStatusChanged>();
    QCOMPARE(statuses.first().status, SessionStatus::busy());
    QCOMPARE(statuses.last().status, SessionStatus::idle());
    // The request carries the system prompt with the environment block.
    QVERIFY(QJsonDocument(h.requestBody(0)).toJson().contains("Working directory"));
}

void PromptLoopTest::finishUnknownContinues()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"thinking…"_s}).finishReason(FinishReason::Unknown));
    h.server().enqueue(FakeTurn().text({u"done"_s}));
    const auto outcome = h.prompt(u"go"_s);
    QVERIFY(outcome);
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(messages.at(1).info.assistant()->finish.value_or(QString()), u"unknown"_s);
    QCOMPARE(h.server().requests().size(), 2);
    QCOMPARE(roles(h.messages()), (QStringList{u"user"_s, u"assistant"_s, u"assistant"_s}));
}

void PromptLoopTest::aToolCallTurnIsFollowedByATextTurn()
{
    EngineHarness h;
    h.tools().script(u"read"_s, ToolOutput{u"file text"_s, u"a.txt"_s, {}, {}});
    h.server().enqueue(FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, u"a.txt"_s}}, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"It says file text."_s}));
    const auto outcome = h.prompt(u"read a.txt"_s);
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(h.server().requests().size(), 2);
    QCOMPARE(h.tools().calls().size(), 1);
    // The tool got the project folder and the step's permission asker.
    QCOMPARE(h.tools().contexts().first().directory, h.projectDirectory());
    QVERIFY(h.tools().contexts().first().permissions != nullptr);
    const QList<ToolPart> tools = toolParts(h.messages());
    QCOMPARE(tools.size(), 1);
    if (const auto *failed = std::get_if<ToolError>(&tools.first().state))
        QFAIL(qPrintable(failed->error));
    QVERIFY(std::holds_alternative<ToolCompleted>(tools.first().state));
    // The second request answers the call with its result.
    QVERIFY(h.sentText(1).contains(u"file text"_s));
    QVERIFY(h.sentText(1).contains(u"call_1"_s));
    // The tools were offered.
    QVERIFY(h.requestBody(0).value(u"tools"_s).toArray().size() >= 1);
}

void PromptLoopTest::theLastStepSendsTheMaxStepsMessage()
{
    EngineHarness::Setup setup;
    setup.config.insert(u"agent"_s, agentSteps(2));
    EngineHarness h(setup);
    h.tools().script(u"glob"_s, ToolOutput{u"a.txt"_s, u"*"_s, {}, {}});
    h.server().enqueue(FakeTurn().toolCall(u"glob"_s, QJsonObject{{u"pattern"_s, u"*"_s}}));
    h.server().enqueue(FakeTurn().text({u"Step limit reached."_s}));
    QVERIFY(h.prompt(u"look around"_s));
    QCOMPARE(h.server().requests().size(), 2);
    QVERIFY(!h.sentText(0).contains(u"MAXIMUM STEPS"_s));
    const QJsonArray last = h.requestBody(1).value(u"messages"_s).toArray();
    QCOMPARE(last.last().toObject().value(u"role"_s).toString(), u"assistant"_s);
    QVERIFY(QJsonDocument(last.last().toObject()).toJson().contains("MAXIMUM STEPS"));
}

void PromptLoopTest::doomLoopAsksAndARejectStops()
{
    EngineHarness h;
    h.tools().script(u"read"_s, ToolOutput{u"same"_s, u"a"_s, {}, {}});
    const QJsonObject args{{u"filePath"_s, u"a.txt"_s}};
    h.server().enqueue(FakeTurn().toolCall(u"read"_s, args).toolCall(u"read"_s, args).toolCall(u"read"_s, args));
    h.onEvent<PermissionAsked>(this, [&h](const PermissionAsked &asked) {
        QCOMPARE(asked.request.permission, u"doom_loop"_s);
        h.engine().replyPermission(asked.request.id, PermissionReply::Reject);
    });
    const auto outcome = h.prompt(u"loop"_s);
    QVERIFY(outcome);
    QCOMPARE(h.sink().all<PermissionAsked>().size(), 1);
    QCOMPARE(h.sink().all<PermissionReplied>().first().reply, PermissionReply::Reject);
    // Rejected: no further model call.
    QCOMPARE(h.server().requests().size(), 1);
    const QList<ToolPart> tools = toolParts(h.messages());
    QVERIFY(std::holds_alternative<ToolError>(tools.last().state));
}

void PromptLoopTest::aRejectWithMessageFeedsBackAndContinues()
{
    EngineHarness h;
    h.tools().script(u"read"_s, ToolOutput{u"same"_s, u"a"_s, {}, {}});
    const QJsonObject args{{u"filePath"_s, u"a.txt"_s}};
    h.server().enqueue(FakeTurn().toolCall(u"read"_s, args).toolCall(u"read"_s, args).toolCall(u"read"_s, args));
    h.server().enqueue(FakeTurn().text({u"Understood."_s}));
    h.onEvent<PermissionAsked>(this, [&h](const PermissionAsked &asked) {
        h.engine().replyPermission(asked.request.id, PermissionReply::RejectWithMessage, u"stop reading a.txt"_s);
    });
    const auto outcome = h.prompt(u"loop"_s);
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(h.server().requests().size(), 2);
    QVERIFY(h.sentText(1).contains(u"stop reading a.txt"_s));
}

void PromptLoopTest::aDoomLoopDeniedByTheAgentsRuleStopsWithTheRuleNotThePerson()
{
    EngineHarness::Setup setup;
    setup.config.insert(u"agent"_s,
                        QJsonObject{{u"build"_s, QJsonObject{{u"permission"_s,
                                                              QJsonObject{{u"doom_loop"_s, u"deny"_s}}}}}});
    EngineHarness h(setup);
    h.tools().script(u"read"_s, ToolOutput{u"same"_s, u"a"_s, {}, {}});
    const QJsonObject args{{u"filePath"_s, u"a.txt"_s}};
    h.server().enqueue(FakeTurn().toolCall(u"read"_s, args).toolCall(u"read"_s, args).toolCall(u"read"_s, args));
    h.server().enqueue(FakeTurn().text({u"never sent"_s}));
    const auto outcome = h.prompt(u"loop"_s);
    QVERIFY(outcome);
    // The rule answered: nobody was asked, and the loop stopped.
    QCOMPARE(h.sink().all<PermissionAsked>().size(), 0);
    QCOMPARE(h.server().requests().size(), 1);
    QCOMPARE(h.tools().calls().size(), 2);
    const QList<ToolPart> tools = toolParts(h.messages());
    const auto *error = std::get_if<ToolError>(&tools.last().state);
    QVERIFY(error);
    QVERIFY2(error->error.startsWith(u"The user has specified a rule which prevents you"_s), qPrintable(error->error));
    QVERIFY(error->error.contains(u"doom_loop"_s));
    QVERIFY(!error->error.contains(u"The user rejected"_s));
}

void PromptLoopTest::theDoomLoopCheckUsesTheAgentsRulesNotTheSessions()
{
    // A session's own rules are appended for tool asks; the doom-loop
    // check reads the agent's alone (reference §9), so the session's
    // allow does not silence it.
    EngineHarness h;
    Result<std::optional<Session>> stored = h.store().session(h.session());
    QVERIFY(stored && *stored);
    Session session = **stored;
    session.permission = QJsonArray{
        QJsonObject{{u"permission"_s, u"doom_loop"_s}, {u"pattern"_s, u"*"_s}, {u"action"_s, u"allow"_s}}};
    QVERIFY(h.store().upsertSession(session));
    h.tools().script(u"read"_s, ToolOutput{u"same"_s, u"a"_s, {}, {}});
    const QJsonObject args{{u"filePath"_s, u"a.txt"_s}};
    h.server().enqueue(FakeTurn().toolCall(u"read"_s, args).toolCall(u"read"_s, args).toolCall(u"read"_s, args));
    h.onEvent<PermissionAsked>(this, [&h](const PermissionAsked &asked) {
        h.engine().replyPermission(asked.request.id, PermissionReply::Reject);
    });
    const auto outcome = h.prompt(u"loop"_s);
    QVERIFY(outcome);
    const QList<PermissionAsked> asked = h.sink().all<PermissionAsked>();
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.first().request.permission, u"doom_loop"_s);
    const QList<ToolPart> tools = toolParts(h.messages());
    const auto *error = std::get_if<ToolError>(&tools.last().state);
    QVERIFY(error);
    QCOMPARE(error->error, u"The user rejected permission to use this specific tool call."_s);
}

void PromptLoopTest::retriesStopAtTheCapWithAClearError()
{
    EngineHarness::Setup setup;
    setup.retry.maxAttempts = 2;
    EngineHarness h(setup);
    const QByteArray body = R"({"error":{"message":"overloaded","type":"server_error"}})";
    for (int i = 0; i < 3; ++i)
        h.server().enqueue(FakeTurn::httpError(503, body, {{"retry-after-ms", "10"}}));
    const auto outcome = h.prompt(u"hi"_s);
    QVERIFY(outcome);
    QVERIFY(outcome->error);
    QCOMPARE(h.server().requests().size(), 3);
    int retries = 0;
    for (const SessionStatusChanged &status : h.sink().all<SessionStatusChanged>())
        retries += status.status.type == SessionStatus::Type::Retry ? 1 : 0;
    QCOMPARE(retries, 2);
    QVERIFY2(outcome->error->message().contains(u"overloaded"_s), qPrintable(outcome->error->message()));
}

void PromptLoopTest::aNonRetryableErrorEndsWithItsMessage()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn::httpError(400, R"({"error":{"message":"bad request: no such thing","type":"invalid_request_error"}})"));
    const auto outcome = h.prompt(u"hi"_s);
    QVERIFY(outcome);
    QVERIFY(outcome->error);
    QVERIFY2(outcome->error->message().contains(u"no such thing"_s), qPrintable(outcome->error->message()));
    QCOMPARE(h.server().requests().size(), 1);
    QCOMPARE(lastAssistant(h.messages())->error->message(), outcome->error->message());
}

void PromptLoopTest::abortMidStreamLeavesAConsistentDatabase()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"part one "_s, u"part two "_s, u"part three"_s}).stallAfter(3));
    h.send(u"write a lot"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!h.sink().all<PartDelta>().isEmpty(), 10000);
    h.engine().abort(h.session());
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(outcome->aborted);
    const QList<MessageWithParts> messages = h.messages();
    const AssistantMessage *assistant = lastAssistant(messages);
    QVERIFY(assistant);
    QCOMPARE(assistant->error->name, u"MessageAbortedError"_s);
    // Every stored part is whole and readable; the text kept what arrived.
    bool sawText = false;
    for (const Part &part : messages.last().parts) {
        if (const TextPart *text = part.as<TextPart>()) {
            sawText = true;
            QVERIFY(text->text.startsWith(u"part one"_s));
        }
    }
    QVERIFY(sawText);
    QCOMPARE(h.sink().all<SessionStatusChanged>().last().status, SessionStatus::idle());
}

void PromptLoopTest::aCrashedToolIsSentAsInterrupted()
{
    EngineHarness h;
    // A previous run died with a tool running: the database holds a
    // running tool part and an unfinished assistant message.
    h.server().enqueue(FakeTurn().text({u"first"_s}));
    QVERIFY(h.prompt(u"first"_s));
    const QString sessionID = h.session();
    const QList<MessageWithParts> before = h.messages();
    AssistantMessage crashed;
    crashed.id = Identifier::ascending(Identifier::Prefix::Message);
    crashed.sessionID = sessionID;
    crashed.created = QDateTime::currentMSecsSinceEpoch();
    crashed.parentID = before.first().info.id();
    crashed.providerID = u"fake"_s;
    crashed.modelID = u"fake-model"_s;
    crashed.agent = u"build"_s;
    crashed.mode = u"build"_s;
    QVERIFY(h.store().updateMessage(Message(crashed)));
    Part tool{Identifier::ascending(Identifier::Prefix::Part), sessionID, crashed.id,
              ToolPart{u"call_crash"_s, u"bash"_s, ToolPending{}, std::nullopt, {}}, {}};
    QVERIFY(tool.as<ToolPart>()->start(QJsonObject{{u"command"_s, u"make"_s}}, crashed.created));
    QVERIFY(h.store().updatePart(tool));

    h.server().enqueue(FakeTurn().text({u"resumed"_s}));
    QVERIFY(h.prompt(u"go on"_s));
    QVERIFY(h.sentText(1).contains(u"[Tool execution was interrupted]"_s));
}

void PromptLoopTest::overflowSummarisesAndContinues()
{
    EngineHarness::Setup setup;
    setup.contextLimit = 20000; // usable: 20000 - 4000 output
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn().text({u"a long answer"_s}).usage(17000, 10));
    h.server().enqueue(FakeTurn().text({u"## Goal\nsummary"_s}).usage(1000, 50));
    h.server().enqueue(FakeTurn().text({u"continuing"_s}).usage(2000, 10));
    const auto outcome = h.prompt(u"big task"_s);
    QVERIFY(outcome);
    QVERIFY2(!outcome->error, outcome->error ? qPrintable(outcome->error->message()) : "");
    QCOMPARE(h.server().requests().size(), 3);
    QCOMPARE(h.sink().all<SessionCompacted>().size(), 1);
    const QList<MessageWithParts> messages = h.messages();
    // user, answer, compaction request, summary, continue message, answer
    QCOMPARE(roles(messages), (QStringList{u"user"_s, u"assistant"_s, u"user"_s, u"assistant"_s, u"user"_s,
                                           u"assistant"_s}));
    QVERIFY(messages.at(2).parts.first().as<CompactionPart>());
    QVERIFY(messages.at(3).info.assistant()->isSummary());
    QVERIFY(messages.at(4).parts.first().as<TextPart>()->text.contains(u"Continue if you have next steps"_s));
    // The summary request asked for the summary; the last request starts
    // from the summary, not the whole history.
    QVERIFY(h.sentText(1).contains(u"Provide a detailed prompt"_s));
    QVERIFY(!h.sentText(2).contains(u"a long answer"_s));
    QVERIFY(h.sentText(2).contains(u"summary"_s));
}

void PromptLoopTest::autoFalseIsHonoured()
{
    // OpenCode users report compaction.auto = false being ignored.
    EngineHarness::Setup setup;
    setup.contextLimit = 20000;
    setup.config.insert(u"compaction"_s, QJsonObject{{u"auto"_s, false}});
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn().text({u"a long answer"_s}).usage(17000, 10));
    const auto outcome = h.prompt(u"big task"_s);
    QVERIFY(outcome);
    QCOMPARE(h.server().requests().size(), 1);
    QCOMPARE(h.sink().all<SessionCompacted>().size(), 0);
    QCOMPARE(roles(h.messages()), (QStringList{u"user"_s, u"assistant"_s}));
}

void PromptLoopTest::autoFalseStopsAtAProviderOverflowWithoutAskingForASummary()
{
    // The provider, not the token count, says the request is too large.
    EngineHarness::Setup setup;
    setup.config.insert(u"compaction"_s, QJsonObject{{u"auto"_s, false}});
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn::httpError(400, ContextOverflowBody));
    // What a summary and the turn after it would get, were one asked for.
    h.server().enqueue(FakeTurn().text({u"## Goal\nsummary"_s}).usage(1000, 50));
    h.server().enqueue(FakeTurn().text({u"continuing"_s}).usage(2000, 10));
    const auto outcome = h.prompt(u"big task"_s);
    QVERIFY(outcome);
    QVERIFY(outcome->error);
    QCOMPARE(outcome->error->name, u"ContextOverflowError"_s);
    QCOMPARE(h.server().requests().size(), 1);
    QCOMPARE(h.sink().all<SessionCompacted>().size(), 0);
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(roles(messages), (QStringList{u"user"_s, u"assistant"_s}));
    // The answer that could not be given says why.
    QVERIFY(lastAssistant(messages)->error);
    QCOMPARE(lastAssistant(messages)->error->name, u"ContextOverflowError"_s);
}

void PromptLoopTest::compactionThatCannotHelpStopsWithAnError()
{
    // Every answer after a summary overflows again (the system prompt and
    // tools alone are too big): OpenCode compacts forever; qcode stops.
    EngineHarness::Setup setup;
    setup.contextLimit = 20000;
    setup.maxConsecutiveCompactions = 2;
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn().text({u"answer"_s}).usage(17000, 10));
    for (int i = 0; i < 2; ++i) {
        h.server().enqueue(FakeTurn().text({u"summary"_s}).usage(1000, 10));
        h.server().enqueue(FakeTurn().text({u"answer"_s}).usage(17000, 10));
    }
    const auto outcome = h.prompt(u"go"_s);
    QVERIFY(outcome);
    QVERIFY(outcome->error);
    QCOMPARE(outcome->error->name, u"ContextOverflowError"_s);
    QVERIFY2(outcome->error->message().contains(u"compaction"_s), qPrintable(outcome->error->message()));
    QCOMPARE(h.server().requests().size(), 5);
    QCOMPARE(h.server().pendingTurns(), 0);
}

void PromptLoopTest::compactionsWithSuccessfulStepsBetweenThemNeverReachTheCap()
{
    // A long autonomous run overflows now and then; each summary lets it
    // go on. Only compactions in a row count towards the cap.
    EngineHarness::Setup setup;
    setup.contextLimit = 20000;
    setup.maxConsecutiveCompactions = 1;
    EngineHarness h(setup);
    h.tools().script(u"glob"_s, ToolOutput{u"a.txt"_s, u"*"_s, {}, {}});
    h.server().enqueue(FakeTurn().toolCall(u"glob"_s, QJsonObject{{u"pattern"_s, u"*.cpp"_s}}).usage(17000, 10));
    h.server().enqueue(FakeTurn().text({u"first summary"_s}).usage(1000, 10));
    h.server().enqueue(FakeTurn().toolCall(u"glob"_s, QJsonObject{{u"pattern"_s, u"*.h"_s}}).usage(2000, 10));
    h.server().enqueue(FakeTurn().toolCall(u"glob"_s, QJsonObject{{u"pattern"_s, u"*.txt"_s}}).usage(17000, 10));
    h.server().enqueue(FakeTurn().text({u"second summary"_s}).usage(1000, 10));
    h.server().enqueue(FakeTurn().text({u"all done"_s}).usage(2000, 10));
    const auto outcome = h.prompt(u"a long task"_s);
    QVERIFY(outcome);
    QVERIFY2(!outcome->error, outcome->error ? qPrintable(outcome->error->message()) : "");
    QCOMPARE(h.sink().all<SessionCompacted>().size(), 2);
    QCOMPARE(h.server().requests().size(), 6);
    QCOMPARE(h.server().pendingTurns(), 0);
}

void PromptLoopTest::anOverflowWithAPromptQueuedCutsTheHistoryAtItsOwnRequest()
{
    EngineHarness::Setup setup;
    setup.contextLimit = 20000;
    EngineHarness h(setup);
    h.tools().holdUntilReleased(u"slow"_s);
    h.server().enqueue(FakeTurn().toolCall(u"slow"_s, QJsonObject{}, u"call_1"_s).usage(17000, 10));
    h.server().enqueue(FakeTurn().text({u"## Goal\nthe summary"_s}).usage(1000, 50));
    h.server().enqueue(FakeTurn().text({u"answered"_s}).usage(2000, 10));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"an old request"_s);
    QVERIFY(started.wait(10000));
    // Queued while the step that overflows runs.
    h.send(u"a queued question"_s);
    QTRY_COMPARE(h.sink().all<PromptQueued>().size(), 1);
    h.tools().release();
    const auto first = h.waitFinished();
    const auto second = h.waitFinished();
    QVERIFY(first && second);
    QVERIFY2(!first->error, first->error ? qPrintable(first->error->message()) : "");
    QCOMPARE(h.server().requests().size(), 3);

    const QList<MessageWithParts> messages = h.messages();
    // user, tool step, compaction request, summary, continue message,
    // the queued prompt, its answer
    QCOMPARE(roles(messages), (QStringList{u"user"_s, u"assistant"_s, u"user"_s, u"assistant"_s, u"user"_s,
                                           u"user"_s, u"assistant"_s}));
    QVERIFY(messages.at(2).parts.first().as<CompactionPart>());
    QVERIFY(messages.at(3).info.assistant()->isSummary());
    QCOMPARE(messages.at(3).info.assistant()->parentID, messages.at(2).info.id());
    // The queued prompt is answered after the summary, not summarised.
    QVERIFY(!h.sentText(1).contains(u"a queued question"_s));
    QVERIFY(h.sentText(2).contains(u"a queued question"_s));
    // The history was cut at the compaction request.
    QVERIFY(!h.sentText(2).contains(u"an old request"_s));
    QVERIFY(h.sentText(2).contains(u"the summary"_s));
}

void PromptLoopTest::aCompactionThatStopsReportsItsOwnErrorNotAnOlderSummarys()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"answer"_s}));
    QVERIFY(h.prompt(u"hi"_s));
    // The first compaction stops: the summary request itself is too large.
    h.server().enqueue(FakeTurn::httpError(400, ContextOverflowBody));
    h.engine().compact(h.session());
    const auto first = h.waitFinished();
    QVERIFY(first && first->error);
    QVERIFY2(first->error->message().contains(u"too large to compact"_s), qPrintable(first->error->message()));

    // The next one stops before its summary is written.
    QVERIFY(refuseSummaries(h.databasePath()));
    h.engine().compact(h.session());
    const auto second = h.waitFinished();
    QVERIFY(second && second->error);
    QVERIFY2(!second->error->message().contains(u"too large to compact"_s), qPrintable(second->error->message()));
    QVERIFY2(second->error->message().contains(u"no room for a summary"_s), qPrintable(second->error->message()));
    QCOMPARE(h.server().requests().size(), 2);
}

void PromptLoopTest::pruneClearsOldToolOutputAfterTheLoop()
{
    EngineHarness h;
    h.tools().script(u"bash"_s, ToolOutput{QString(200000, u'x'), u"big"_s, {}, {}});
    h.server().enqueue(FakeTurn().toolCall(u"bash"_s, QJsonObject{{u"command"_s, u"cat big"_s}}));
    h.server().enqueue(FakeTurn().text({u"done"_s}));
    QVERIFY(h.prompt(u"first"_s));
    h.server().enqueue(FakeTurn().text({u"ok"_s}));
    QVERIFY(h.prompt(u"second"_s));
    h.server().enqueue(FakeTurn().text({u"ok"_s}));
    QVERIFY(h.prompt(u"third"_s));
    const QList<ToolPart> tools = toolParts(h.messages());
    QCOMPARE(tools.size(), 1);
    const auto *completed = std::get_if<ToolCompleted>(&tools.first().state);
    QVERIFY(completed);
    QVERIFY(completed->compacted.has_value());
}

void PromptLoopTest::aSubtaskRunsAChildSession()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"child result"_s}));
    h.server().enqueue(FakeTurn().text({u"parent goes on"_s}));
    PromptInput input;
    input.sessionID = h.session();
    input.parts = {PromptPart{std::nullopt, SubtaskPart{u"find the bug"_s, u"Find bug"_s, u"general"_s,
                                                        std::nullopt, u"review"_s}}};
    h.engine().prompt(input);
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY2(!outcome->error, outcome->error ? qPrintable(outcome->error->message()) : "");
    const Result<QList<Session>> children = h.store().children(h.session());
    QVERIFY(children);
    QCOMPARE(children->size(), 1);
    QCOMPARE(children->first().title, u"Find bug (@general subagent)"_s);
    const QList<ToolPart> tools = toolParts(h.messages());
    QCOMPARE(tools.size(), 1);
    QCOMPARE(tools.first().tool, u"task"_s);
    const auto *completed = std::get_if<ToolCompleted>(&tools.first().state);
    QVERIFY(completed);
    QVERIFY(completed->output.contains(u"<task_result>\nchild result\n</task_result>"_s));
    QVERIFY(completed->output.contains(children->first().id));
    // A command's subtask is followed by the synthetic "summarize" turn,
    // then the parent's own step.
    QCOMPARE(h.server().requests().size(), 2);
    QVERIFY(h.sentText(1).contains(u"Summarize the task tool output above"_s));
}

void PromptLoopTest::promptsSentWhileBusyAreQueuedAndWrapped()
{
    EngineHarness h;
    h.tools().script(u"glob"_s, ToolOutput{u"a.txt"_s, u"*"_s, {}, {}});
    h.tools().holdUntilAbort(u"slow"_s);
    h.server().enqueue(FakeTurn().toolCall(u"glob"_s, QJsonObject{{u"pattern"_s, u"*"_s}}).trickle(std::chrono::milliseconds(50), 40));
    h.server().enqueue(FakeTurn().text({u"both done"_s}));
    QSignalSpy requests(&h.server(), &FakeProviderServer::requestReceived);
    h.send(u"first"_s);
    QVERIFY(requests.wait(10000));
    h.send(u"second, while busy"_s);
    const auto first = h.waitFinished();
    const auto second = h.waitFinished();
    QVERIFY(first && second);
    QCOMPARE(first->messageID, second->messageID);
    QCOMPARE(h.server().requests().size(), 2);
    QVERIFY(h.sentText(1).contains(u"The user sent the following message:"_s));
    QVERIFY(h.sentText(1).contains(u"second, while busy"_s));
    // Wrapped in memory only: the stored text is what the person typed.
    bool stored = false;
    for (const MessageWithParts &message : h.messages()) {
        for (const Part &part : message.parts) {
            if (const TextPart *text = part.as<TextPart>(); text && text->text == u"second, while busy"_s)
                stored = true;
        }
    }
    QVERIFY(stored);
}

void PromptLoopTest::anUnknownModelIsAClearError()
{
    EngineHarness h;
    PromptInput input;
    input.sessionID = h.session();
    input.model = ModelRef{u"fake"_s, u"fake-modle"_s};
    input.parts = {PromptPart::text(u"hi"_s)};
    h.engine().prompt(input);
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(outcome->error);
    QVERIFY2(outcome->error->message().contains(u"Model not found: fake/fake-modle"_s),
             qPrintable(outcome->error->message()));
    QVERIFY(outcome->error->message().contains(u"Did you mean: fake/fake-model"_s));
    QCOMPARE(h.server().requests().size(), 0);
}

void PromptLoopTest::manualCompactionSummarisesAndStops()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"answer"_s}));
    QVERIFY(h.prompt(u"hi"_s));
    h.server().enqueue(FakeTurn().text({u"the summary"_s}));
    h.engine().compact(h.session());
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(h.server().requests().size(), 2);
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(roles(messages), (QStringList{u"user"_s, u"assistant"_s, u"user"_s, u"assistant"_s}));
    QVERIFY(messages.last().info.assistant()->isSummary());
    QCOMPARE(messages.at(2).parts.first().as<CompactionPart>()->automatic, false);
}

void PromptLoopTest::theEngineRunsOnItsOwnThread()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    QThread *engineThread = h.engine().thread();
    QVERIFY(engineThread != QThread::currentThread());
    // Every signal reaches this thread queued, in order.
    QList<QThread *> deliveredOn;
    h.onEvent<PartDelta>(this, [&deliveredOn](const PartDelta &) { deliveredOn.append(QThread::currentThread()); });
    h.server().enqueue(FakeTurn().text({u"one "_s, u"two "_s, u"three"_s}));
    const auto outcome = h.prompt(u"hi"_s);
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(deliveredOn.size(), 3);
    for (QThread *thread : std::as_const(deliveredOn))
        QCOMPARE(thread, QThread::currentThread());
    QStringList deltas;
    for (const PartDelta &delta : h.sink().all<PartDelta>())
        deltas.append(delta.delta);
    QCOMPARE(deltas.join(QString()), u"one two three"_s);
}

void PromptLoopTest::theFirstExchangeGetsATitle()
{
    EngineHarness::Setup setup;
    setup.generateTitles = true;
    EngineHarness h(setup);
    // The title call and the answer run at once; both get the same text,
    // so the order the server sees them in does not matter.
    h.server().enqueue(FakeTurn().text({u"<think>hmm</think>\nFixing the login page crash on Safari"_s}));
    h.server().enqueue(FakeTurn().text({u"<think>hmm</think>\nFixing the login page crash on Safari"_s}));
    QVERIFY(h.prompt(u"the login page crashes on Safari, fix it"_s));
    QVERIFY(QTest::qWaitFor([&h] { return h.server().requests().size() == 2 && !h.sink().all<SessionUpdated>().isEmpty()
                                          && h.sink().all<SessionUpdated>().last().info.title.startsWith(u"Fixing"_s); },
                            5000));
    const Result<std::optional<Session>> session = h.store().session(h.session());
    QVERIFY(session && *session);
    QCOMPARE((*session)->title, u"Fixing the login page crash on Safari"_s);
    QVERIFY((*session)->title.size() <= 50);
}

void PromptLoopTest::windingDownWaitsForATitleWithinItsGrace()
{
    EngineHarness::Setup setup;
    setup.generateTitles = true;
    EngineHarness h(setup);
    // Both calls (title and answer, in either order) arrive slowly.
    for (int i = 0; i < 2; ++i)
        h.server().enqueue(FakeTurn().text({u"Fixing the login page crash"_s}).trickle(std::chrono::milliseconds(20), 16));
    h.send(u"the login page crashes, fix it"_s);
    QTRY_COMPARE_WITH_TIMEOUT(h.server().requests().size(), 2, 5000);

    // The title is on its way when the engine is asked to wind down: it is
    // saved before woundDown says nothing is left.
    std::optional<QString> titleWhenWoundDown;
    connect(&h.engine(), &Engine::woundDown, this, [&] {
        const Result<std::optional<Session>> session = h.store().session(h.session());
        titleWhenWoundDown = session && *session ? (*session)->title : QString();
    });
    h.engine().windDown(10000);
    QTRY_VERIFY_WITH_TIMEOUT(titleWhenWoundDown.has_value(), 10000);
    QCOMPARE(*titleWhenWoundDown, u"Fixing the login page crash"_s);
    QVERIFY(h.waitFinished());
}

void PromptLoopTest::windingDownCutsATitleThatDoesNotCome()
{
    EngineHarness::Setup setup;
    setup.generateTitles = true;
    EngineHarness h(setup);
    for (int i = 0; i < 2; ++i)
        h.server().enqueue(FakeTurn().text({u"Fixing"_s, u" the crash"_s}).stallAfter(1));
    h.send(u"the login page crashes, fix it"_s);
    QTRY_COMPARE_WITH_TIMEOUT(h.server().requests().size(), 2, 5000);

    QSignalSpy woundDown(&h.engine(), &Engine::woundDown);
    h.engine().windDown(0);
    QVERIFY(woundDown.wait(5000));
    const Result<std::optional<Session>> session = h.store().session(h.session());
    QVERIFY(session && *session);
    QVERIFY2(TitleGenerator::isDefaultTitle((*session)->title), qPrintable((*session)->title));
    for (const SessionUpdated &update : h.sink().all<SessionUpdated>())
        QVERIFY2(TitleGenerator::isDefaultTitle(update.info.title), qPrintable(update.info.title));

    // The answer that was streaming was stopped too.
    const std::optional<PromptOutcome> outcome = h.waitFinished();
    QVERIFY(outcome && outcome->aborted);
    QCOMPARE(h.server().requests().size(), 2);
}

void PromptLoopTest::windingDownStopsARunningTurnAndSavesItStopped()
{
    EngineHarness h;
    QVERIFY(h.sendAndHold(u"first"_s, u"never sent"_s));
    h.send(u"queued behind it"_s);
    QTRY_COMPARE(h.sink().all<PromptQueued>().size(), 1);

    QSignalSpy woundDown(&h.engine(), &Engine::woundDown);
    h.engine().windDown(0);
    QVERIFY(woundDown.wait(5000));
    // Both prompt() calls are answered, as stopped; the queued one never ran.
    for (int i = 0; i < 2; ++i) {
        const std::optional<PromptOutcome> outcome = h.waitFinished();
        QVERIFY(outcome && outcome->aborted);
    }
    QCOMPARE(h.server().requests().size(), 1);
    QCOMPARE(h.userTexts(), QStringList{u"first"_s});

    // What was stored is complete and says it was stopped: nothing is left
    // "running" for the next start to show.
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(messages.size(), 2);
    const AssistantMessage *assistant = messages.last().info.assistant();
    QVERIFY(assistant && assistant->completed);
    QVERIFY(assistant->error && assistant->error->name == u"MessageAbortedError"_s);
    bool sawTool = false;
    for (const Part &part : messages.last().parts) {
        if (const ToolPart *tool = part.as<ToolPart>()) {
            sawTool = true;
            // The scripted tool ends on the abort like a real one; its part
            // is finished either way, never pending or running.
            QVERIFY(!std::holds_alternative<ToolPending>(tool->state));
            QVERIFY(!std::holds_alternative<ToolRunning>(tool->state));
        }
    }
    QVERIFY(sawTool);
    QCOMPARE(h.sink().all<SessionStatusChanged>().last().status, SessionStatus::idle());
}

void PromptLoopTest::forkCopiesUpToAMessage()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"one"_s}));
    QVERIFY(h.prompt(u"first"_s));
    h.server().enqueue(FakeTurn().text({u"two"_s}));
    QVERIFY(h.prompt(u"second"_s));
    const QList<MessageWithParts> original = h.messages();
    QCOMPARE(original.size(), 4);
    const QString forkID = Identifier::descending(Identifier::Prefix::Session);
    const auto created = [&h, &forkID] {
        const QList<SessionCreated> sessions = h.sink().all<SessionCreated>();
        return std::any_of(sessions.cbegin(), sessions.cend(),
                           [&forkID](const SessionCreated &event) { return event.info.id == forkID; });
    };
    h.engine().fork(h.session(), original.at(1).info.id(), forkID);
    QTRY_VERIFY_WITH_TIMEOUT(created(), 5000);
    const Result<QList<MessageWithParts>> copy = h.store().messages(forkID);
    QVERIFY(copy);
    QCOMPARE(copy->size(), 2);
    QVERIFY(copy->at(0).info.id() != original.at(0).info.id());
    // The answer still points at its (renamed) question.
    QCOMPARE(copy->at(1).info.assistant()->parentID, copy->at(0).info.id());
    QCOMPARE(copy->at(1).parts.size(), original.at(1).parts.size());
    // The original is untouched.
    QCOMPARE(h.messages().size(), 4);
}

void PromptLoopTest::deleteRemovesTheSessionAndItsChildren()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"child result"_s}));
    h.server().enqueue(FakeTurn().text({u"parent goes on"_s}));
    PromptInput input;
    input.sessionID = h.session();
    input.parts = {PromptPart{std::nullopt, SubtaskPart{u"look"_s, u"Look"_s, u"explore"_s, std::nullopt, std::nullopt}}};
    h.engine().prompt(input);
    QVERIFY(h.waitFinished());
    QCOMPARE(h.store().children(h.session())->size(), 1);
    h.engine().deleteSession(h.session());
    QTRY_COMPARE_WITH_TIMEOUT(h.sink().all<SessionDeleted>().size(), 2, 5000);
    QVERIFY(!*h.store().session(h.session()));
    QVERIFY(h.messages().isEmpty());
}

void PromptLoopTest::abortCancelsAPendingQuestion()
{
    EngineHarness h;
    h.tools().script(u"read"_s, ToolOutput{u"same"_s, u"a"_s, {}, {}});
    const QJsonObject args{{u"filePath"_s, u"a.txt"_s}};
    h.server().enqueue(FakeTurn().toolCall(u"read"_s, args).toolCall(u"read"_s, args).toolCall(u"read"_s, args));
    h.onEvent<PermissionAsked>(this, [&h](const PermissionAsked &asked) { h.engine().abort(asked.request.sessionID); });
    const auto outcome = h.prompt(u"loop"_s);
    QVERIFY(outcome);
    QVERIFY(outcome->aborted);
    QCOMPARE(h.sink().all<PermissionReplied>().size(), 1);
    QCOMPARE(h.sink().all<PermissionReplied>().first().reply, PermissionReply::Reject);
    // No tool part is left running.
    for (const ToolPart &tool : toolParts(h.messages()))
        QVERIFY(tool.isFinished());
}

void PromptLoopTest::permissionAllowShorthandIsHonoured()
{
    // "permission": "allow" allows everything, the doom-loop question too.
    EngineHarness::Setup setup;
    setup.config.insert(u"permission"_s, u"allow"_s);
    EngineHarness h(setup);
    h.tools().script(u"read"_s, ToolOutput{u"same"_s, u"a"_s, {}, {}});
    const QJsonObject args{{u"filePath"_s, u"a.txt"_s}};
    h.server().enqueue(FakeTurn().toolCall(u"read"_s, args).toolCall(u"read"_s, args).toolCall(u"read"_s, args));
    h.server().enqueue(FakeTurn().text({u"done"_s}));
    const auto outcome = h.prompt(u"loop"_s);
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(h.sink().all<PermissionAsked>().size(), 0);
    QCOMPARE(h.tools().calls().size(), 3);
    QCOMPARE(h.server().requests().size(), 2);
}

void PromptLoopTest::instructionFilesReachTheSystemPrompt()
{
    EngineHarness h;
    QVERIFY(h.tree().write(u"project/AGENTS.md"_s, "Always answer in haiku."));
    h.server().enqueue(FakeTurn().text({u"ok"_s}));
    QVERIFY(h.prompt(u"hi"_s));
    const QByteArray body = QJsonDocument(h.requestBody(0)).toJson();
    QVERIFY(body.contains("Instructions from: "));
    QVERIFY(body.contains("Always answer in haiku."));
}

void PromptLoopTest::nothingSentToTheModelIsTranslated()
{
    // The plan agent's reminder, the system prompt and the real tools'
    // errors, all under a translator that marks every qcode text.
    MarkingTranslator translator;
    QVERIFY(QCoreApplication::installTranslator(&translator));
    const auto removeTranslator = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });
    QVERIFY(QCoreApplication::translate("qcode::EditTool", "Edit applied successfully.").startsWith(MarkingTranslator::mark()));
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.config.insert(u"permission"_s, u"allow"_s);
    EngineHarness h(setup);
    const QString missing = h.projectDirectory() + u"/missing.txt"_s;
    h.server().enqueue(FakeTurn()
                           .toolCall(u"read"_s, QJsonObject{{u"filePath"_s, missing}})
                           .toolCall(u"grep"_s, QJsonObject{{u"pattern"_s, u"(unclosed"_s}}));
    h.server().enqueue(FakeTurn().text({u"Nothing there."_s}));
    PromptInput input;
    input.sessionID = h.session();
    input.agent = u"plan"_s;
    input.parts = {PromptPart::text(u"look around"_s)};
    h.engine().prompt(input);
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QCOMPARE(h.server().requests().size(), 2);
    for (int i = 0; i < 2; ++i) {
        const QString sent = QString::fromUtf8(QJsonDocument(h.requestBody(i)).toJson());
        QVERIFY2(!sent.contains(MarkingTranslator::mark()), qPrintable(sent));
    }
    QVERIFY(h.sentText(1).contains(u"File not found"_s));
    QVERIFY(QString::fromUtf8(QJsonDocument(h.requestBody(0)).toJson()).contains(u"system-reminder"_s));
}

QTEST_GUILESS_MAIN(PromptLoopTest)
#include "tst_prompt_loop.moc"
