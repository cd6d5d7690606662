// Slash commands through the engine (reference §2.10), and the project
// summary the window shows before anything is sent.

#include <QSignalSpy>
#include <QTest>

#include "EngineHarness.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

EngineHarness::Setup withCommands()
{
    EngineHarness::Setup setup;
    setup.config.insert(
        u"command"_s,
        QJsonObject{{u"review"_s, QJsonObject{{u"template"_s, u"Review $1 carefully.\nContext: !`echo from-the-shell`"_s},
                                              {u"description"_s, u"Reviews a file"_s}}},
                    {u"delegate"_s, QJsonObject{{u"template"_s, u"Look into $ARGUMENTS"_s},
                                                {u"agent"_s, u"general"_s},
                                                {u"description"_s, u"Delegates"_s}}}});
    return setup;
}

CommandInput commandInput(EngineHarness &h, const QString &name, const QString &arguments)
{
    CommandInput input;
    input.sessionID = h.session();
    input.command = name;
    input.arguments = arguments;
    return input;
}

} // namespace

class EngineCommandsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theExpandedTemplateIsWhatTheModelReceives();
    void aMarkdownCommandGetsItsArgumentsAppended();
    void aSubagentsCommandRunsAsASubtask();
    void anUnknownCommandIsAnErrorNamingTheKnownOnes();
    void aCommandWhileBusyIsQueuedExpanded();
    void theProjectIsDescribedAndReloaded();
    void aMissingFolderIsDescribedAsAProblem();
};

void EngineCommandsTest::theExpandedTemplateIsWhatTheModelReceives()
{
    EngineHarness h(withCommands());
    h.server().enqueue(FakeTurn().text({u"Reviewed."_s}));
    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    h.engine().command(commandInput(h, u"review"_s, u"parser.cpp \"and the lexer\""_s));
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(finished.size(), 1);
    const QString expected = u"Review parser.cpp and the lexer carefully.\nContext: from-the-shell"_s;
    QCOMPARE(h.userTexts(), QStringList{expected});
    QCOMPARE(h.messages().first().info.user()->agent, u"build"_s);
    QVERIFY(h.sentText(0).contains(u"Review parser.cpp and the lexer carefully.\\nContext: from-the-shell"_s));
}

void EngineCommandsTest::aMarkdownCommandGetsItsArgumentsAppended()
{
    EngineHarness h(withCommands());
    QVERIFY(h.tree().write(u"project/.opencode/command/notes.md"_s,
                           "---\ndescription: Takes notes\n---\nWrite notes on @opencode.json.\n"));
    h.server().enqueue(FakeTurn().text({u"Noted."_s}));
    h.engine().command(commandInput(h, u"notes"_s, u"about the config"_s));
    const auto outcome = h.waitFinished();
    QVERIFY(outcome && !outcome->error);
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(h.userTexts().first(), u"Write notes on @opencode.json.\n\nabout the config"_s);
    // The @reference became the file, read into the message.
    bool attached = false;
    for (const Part &part : messages.first().parts) {
        if (const FilePart *file = part.as<FilePart>())
            attached = attached || file->filename == u"opencode.json"_s;
    }
    QVERIFY(attached);
    QVERIFY(h.sentText(0).contains(u"fake-model"_s));
}

void EngineCommandsTest::aSubagentsCommandRunsAsASubtask()
{
    EngineHarness h(withCommands());
    h.server().enqueue(FakeTurn().text({u"child found the cause"_s}));
    h.server().enqueue(FakeTurn().text({u"The child found it."_s}));
    h.engine().command(commandInput(h, u"delegate"_s, u"the flaky test"_s));
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    const QList<MessageWithParts> messages = h.messages();
    QVERIFY(messages.size() >= 4);
    QCOMPARE(messages.first().parts.size(), 1);
    const SubtaskPart *subtask = messages.first().parts.first().as<SubtaskPart>();
    QVERIFY(subtask);
    QCOMPARE(subtask->prompt, u"Look into the flaky test"_s);
    QCOMPARE(subtask->agent, u"general"_s);
    QCOMPARE(subtask->command, u"delegate"_s);
    QCOMPARE(subtask->description, u"Delegates"_s);
    // Sent as the person's agent, answered by a child session.
    QCOMPARE(messages.first().info.user()->agent, u"build"_s);
    const Result<QList<Session>> children = h.store().children(h.session());
    QVERIFY(children);
    QCOMPARE(children->size(), 1);
    QCOMPARE(h.server().requests().size(), 2);
    QVERIFY(h.sentText(0).contains(u"Look into the flaky test"_s));
    QVERIFY(h.sentText(1).contains(u"child found the cause"_s));
}

void EngineCommandsTest::anUnknownCommandIsAnErrorNamingTheKnownOnes()
{
    EngineHarness h(withCommands());
    h.engine().command(commandInput(h, u"revew"_s, QString()));
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(outcome->error);
    QCOMPARE(outcome->error->message(), u"Command not found: \"revew\". Available commands: delegate, review"_s);
    QCOMPARE(h.sink().all<SessionError>().size(), 1);
    QVERIFY(h.messages().isEmpty());
    QVERIFY(h.server().requests().isEmpty());
}

