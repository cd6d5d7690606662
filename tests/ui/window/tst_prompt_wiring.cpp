#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "model/Identifier.h"
#include "model/Store.h"
#include "ui/chat/ChatView.h"
#include "ui/chat/MessageWidget.h"
#include "ui/chat/parts/ToolPartWidget.h"
#include "ui/chat/tool/ToolCard.h"
#include "ui/prompt/AgentPicker.h"
#include "ui/prompt/PromptBox.h"
#include "ui/prompt/PromptCompleter.h"
#include "ui/prompt/QueuedPromptList.h"
#include "ui/prompt/QueuedPromptRow.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

// The prompt box and what the engine knows of the project: pickers filled
// from the project's agents, models and commands; "!cmd" and "/command"
// going to the engine's own calls; prompts sent while busy shown queued.
class PromptWiringTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void theProjectsAgentsModelsAndCommandsReachThePromptBox();
    void aShellPromptRunsTheCommandAsABashCard();
    void aCustomCommandSendsItsExpandedTemplate();
    void promptsSentWhileBusyAreShownQueuedAndCanBeRemoved();
    void stopEndsTheAnswerAndQueuedPromptsWaitForSendNow();
    void retryAfterAFailedTurnResumesWithoutANewMessage();
    void aSessionOpenedAgainGoesOnWithItsLastAgentAndModel();

private:
};

namespace {

// What the window's open session holds, as stored.
QList<MessageWithParts> shownMessages(EngineHarness &h, MainWindow &window)
{
    Result<QList<MessageWithParts>> messages = h.store().messages(window.controller()->currentSession());
    return messages ? *messages : QList<MessageWithParts>{};
}

QStringList typedTexts(const QList<MessageWithParts> &messages)
{
    QStringList texts;
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            const TextPart *text = part.as<TextPart>();
            if (message.info.isUser() && text && !text->synthetic.value_or(false))
                texts.append(text->text);
        }
    }
    return texts;
}

// A stored session of the project whose one prompt used `agent` and `model`.
QString storedSession(Store &store, const QString &projectID, const QString &directory, const QString &agent,
                      const ModelRef &model)
{
    Session session;
    session.id = Identifier::descending(Identifier::Prefix::Session);
    session.projectID = projectID;
    session.directory = directory;
    session.slug = agent + u"-session"_s;
    session.version = u"0.1.0"_s;
    session.title = agent + u" session"_s;
    session.time.created = session.time.updated = QDateTime::currentMSecsSinceEpoch();
    UserMessage user;
    user.id = Identifier::ascending(Identifier::Prefix::Message);
    user.sessionID = session.id;
    user.created = session.time.created;
    user.agent = agent;
    user.model = model;
    if (Result<void> saved = store.upsertSession(session); !saved) {
        qWarning("session not stored: %s", qPrintable(saved.errorMessage()));
        return {};
    }
    if (Result<void> saved = store.updateMessage(user); !saved) {
        qWarning("message not stored: %s", qPrintable(saved.errorMessage()));
        return {};
    }
    return session.id;
}

bool hasCommand(PromptBox *box, const QString &name)
{
    const QList<SlashCommand> commands = box->completer()->commands();
    return std::any_of(commands.begin(), commands.end(),
                       [&](const SlashCommand &command) { return command.name == name && !command.builtin; });
}

} // namespace

void PromptWiringTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

void PromptWiringTest::theProjectsAgentsModelsAndCommandsReachThePromptBox()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    QVERIFY(h.tree().write(u"project/.opencode/command/review.md"_s,
                           "---\ndescription: Review a file\n---\nReview $ARGUMENTS carefully.\n"));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));

    PromptBox *box = window.pane()->promptBox();
    QVERIFY(box->agentPicker()->primaryAgents().contains(u"build"_s));
    QVERIFY(box->agentPicker()->primaryAgents().contains(u"plan"_s));
    QVERIFY(!box->agentPicker()->primaryAgents().contains(u"general"_s)); // a subagent: "@general" only
    QCOMPARE(box->currentAgent(), window.controller()->project().defaultAgent);
    QVERIFY(box->currentModel().has_value());
    QCOMPARE(box->currentModel()->providerID, window.controller()->project().defaultModel->providerID);
    QVERIFY(hasCommand(box, u"review"_s));
    // The meter measures against the chosen model's context.
    QCOMPARE(window.pane()->contextLimit(), 100000);
}

void PromptWiringTest::aShellPromptRunsTheCommandAsABashCard()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));

    window.pane()->promptBox()->setText(u"!echo from-the-shell"_s);
    window.pane()->promptBox()->submit();
    ChatView *chat = window.pane()->chatView();
    QTRY_VERIFY_WITH_TIMEOUT(newestCard(chat), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(newestCard(chat)->statusKind(), ToolStatus::Kind::Done, 10000);
    QVERIFY(newestCard(chat)->title().contains(u"echo from-the-shell"_s));
    // No model was asked: the person ran the command.
    QCOMPARE(int(h.server().requests().size()), 0);
    bool sawOutput = false;
    for (const MessageWithParts &message : shownMessages(h, window)) {
        for (const Part &part : message.parts) {
            if (const ToolPart *tool = part.as<ToolPart>())
                if (const auto *done = std::get_if<ToolCompleted>(&tool->state))
                    sawOutput = sawOutput || done->output.contains(u"from-the-shell"_s);
        }
    }
    QVERIFY(sawOutput);
}

