// The ask flow end to end (reference §9): the real bash tool asks through
// the engine, and each answer — once, always (session or project), reject,
// a rule's deny, an abort while asking — does what the person meant.

#include <QtTest>

#include "EngineHarness.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// bash asks for everything except what the config denies.
EngineHarness::Setup askingBash()
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.config.insert(u"permission"_s,
                        QJsonObject{{u"bash"_s, QJsonObject{{u"*"_s, u"ask"_s}, {u"echo secret*"_s, u"deny"_s}}}});
    return setup;
}

FakeTurn bashCall(const QString &command, const QString &callID)
{
    return FakeTurn().toolCall(u"bash"_s, QJsonObject{{u"command"_s, command}, {u"description"_s, u"Print"_s}}, callID);
}

// The state of the tool call `callID` as stored.
std::optional<ToolState> toolState(const QList<MessageWithParts> &messages, const QString &callID)
{
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            const ToolPart *tool = part.as<ToolPart>();
            if (tool && tool->callID == callID)
                return tool->state;
        }
    }
    return std::nullopt;
}

} // namespace

class PermissionFlowTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void onceRunsTheCommandAndAsksAgainNextTime()
    {
        EngineHarness h(askingBash());
        h.server().enqueue(bashCall(u"echo hello"_s, u"call_1"_s));
        h.server().enqueue(bashCall(u"echo hello"_s, u"call_2"_s));
        h.server().enqueue(FakeTurn().text({u"Done."_s}));
        h.onEvent<PermissionAsked>(this, [&h](const PermissionAsked &asked) {
            QCOMPARE(asked.request.permission, u"bash"_s);
            QCOMPARE(asked.request.patterns, QStringList{u"echo hello"_s});
            QCOMPARE(asked.request.always, QStringList{u"echo *"_s});
            QVERIFY(asked.request.tool.has_value());
            h.engine().replyPermission(asked.request.id, PermissionReply::Once);
        });
        const auto outcome = h.prompt(u"say hello twice"_s);
        QVERIFY(outcome && !outcome->error);
        QCOMPARE(h.sink().all<PermissionAsked>().size(), 2);
        const auto state = toolState(h.messages(), u"call_2"_s);
        QVERIFY(state && std::holds_alternative<ToolCompleted>(*state));
        QVERIFY(std::get<ToolCompleted>(*state).output.contains(u"hello"_s));
    }

    void alwaysForTheSessionIsNotAskedAgain()
    {
        EngineHarness h(askingBash());
        h.server().enqueue(bashCall(u"echo one"_s, u"call_1"_s));
        h.server().enqueue(bashCall(u"echo two"_s, u"call_2"_s));
        h.server().enqueue(FakeTurn().text({u"Done."_s}));
        h.onEvent<PermissionAsked>(this, [&h](const PermissionAsked &asked) {
            h.engine().replyPermission(asked.request.id, PermissionReply::Always);
        });
        const auto outcome = h.prompt(u"echo"_s);
        QVERIFY(outcome && !outcome->error);
        QCOMPARE(h.sink().all<PermissionAsked>().size(), 1);
        const auto second = toolState(h.messages(), u"call_2"_s);
        QVERIFY(second && std::holds_alternative<ToolCompleted>(*second));
        // Session scope: nothing saved for the project.
        const QString projectID = h.store().session(h.session())->value().projectID;
        const Result<std::optional<QJsonArray>> saved = h.store().permission(projectID);
        QVERIFY(saved && !*saved);
    }

    void alwaysForTheProjectIsSaved()
    {
        EngineHarness h(askingBash());
        h.server().enqueue(bashCall(u"echo one"_s, u"call_1"_s));
        h.server().enqueue(FakeTurn().text({u"Done."_s}));
        QString changedProject;
        connect(&h.engine(), &Engine::projectApprovalsChanged, this,
                [&changedProject](const QString &projectID, const PermissionRuleset &) { changedProject = projectID; });
        h.onEvent<PermissionAsked>(this, [&h](const PermissionAsked &asked) {
            h.engine().replyPermission(asked.request.id, PermissionReply::Always, {}, ApprovalScope::Project);
        });
        const auto outcome = h.prompt(u"echo"_s);
        QVERIFY(outcome && !outcome->error);
        const QString projectID = h.store().session(h.session())->value().projectID;
        QCOMPARE(changedProject, projectID);
        const Result<std::optional<QJsonArray>> saved = h.store().permission(projectID);
        QVERIFY(saved && *saved);
        const PermissionRuleset expected{PermissionRule{u"bash"_s, u"echo *"_s, PermissionAction::Allow}};
        QCOMPARE(rulesetFromJson(**saved), expected);
    }

    void aRejectStopsTheLoopAndMarksTheTool()
    {
        EngineHarness h(askingBash());
        h.server().enqueue(bashCall(u"echo no"_s, u"call_1"_s));
        h.onEvent<PermissionAsked>(this, [&h](const PermissionAsked &asked) {
            h.engine().replyPermission(asked.request.id, PermissionReply::Reject);
        });
        const auto outcome = h.prompt(u"echo"_s);
        QVERIFY(outcome);
        QCOMPARE(h.server().requests().size(), 1);
        const auto state = toolState(h.messages(), u"call_1"_s);
        QVERIFY(state && std::holds_alternative<ToolError>(*state));
        QVERIFY2(std::get<ToolError>(*state).error.contains(u"rejected"_s), qPrintable(std::get<ToolError>(*state).error));
    }

    void aRuleThatDeniesIsNotAskedAndTheModelGoesOn()
    {
        EngineHarness h(askingBash());
        h.server().enqueue(bashCall(u"echo secret-key"_s, u"call_1"_s));
        h.server().enqueue(FakeTurn().text({u"I may not."_s}));
        const auto outcome = h.prompt(u"print the secret"_s);
        QVERIFY(outcome && !outcome->error);
        QCOMPARE(h.sink().all<PermissionAsked>().size(), 0);
        QCOMPARE(h.server().requests().size(), 2);
        const auto state = toolState(h.messages(), u"call_1"_s);
        QVERIFY(state && std::holds_alternative<ToolError>(*state));
        QVERIFY2(std::get<ToolError>(*state).error.contains(u"prevents you from using"_s),
                 qPrintable(std::get<ToolError>(*state).error));
    }

    void anAbortWhileAskingCancelsTheQuestion()
    {
        EngineHarness h(askingBash());
        h.server().enqueue(bashCall(u"echo wait"_s, u"call_1"_s));
        h.onEvent<PermissionAsked>(this, [&h](const PermissionAsked &asked) { h.engine().abort(asked.request.sessionID); });
        const auto outcome = h.prompt(u"echo"_s);
        QVERIFY(outcome);
        QVERIFY(outcome->aborted);
        QCOMPARE(h.sink().all<PermissionReplied>().size(), 1);
        QCOMPARE(h.sink().all<PermissionReplied>().first().reply, PermissionReply::Reject);
        const auto state = toolState(h.messages(), u"call_1"_s);
        QVERIFY(state && std::holds_alternative<ToolError>(*state));
    }
};

QTEST_GUILESS_MAIN(PermissionFlowTest)
#include "tst_permission_flow.moc"
