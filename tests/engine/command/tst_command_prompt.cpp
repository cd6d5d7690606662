// What a slash command sends (reference §2.10): its agent and model, a
// subtask or the template's parts, @references and the person's files.

#include <QDir>
#include <QJsonObject>
#include <QTest>

#include "TempTree.h"
#include "engine/agent/AgentRegistry.h"
#include "engine/command/CommandPrompt.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

const ModelRef sessionModel{u"fake"_s, u"session-model"_s};

CommandDefinition command(const QString &name, const QString &text)
{
    return CommandDefinition{name, text, std::nullopt, std::nullopt, std::nullopt, std::nullopt, u"config"_s};
}

CommandInput input(const QString &name)
{
    CommandInput input;
    input.sessionID = u"ses_1"_s;
    input.command = name;
    return input;
}

} // namespace

class CommandPromptTest : public QObject
{
    Q_OBJECT

private:
    test::TempTree m_tree;
    AgentRegistry m_agents;

    CommandDefaults defaults() const
    {
        CommandDefaults defaults;
        defaults.agents = &m_agents;
        defaults.defaultAgent = u"build"_s;
        defaults.currentModel = sessionModel;
        defaults.checkModel = [](const ModelRef &ref) -> Result<void> {
            if (ref.modelID == u"missing"_s)
                return Error(u"Model not found: %1/%2."_s.arg(ref.providerID, ref.modelID));
            return {};
        };
        defaults.referenceRoot = m_tree.path(u"project"_s);
        defaults.homeDirectory = m_tree.path(u"home"_s);
        return defaults;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(m_tree.path(u"project"_s)));
        const QJsonObject config{
            {u"agent"_s,
             QJsonObject{{u"reviewer"_s, QJsonObject{{u"mode"_s, u"subagent"_s}, {u"model"_s, u"fake/reviewer-model"_s}}},
                         {u"writer"_s, QJsonObject{{u"mode"_s, u"primary"_s}, {u"model"_s, u"fake/writer-model"_s}}}}}};
        AgentPaths paths;
        paths.dataDirectory = m_tree.path(u"data"_s);
        paths.worktree = m_tree.path(u"project"_s);
        m_agents = AgentRegistry::build(config, {}, paths);
    }

    void theModelComesFromTheCommandThenItsAgentThenTheInputThenTheSession()
    {
        CommandDefinition own = command(u"c"_s, u"t"_s);
        own.model = ModelRef{u"fake"_s, u"command-model"_s};
        own.agent = u"writer"_s;
        CommandInput picked = input(u"c"_s);
        picked.model = ModelRef{u"fake"_s, u"picked-model"_s};
        QCOMPARE(CommandPrompt::plan(own, picked, defaults())->taskModel, (ModelRef{u"fake"_s, u"command-model"_s}));
        own.model.reset();
        QCOMPARE(CommandPrompt::plan(own, picked, defaults())->taskModel, (ModelRef{u"fake"_s, u"writer-model"_s}));
        own.agent = u"build"_s; // build names no model
        QCOMPARE(CommandPrompt::plan(own, picked, defaults())->taskModel, (ModelRef{u"fake"_s, u"picked-model"_s}));
        picked.model.reset();
        QCOMPARE(CommandPrompt::plan(own, picked, defaults())->taskModel, sessionModel);
    }

    void theAgentComesFromTheCommandThenTheInputThenTheDefault()
    {
        CommandInput picked = input(u"c"_s);
        QCOMPARE(CommandPrompt::plan(command(u"c"_s, u"t"_s), picked, defaults())->agent, u"build"_s);
        picked.agent = u"plan"_s;
        QCOMPARE(CommandPrompt::plan(command(u"c"_s, u"t"_s), picked, defaults())->agent, u"plan"_s);
        CommandDefinition own = command(u"c"_s, u"t"_s);
        own.agent = u"writer"_s;
        const Result<CommandPlan> plan = CommandPrompt::plan(own, picked, defaults());
        QCOMPARE(plan->agent, u"writer"_s);
        // Not a subtask: the message is the command agent's.
        QCOMPARE(plan->userAgent, u"writer"_s);
        QCOMPARE(plan->userModel, (ModelRef{u"fake"_s, u"writer-model"_s}));
    }

    void anUnknownAgentOrModelStopsTheCommand()
    {
        CommandDefinition own = command(u"c"_s, u"t"_s);
        own.agent = u"nobody"_s;
        const Result<CommandPlan> noAgent = CommandPrompt::plan(own, input(u"c"_s), defaults());
        QVERIFY(!noAgent);
        QVERIFY2(noAgent.errorMessage().startsWith(u"Agent not found: \"nobody\". Available agents: build"_s),
                 qPrintable(noAgent.errorMessage()));
        own.agent.reset();
        own.model = ModelRef{u"fake"_s, u"missing"_s};
        const Result<CommandPlan> noModel = CommandPrompt::plan(own, input(u"c"_s), defaults());
        QVERIFY(!noModel);
        QCOMPARE(noModel.errorMessage(), u"Model not found: fake/missing."_s);
    }

    void aSubagentsCommandIsOneSubtaskSentAsThePersonsAgent()
    {
        CommandDefinition own = command(u"review"_s, u"t"_s);
        own.agent = u"reviewer"_s;
        own.description = u"Reviews the change"_s;
        CommandInput picked = input(u"review"_s);
        picked.agent = u"plan"_s;
        picked.files = {PromptPart::text(u"dropped"_s)};
        const Result<CommandPlan> plan = CommandPrompt::plan(own, picked, defaults());
        QVERIFY(plan);
        QVERIFY(plan->subtask);
        QCOMPARE(plan->userAgent, u"plan"_s);
        QCOMPARE(plan->userModel, sessionModel);
        const PromptInput prompt = CommandPrompt::build(own, picked, *plan, u"Review the parser."_s, defaults());
        QCOMPARE(prompt.agent, u"plan"_s);
        QCOMPARE(prompt.parts.size(), 1);
        const auto *subtask = std::get_if<SubtaskPart>(&prompt.parts.first().body);
        QVERIFY(subtask);
        QCOMPARE(subtask->prompt, u"Review the parser."_s);
        QCOMPARE(subtask->agent, u"reviewer"_s);
        QCOMPARE(subtask->description, u"Reviews the change"_s);
        QCOMPARE(subtask->command, u"review"_s);
        QCOMPARE(subtask->model, (ModelRef{u"fake"_s, u"reviewer-model"_s}));
    }

    void subtaskSettingsOverrideTheAgentsMode()
    {
        CommandDefinition own = command(u"c"_s, u"t"_s);
        own.agent = u"reviewer"_s;
        own.subtask = false;
        QVERIFY(!CommandPrompt::plan(own, input(u"c"_s), defaults())->subtask);
        own.agent = u"build"_s;
        own.subtask = true;
        QVERIFY(CommandPrompt::plan(own, input(u"c"_s), defaults())->subtask);
        own.subtask.reset();
        QVERIFY(!CommandPrompt::plan(own, input(u"c"_s), defaults())->subtask);
    }

    void referencesBecomeFilesOrAgentsAndDroppedFilesFollow()
    {
        QVERIFY(m_tree.write(u"project/src/main.cpp"_s, "int main() {}\n"));
        QVERIFY(m_tree.write(u"home/notes.md"_s, "notes\n"));
        QVERIFY(QDir().mkpath(m_tree.path(u"project/docs"_s)));
        CommandInput picked = input(u"c"_s);
        picked.files = {PromptPart::droppedFile(m_tree.path(u"project/src/main.cpp"_s))};
        const CommandDefinition own = command(u"c"_s, u"t"_s);
        const Result<CommandPlan> plan = CommandPrompt::plan(own, picked, defaults());
        const QString text = u"Read @src/main.cpp, @docs and @~/notes.md, ask @reviewer, ignore @nothing-here."_s;
        const PromptInput prompt = CommandPrompt::build(own, picked, *plan, text, defaults());
        QCOMPARE(prompt.parts.size(), 6);
        QCOMPARE(std::get<TextPart>(prompt.parts.at(0).body).text, text);
        const FilePart file = std::get<FilePart>(prompt.parts.at(1).body);
        QCOMPARE(file.filename, u"src/main.cpp"_s);
        QCOMPARE(file.mime, u"text/plain"_s);
        QVERIFY(file.url.startsWith(u"file://"_s));
        QCOMPARE(std::get<FilePart>(prompt.parts.at(2).body).mime, u"application/x-directory"_s);
        QCOMPARE(std::get<FilePart>(prompt.parts.at(3).body).filename, u"~/notes.md"_s);
        QCOMPARE(std::get<AgentPart>(prompt.parts.at(4).body).name, u"reviewer"_s);
        QCOMPARE(std::get<FilePart>(prompt.parts.at(5).body).filename, u"main.cpp"_s);
    }

    void anUnknownCommandNamesTheKnownOnes()
    {
        QCOMPARE(CommandPrompt::notFound(u"revew"_s, {u"review"_s, u"test"_s}),
                 u"Command not found: \"revew\". Available commands: review, test"_s);
        QCOMPARE(CommandPrompt::notFound(u"x"_s, {}), u"Command not found: \"x\"."_s);
    }
};

QTEST_GUILESS_MAIN(CommandPromptTest)
#include "tst_command_prompt.moc"