void EngineCommandsTest::aCommandWhileBusyIsQueuedExpanded()
{
    EngineHarness h(withCommands());
    QVERIFY(h.sendAndHold(u"first"_s, u"both done"_s));
    h.engine().command(commandInput(h, u"review"_s, u"main.cpp"_s));
    QTRY_COMPARE(h.sink().all<PromptQueued>().size(), 1);
    QCOMPARE(h.sink().all<PromptQueued>().first().text, u"Review main.cpp carefully.\nContext: from-the-shell"_s);
    h.tools().release();
    QVERIFY(h.waitFinished());
    QVERIFY(h.waitFinished());
    QCOMPARE(h.userTexts().last(), u"Review main.cpp carefully.\nContext: from-the-shell"_s);
}

void EngineCommandsTest::theProjectIsDescribedAndReloaded()
{
    EngineHarness h(withCommands());
    QVERIFY(h.tree().write(u"project/.opencode/agent/reviewer.md"_s,
                           "---\ndescription: Reviews code\nmode: subagent\nmodel: fake/fake-model\ncolor: \"#3366FF\"\n---\nReview."));
    QSignalSpy described(&h.engine(), &Engine::projectDescribed);
    h.engine().describeProject(h.projectDirectory());
    QVERIFY(described.wait(5000));
    const ProjectSummary summary = described.takeFirst().first().value<ProjectSummary>();
    QVERIFY2(summary.problems.isEmpty(), qPrintable(summary.problems.join(u'\n')));
    QCOMPARE(summary.directory, h.projectDirectory());
    QCOMPARE(summary.projectID, u"global"_s);
    QCOMPARE(summary.defaultAgent, u"build"_s);
    QCOMPARE(summary.agents.first().name, u"build"_s);
    QStringList names;
    for (const AgentSummary &agent : summary.agents)
        names.append(agent.name);
    QVERIFY(names.contains(u"plan"_s) && names.contains(u"general"_s) && names.contains(u"title"_s));
    const AgentSummary reviewer = summary.agents.at(names.indexOf(u"reviewer"_s));
    QCOMPARE(reviewer.description, u"Reviews code"_s);
    QCOMPARE(reviewer.mode, AgentMode::Subagent);
    QCOMPARE(reviewer.model, (ModelRef{u"fake"_s, u"fake-model"_s}));
    QCOMPARE(reviewer.color, u"#3366FF"_s);
    QCOMPARE(summary.agents.first().color, std::nullopt);
    QVERIFY(summary.agents.at(names.indexOf(u"title"_s)).hidden);

    QCOMPARE(summary.models.size(), 1);
    const ModelSummary model = summary.models.first();
    QCOMPARE(model.providerID, u"fake"_s);
    QCOMPARE(model.modelID, u"fake-model"_s);
    QCOMPARE(model.providerName, u"Fake"_s);
    QCOMPARE(model.modelName, u"Fake model"_s);
    QCOMPARE(model.contextLimit, 100000);
    QCOMPARE(model.outputLimit, 4000);
    QCOMPARE(model.source, ModelSource::Config);
    QVERIFY(!model.isLocal());
    QCOMPARE(summary.defaultModel, (ModelRef{u"fake"_s, u"fake-model"_s}));

    QCOMPARE(summary.commands.size(), 2);
    QCOMPARE(summary.commands.at(0).name, u"delegate"_s);
    QCOMPARE(summary.commands.at(0).agent, u"general"_s);
    QVERIFY(summary.commands.at(0).subtask);
    QCOMPARE(summary.commands.at(1).name, u"review"_s);
    QCOMPARE(summary.commands.at(1).description, u"Reviews a file"_s);
    QVERIFY(!summary.commands.at(1).subtask);

    // Kept until reloaded: a new command file shows after reloadProject.
    QVERIFY(h.tree().write(u"project/.opencode/command/added.md"_s, "---\ndescription: [broken\n---\nx"));
    QVERIFY(h.tree().write(u"project/.opencode/commands/fresh.md"_s, "Fresh."));
    h.engine().describeProject(h.projectDirectory());
    QVERIFY(described.wait(5000));
    QCOMPARE(described.takeFirst().first().value<ProjectSummary>().commands.size(), 2);
    h.engine().reloadProject(h.projectDirectory());
    QVERIFY(described.wait(5000));
    const ProjectSummary reloaded = described.takeFirst().first().value<ProjectSummary>();
    QCOMPARE(reloaded.commands.size(), 3);
    QCOMPARE(reloaded.commands.at(1).name, u"fresh"_s);
    QCOMPARE(reloaded.problems.size(), 1);
    QVERIFY2(reloaded.problems.first().contains(u"added.md"_s), qPrintable(reloaded.problems.first()));
}

void EngineCommandsTest::aMissingFolderIsDescribedAsAProblem()
{
    EngineHarness h;
    QSignalSpy described(&h.engine(), &Engine::projectDescribed);
    const QString missing = h.tree().path(u"no-such-folder"_s);
    h.engine().describeProject(missing);
    QVERIFY(described.wait(5000));
    const ProjectSummary summary = described.takeFirst().first().value<ProjectSummary>();
    QCOMPARE(summary.directory, missing);
    QVERIFY(summary.agents.isEmpty());
    QCOMPARE(summary.problems.size(), 1);
    QVERIFY(summary.problems.first().contains(u"does not exist"_s));
}

QTEST_GUILESS_MAIN(EngineCommandsTest)
#include "tst_engine_commands.moc"