void PromptWiringTest::aCustomCommandSendsItsExpandedTemplate()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    QVERIFY(h.tree().write(u"project/.opencode/command/review.md"_s, "Review $ARGUMENTS carefully.\n"));
    h.server().enqueue(FakeTurn().text({u"Looks fine."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QSignalSpy finished(&h.engine(), &Engine::promptFinished);

    window.pane()->promptBox()->setText(u"/review main.cpp"_s);
    window.pane()->promptBox()->submit();
    QVERIFY(finished.wait(10000));
    QCOMPARE(int(h.server().requests().size()), 1);
    QVERIFY(h.sentText(0).contains(u"Review main.cpp carefully."_s));
}

void PromptWiringTest::promptsSentWhileBusyAreShownQueuedAndCanBeRemoved()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QVERIFY(h.sendAndHold(u"first"_s, u"Answered."_s));
    window.controller()->showSession(h.session());
    QTRY_VERIFY(window.pane()->promptBox()->isBusy());

    PromptBox *box = window.pane()->promptBox();
    box->setText(u"drop me"_s);
    box->submit();
    QTRY_COMPARE_WITH_TIMEOUT(box->queuedList()->rows().size(), 1, 10000);
    QCOMPARE(box->queuedList()->rows().first()->text(), u"drop me"_s);
    box->setText(u"keep me"_s);
    box->submit();
    QTRY_COMPARE(box->queuedList()->rows().size(), 2);

    box->queuedList()->rows().first()->removeButton()->click();
    QTRY_COMPARE(box->queuedList()->rows().size(), 1);
    QCOMPARE(box->queuedList()->rows().first()->text(), u"keep me"_s);

    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    h.tools().release();
    QTRY_COMPARE_WITH_TIMEOUT(box->queuedList()->rows().size(), 0, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(h.session()), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(h.userTexts(), (QStringList{u"first"_s, u"keep me"_s}), 10000);
}

void PromptWiringTest::stopEndsTheAnswerAndQueuedPromptsWaitForSendNow()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    h.tools().holdUntilAbort(u"slow"_s);
    h.server().enqueue(FakeTurn().toolCall(u"slow"_s, QJsonObject{}, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"Answered the queued one."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QSignalSpy started(&h.tools(), &ScriptedToolRunner::started);
    h.send(u"first"_s);
    QVERIFY(started.wait(10000));
    window.controller()->showSession(h.session());
    PromptBox *box = window.pane()->promptBox();
    QTRY_VERIFY(box->isBusy());
    box->setText(u"queued one"_s);
    box->submit();
    QTRY_COMPARE_WITH_TIMEOUT(box->queuedList()->rows().size(), 1, 10000);

    // Esc in the prompt box stops the answer; the queued prompt stays, unsent.
    box->editor()->setFocus();
    QTest::keyClick(box->editor(), Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(h.session()), 10000);
    QCOMPARE(box->queuedList()->rows().size(), 1);
    QCOMPARE(box->queuedList()->rows().first()->text(), u"queued one"_s);
    QVERIFY(box->queuedList()->rows().first()->sendNowButton()->isVisible());
    QCOMPARE(h.userTexts(), QStringList{u"first"_s});
    QCOMPARE(h.server().requests().size(), 1);

    box->queuedList()->rows().first()->sendNowButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(box->queuedList()->rows().size(), 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(h.userTexts(), (QStringList{u"first"_s, u"queued one"_s}), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(h.session()), 10000);
    QCOMPARE(h.server().requests().size(), 2);
}

void PromptWiringTest::retryAfterAFailedTurnResumesWithoutANewMessage()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn::httpError(400, R"({"error":{"type":"invalid_request_error","message":"bad"}})"));
    h.server().enqueue(FakeTurn().text({u"Second time lucky."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    window.pane()->promptBox()->setText(u"try"_s);
    window.pane()->promptBox()->submit();
    QVERIFY(finished.wait(10000));

    const QList<MessageWithParts> failed = shownMessages(h, window);
    QVERIFY(!failed.isEmpty());
    QVERIFY(failed.last().info.assistant() && failed.last().info.assistant()->error);
    window.controller()->retry(failed.last().info.id());
    QVERIFY(finished.wait(10000));
    QCOMPARE(typedTexts(shownMessages(h, window)), QStringList{u"try"_s});
    QCOMPARE(int(h.server().requests().size()), 2);
}

void PromptWiringTest::aSessionOpenedAgainGoesOnWithItsLastAgentAndModel()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    SessionController *controller = window.controller();
    PromptBox *box = window.pane()->promptBox();
    const ModelRef usable = *controller->project().defaultModel;
    const ModelRef gone{u"elsewhere"_s, u"gone-model"_s};
    const QString planned = storedSession(h.store(), controller->projectID(), h.projectDirectory(), u"plan"_s, usable);
    const QString built = storedSession(h.store(), controller->projectID(), h.projectDirectory(), u"build"_s, gone);
    QVERIFY(!planned.isEmpty() && !built.isEmpty());
    controller->reloadSessions();

    controller->showSession(planned);
    QCOMPARE(box->currentAgent(), u"plan"_s);
    QVERIFY(box->currentModel().has_value());
    QCOMPARE(box->currentModel()->providerID, usable.providerID);
    QCOMPARE(box->currentModel()->modelID, usable.modelID);

    // A model the project cannot call now is still named, not replaced.
    controller->showSession(built);
    QCOMPARE(box->currentAgent(), u"build"_s);
    QCOMPARE(box->currentModel()->providerID, gone.providerID);
    QCOMPARE(box->currentModel()->modelID, gone.modelID);

    controller->showSession(planned);
    QCOMPARE(box->currentAgent(), u"plan"_s);

    // A new session starts with the choice in the picker.
    controller->newSession();
    QCOMPARE(box->currentAgent(), u"plan"_s);
    QCOMPARE(box->currentModel()->modelID, usable.modelID);
}

QTEST_MAIN(PromptWiringTest)
#include "tst_prompt_wiring.moc"
