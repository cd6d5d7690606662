#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include "TempTree.h"

#include "engine/agent/AgentRegistry.h"
#include "engine/agent/PermissionRules.h"
#include "engine/agent/PromptLibrary.h"
#include "engine/config/Config.h"
#include "engine/config/ConfigLocations.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QJsonObject json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

// What OpenCode's tests call evalPerm: the action for the permission's
// "*" pattern.
PermissionAction action(const Agent *agent, const QString &permission, const QString &pattern = u"*"_s)
{
    return PermissionRules::evaluate(permission, pattern, agent->permission).action;
}

QStringList names(const QList<Agent> &agents)
{
    QStringList out;
    for (const Agent &a : agents)
        out.append(a.name);
    return out;
}

} // namespace

// OpenCode's test/agent/agent.test.ts (reference §12.9), plus qcode's rules
// for Markdown agents and bad config.
class TestAgentRegistry : public QObject
{
    Q_OBJECT

    test::TempTree m_tree;

    QString path(const QString &relative) const { return m_tree.path(relative); }

    void write(const QString &relative, const QByteArray &text) { QVERIFY(m_tree.write(relative, text)); }

    AgentPaths paths() const
    {
        AgentPaths p;
        p.dataDirectory = path(u"data"_s);
        p.worktree = path(u"repo"_s);
        p.homeDirectory = path(u"home"_s);
        return p;
    }

    AgentRegistry registry(const QJsonObject &config = {}) const { return AgentRegistry::build(config, {}, paths()); }

    // A home with one global config folder and a project one level below
    // the worktree root; no environment.
    ConfigLocations locations() const
    {
        ConfigLocations l;
        l.homeDirectory = path(u"home"_s);
        l.globalDirectories = {path(u"home/.config/opencode"_s)};
        l.worktreeRoot = path(u"repo"_s);
        l.projectDirectory = path(u"repo/app"_s);
        l.environment = QProcessEnvironment();
        return l;
    }

    AgentRegistry loaded(const QJsonObject &config = {}) const
    {
        return AgentRegistry::load(Config::fromJson(config), locations(), path(u"data"_s));
    }

    QString toolOutputGlob() const { return paths().toolOutputGlob(); }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(path(u"repo/app"_s)));
        QVERIFY(QDir().mkpath(path(u"home/.config/opencode"_s)));
    }

    // --- built-in agents -------------------------------------------------

    void withoutConfigTheSevenNativeAgentsExist()
    {
        const AgentRegistry r = registry();
        QCOMPARE(r.keys(), QStringList({u"build"_s, u"plan"_s, u"general"_s, u"explore"_s, u"compaction"_s,
                                        u"title"_s, u"summary"_s}));
        for (const Agent &agent : r.list())
            QVERIFY2(agent.native, qPrintable(agent.name));
        QVERIFY(r.problems().isEmpty());
    }

    void buildIsPrimaryAndMayEditAndRunCommands()
    {
        const AgentRegistry r = registry();
        const Agent *build = r.find(u"build"_s);
        QVERIFY(build);
        QCOMPARE(build->mode, AgentMode::Primary);
        QVERIFY(build->native);
        QCOMPARE(build->description, u"The default agent. Executes tools based on configured permissions."_s);
        QCOMPARE(action(build, u"edit"_s), PermissionAction::Allow);
        QCOMPARE(action(build, u"bash"_s), PermissionAction::Allow);
        QCOMPARE(action(build, u"question"_s), PermissionAction::Allow);
        QCOMPARE(action(build, u"plan_enter"_s), PermissionAction::Allow);
        QCOMPARE(action(build, u"plan_exit"_s), PermissionAction::Deny);
        QVERIFY(!build->steps); // no agent has a step limit by default
    }

    void planDeniesEditsExceptPlanFiles()
    {
        const AgentRegistry r = registry();
        const Agent *plan = r.find(u"plan"_s);
        QVERIFY(plan);
        QCOMPARE(plan->mode, AgentMode::Primary);
        QCOMPARE(action(plan, u"edit"_s), PermissionAction::Deny);
        QCOMPARE(action(plan, u"edit"_s, u".opencode/plans/foo.md"_s), PermissionAction::Allow);
        QCOMPARE(action(plan, u"edit"_s, u"src/main.cpp"_s), PermissionAction::Deny);
        QCOMPARE(action(plan, u"plan_exit"_s), PermissionAction::Allow);
        QCOMPARE(action(plan, u"plan_enter"_s), PermissionAction::Deny);
        // Plans in the data folder may be written, addressed from the
        // worktree (edit patterns are worktree-relative).
        const QString relative = QDir(path(u"repo"_s)).relativeFilePath(path(u"data/plans/idea.md"_s));
        QCOMPARE(action(plan, u"edit"_s, relative), PermissionAction::Allow);
        QCOMPARE(action(plan, u"external_directory"_s, path(u"data/plans/idea.md"_s)), PermissionAction::Allow);
    }

    void exploreIsASubagentThatOnlyReadsAndSearches()
    {
        const AgentRegistry r = registry();
        const Agent *explore = r.find(u"explore"_s);
        QVERIFY(explore);
        QCOMPARE(explore->mode, AgentMode::Subagent);
        QVERIFY(explore->prompt && !explore->prompt->isEmpty());
        QCOMPARE(*explore->prompt, PromptLibrary::text(PromptText::Explore));
        QCOMPARE(action(explore, u"edit"_s), PermissionAction::Deny);
        QCOMPARE(action(explore, u"write"_s), PermissionAction::Deny);
        QCOMPARE(action(explore, u"todoread"_s), PermissionAction::Deny);
        QCOMPARE(action(explore, u"todowrite"_s), PermissionAction::Deny);
        for (const QString &tool : {u"grep"_s, u"glob"_s, u"list"_s, u"bash"_s, u"webfetch"_s, u"websearch"_s,
                                    u"codesearch"_s, u"read"_s})
            QCOMPARE(action(explore, tool), PermissionAction::Allow);
        QCOMPARE(action(explore, u"external_directory"_s, u"/some/other/path"_s), PermissionAction::Ask);
        QCOMPARE(action(explore, u"external_directory"_s, toolOutputGlob()), PermissionAction::Allow);
    }

    void generalDeniesTheTodoTools()
    {
        const AgentRegistry r = registry();
        const Agent *general = r.find(u"general"_s);
        QVERIFY(general);
        QCOMPARE(general->mode, AgentMode::Subagent);
        QVERIFY(!general->hidden.has_value());
        QCOMPARE(action(general, u"todoread"_s), PermissionAction::Deny);
        QCOMPARE(action(general, u"todowrite"_s), PermissionAction::Deny);
        QCOMPARE(action(general, u"edit"_s), PermissionAction::Allow);
    }

    void hiddenAgentsDenyEveryTool()
    {
        const AgentRegistry r = registry();
        for (const QString &name : {u"compaction"_s, u"title"_s, u"summary"_s}) {
            const Agent *agent = r.find(name);
            QVERIFY(agent);
            QVERIFY(agent->isHidden());
            QCOMPARE(agent->mode, AgentMode::Primary);
            QVERIFY(agent->prompt && !agent->prompt->isEmpty());
            QCOMPARE(action(agent, u"bash"_s), PermissionAction::Deny);
            QCOMPARE(action(agent, u"edit"_s), PermissionAction::Deny);
            QCOMPARE(action(agent, u"read"_s), PermissionAction::Deny);
        }
        QCOMPARE(r.find(u"title"_s)->temperature, 0.5);
    }

    void defaultsAskForDoomLoopsOutsideFoldersAndEnvFiles()
    {
        const AgentRegistry r = registry();
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(action(build, u"doom_loop"_s), PermissionAction::Ask);
        QCOMPARE(action(build, u"external_directory"_s), PermissionAction::Ask);
        QCOMPARE(action(build, u"webfetch"_s), PermissionAction::Allow);
        QCOMPARE(action(build, u"read"_s, u"/repo/src/main.cpp"_s), PermissionAction::Allow);
        QCOMPARE(action(build, u"read"_s, u"/repo/.env"_s), PermissionAction::Ask);
        QCOMPARE(action(build, u"read"_s, u"/repo/.env.local"_s), PermissionAction::Ask);
        QCOMPARE(action(build, u"read"_s, u"/repo/.env.example"_s), PermissionAction::Allow);
        QCOMPARE(action(build, u"external_directory"_s, toolOutputGlob()), PermissionAction::Allow);
    }

    void skillFoldersAreReachableWithoutAsking()
    {
        AgentPaths p = paths();
        p.skillDirectories = {path(u"home/.config/opencode/skill/pdf"_s)};
        const AgentRegistry r = AgentRegistry::build({}, {}, p);
        QCOMPARE(action(r.find(u"build"_s), u"external_directory"_s, path(u"home/.config/opencode/skill/pdf/a.md"_s)),
                 PermissionAction::Allow);
    }

    void unknownAgentIsNotFound()
    {
        const AgentRegistry r = registry();
        QVERIFY(!r.find(u"does_not_exist"_s));
        QVERIFY(!r.get(u"does_not_exist"_s).has_value());
    }

    // --- config agents -----------------------------------------------------

    void configEntryCreatesACustomAgent()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"my_custom_agent":{
            "model":"openai/gpt-4","description":"My custom agent","temperature":0.5,"top_p":0.9}}})"));
        const Agent *custom = r.find(u"my_custom_agent"_s);
        QVERIFY(custom);
        QCOMPARE(custom->model->providerID, u"openai"_s);
        QCOMPARE(custom->model->modelID, u"gpt-4"_s);
        QCOMPARE(custom->description, u"My custom agent"_s);
        QCOMPARE(custom->temperature, 0.5);
        QCOMPARE(custom->topP, 0.9);
        QVERIFY(!custom->native);
        QCOMPARE(custom->mode, AgentMode::All);
        QCOMPARE(action(custom, u"edit"_s), PermissionAction::Allow);
        QCOMPARE(action(custom, u"doom_loop"_s), PermissionAction::Ask);
    }

    void modelIdsMayContainSlashes()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"router":{"model":"openrouter/anthropic/claude-sonnet-4"}}})"));
        QCOMPARE(r.find(u"router"_s)->model, (ModelRef{u"openrouter"_s, u"anthropic/claude-sonnet-4"_s}));
    }

    void configOverridesABuiltInAgentWhichStaysNative()
    {
        // Built in code: moc misreads a "#" inside a multi-line raw string.
        const QJsonObject entry{{u"model"_s, u"anthropic/claude-3"_s}, {u"description"_s, u"Custom build agent"_s},
                                {u"temperature"_s, 0.7}, {u"color"_s, u"#FF0000"_s}};
        const AgentRegistry r = registry(QJsonObject{{u"agent"_s, QJsonObject{{u"build"_s, entry}}}});
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(build->model, (ModelRef{u"anthropic"_s, u"claude-3"_s}));
        QCOMPARE(build->description, u"Custom build agent"_s);
        QCOMPARE(build->temperature, 0.7);
        QCOMPARE(build->color, u"#FF0000"_s);
        QVERIFY(build->native);
    }

    void disableRemovesTheAgent()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"explore":{"disable":true}}})"));
        QVERIFY(!r.find(u"explore"_s));
        QVERIFY(!names(r.list()).contains(u"explore"_s));
    }

    void agentPermissionIsAppendedToTheDefaults()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"build":{"permission":{"bash":{"rm -rf *":"deny"}}}}})"));
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(action(build, u"bash"_s, u"rm -rf *"_s), PermissionAction::Deny);
        QCOMPARE(action(build, u"bash"_s, u"rm -rf build"_s), PermissionAction::Deny);
        QCOMPARE(action(build, u"bash"_s, u"ls"_s), PermissionAction::Allow);
        QCOMPARE(action(build, u"edit"_s), PermissionAction::Allow);
    }

    void globalPermissionAppliesToEveryAgent()
    {
        const AgentRegistry r = registry(json(R"({"permission":{"bash":"deny"}})"));
        for (const QString &name : {u"build"_s, u"plan"_s, u"general"_s, u"explore"_s})
            QCOMPARE(action(r.find(name), u"bash"_s), PermissionAction::Deny);
    }

    void globalPermissionMayBeABareAction()
    {
        const AgentRegistry r = registry(json(R"({"permission":"ask"})"));
        QCOMPARE(action(r.find(u"build"_s), u"edit"_s), PermissionAction::Ask);
        QCOMPARE(action(r.find(u"build"_s), u"webfetch"_s), PermissionAction::Ask);
    }

    void stepsAndTheDeprecatedMaxStepsSetTheStepLimit()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"build":{"steps":50},"plan":{"maxSteps":100}}})"));
        QCOMPARE(r.find(u"build"_s)->steps, 50);
        QCOMPARE(r.find(u"plan"_s)->steps, 100);
    }

    void stepsWinsOverMaxSteps()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"build":{"steps":5,"maxSteps":100}}})"));
        QCOMPARE(r.find(u"build"_s)->steps, 5);
    }

    void modeNamePromptAndVariantCanBeOverridden()
    {
        const AgentRegistry r = registry(json(R"({"agent":{
            "explore":{"mode":"primary"},
            "build":{"name":"Builder","prompt":"Custom system prompt","variant":"high","hidden":false}}})"));
        QCOMPARE(r.find(u"explore"_s)->mode, AgentMode::Primary);
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(build->name, u"Builder"_s);
        QCOMPARE(build->prompt, u"Custom system prompt"_s);
        QCOMPARE(build->variant, u"high"_s);
        QCOMPARE(build->hidden, false);
    }

    void unknownKeysGoIntoOptions()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"build":{"random_property":"hello","another_random":123}}})"));
        const QJsonObject options = r.find(u"build"_s)->options;
        QCOMPARE(options.value("random_property"_L1).toString(), u"hello"_s);
        QCOMPARE(options.value("another_random"_L1).toInt(), 123);
    }

    void optionsMergeDeeply()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"build":{
            "options":{"custom_option":true,"another_option":"value","nested":{"a":1}},
            "reasoningEffort":"high"}}})"));
        const QJsonObject options = r.find(u"build"_s)->options;
        QCOMPARE(options.value("custom_option"_L1).toBool(), true);
        QCOMPARE(options.value("another_option"_L1).toString(), u"value"_s);
        QCOMPARE(options.value("nested"_L1).toObject().value("a"_L1).toInt(), 1);
        QCOMPARE(options.value("reasoningEffort"_L1).toString(), u"high"_s);
    }

    void severalCustomAgentsCanBeDefined()
    {
        const AgentRegistry r = registry(json(R"({"agent":{
            "agent_a":{"description":"Agent A","mode":"subagent"},
            "agent_b":{"description":"Agent B","mode":"primary"}}})"));
        QCOMPARE(r.find(u"agent_a"_s)->description, u"Agent A"_s);
        QCOMPARE(r.find(u"agent_a"_s)->mode, AgentMode::Subagent);
        QCOMPARE(r.find(u"agent_b"_s)->description, u"Agent B"_s);
        QCOMPARE(r.find(u"agent_b"_s)->mode, AgentMode::Primary);
    }

    void legacyToolsBecomePermissionRules()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"build":{"tools":{"bash":false,"read":false,"webfetch":true}}}})"));
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(action(build, u"bash"_s), PermissionAction::Deny);
        QCOMPARE(action(build, u"read"_s), PermissionAction::Deny);
        QCOMPARE(action(build, u"webfetch"_s), PermissionAction::Allow);
    }

    void legacyWriteEditPatchAndMultieditToolsMeanTheEditPermission()
    {
        for (const char *tool : {"write", "edit", "patch", "multiedit"}) {
            const QJsonObject config{{u"agent"_s, QJsonObject{{u"build"_s,
                QJsonObject{{u"tools"_s, QJsonObject{{QString::fromLatin1(tool), false}}}}}}}};
            QCOMPARE(action(registry(config).find(u"build"_s), u"edit"_s), PermissionAction::Deny);
        }
    }

    void permissionReplacesALegacyToolOfTheSameName()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"build":{
            "tools":{"bash":false},"permission":{"bash":{"git *":"allow"}}}}})"));
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(action(build, u"bash"_s, u"git status"_s), PermissionAction::Allow);
        // OpenCode's Object.assign drops the tools entry for bash.
        QCOMPARE(action(build, u"bash"_s, u"ls"_s), PermissionAction::Allow);
    }

    void globalLegacyToolsApplyBeneathGlobalPermission()
    {
        const AgentRegistry r = registry(json(R"({"tools":{"write":false,"bash":false},"permission":{"bash":"ask"}})"));
        QCOMPARE(action(r.find(u"build"_s), u"edit"_s), PermissionAction::Deny);
        QCOMPARE(action(r.find(u"build"_s), u"bash"_s), PermissionAction::Ask);
    }

    void legacyModeEntriesBecomePrimaryAgents()
    {
        const AgentRegistry r = registry(json(R"({"mode":{"focus":{"prompt":"Stay focused.","mode":"subagent"}}})"));
        QCOMPARE(r.find(u"focus"_s)->mode, AgentMode::Primary);
        QCOMPARE(r.find(u"focus"_s)->prompt, u"Stay focused."_s);
    }

    void permissionEnvironmentVariableIsMergedOverConfig()
    {
        QProcessEnvironment environment;
        environment.insert(u"OPENCODE_PERMISSION"_s, uR"({"bash":"deny"})"_s);
        const AgentRegistry r = AgentRegistry::build(json(R"({"permission":{"bash":"allow","edit":"ask"}})"), {},
                                                     paths(), environment);
        QCOMPARE(action(r.find(u"build"_s), u"bash"_s), PermissionAction::Deny);
        QCOMPARE(action(r.find(u"build"_s), u"edit"_s), PermissionAction::Ask);
    }

    void homeInPermissionPatternsIsExpanded()
    {
        // Built in code: moc reads a slash-star inside a raw string as a comment.
        const QJsonObject read{{u"~/secrets/*"_s, u"deny"_s}, {u"$HOME/keys/*"_s, u"deny"_s}};
        const AgentRegistry r = registry(QJsonObject{{u"permission"_s, QJsonObject{{u"read"_s, read}}}});
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(action(build, u"read"_s, path(u"home/secrets/a.txt"_s)), PermissionAction::Deny);
        QCOMPARE(action(build, u"read"_s, path(u"home/keys/id"_s)), PermissionAction::Deny);
        QCOMPARE(action(build, u"read"_s, path(u"home/notes.txt"_s)), PermissionAction::Allow);
    }

    // --- the tool-output folder --------------------------------------------

    void toolOutputStaysReadableWhenOutsideFoldersAreDeniedGlobally()
    {
        const AgentRegistry r = registry(json(R"({"permission":{"external_directory":"deny"}})"));
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(action(build, u"external_directory"_s, toolOutputGlob()), PermissionAction::Allow);
        QCOMPARE(action(build, u"external_directory"_s, path(u"data/tool-output/tool_1.txt"_s)), PermissionAction::Allow);
        // 1.2's wildcard: the folder itself is not matched by "<folder>/*".
        QCOMPARE(action(build, u"external_directory"_s, path(u"data/tool-output"_s)), PermissionAction::Deny);
        QCOMPARE(action(build, u"external_directory"_s, u"/some/other/path"_s), PermissionAction::Deny);
    }

    void toolOutputStaysReadableWhenOutsideFoldersAreDeniedForOneAgent()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"build":{"permission":{"external_directory":"deny"}}}})"));
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(action(build, u"external_directory"_s, toolOutputGlob()), PermissionAction::Allow);
        QCOMPARE(action(build, u"external_directory"_s, u"/some/other/path"_s), PermissionAction::Deny);
    }

    void anExplicitDenyOfTheToolOutputFolderIsRespected()
    {
        QJsonObject patterns{{u"*"_s, u"deny"_s}, {toolOutputGlob(), u"deny"_s}};
        const QJsonObject config{{u"permission"_s, QJsonObject{{u"external_directory"_s, patterns}}}};
        const AgentRegistry r = registry(config);
        const Agent *build = r.find(u"build"_s);
        QCOMPARE(action(build, u"external_directory"_s, toolOutputGlob()), PermissionAction::Deny);
        QCOMPARE(action(build, u"external_directory"_s, path(u"data/tool-output/x"_s)), PermissionAction::Deny);
    }

    // --- default agent and listing -----------------------------------------

    void defaultAgentIsBuildWithoutConfig()
    {
        QCOMPARE(registry().defaultAgent().value(), u"build"_s);
    }

    void defaultAgentFollowsConfig()
    {
        QCOMPARE(registry(json(R"({"default_agent":"plan"})")).defaultAgent().value(), u"plan"_s);
        QCOMPARE(registry(json(R"({"default_agent":"my_custom","agent":{"my_custom":{"description":"x"}}})"))
                     .defaultAgent()
                     .value(),
                 u"my_custom"_s);
    }

    void defaultAgentMustNotBeASubagent()
    {
        const Result<QString> result = registry(json(R"({"default_agent":"explore"})")).defaultAgent();
        QVERIFY(!result);
        QCOMPARE(result.errorMessage(), u"default agent \"explore\" is a subagent"_s);
    }

    void defaultAgentMustNotBeHidden()
    {
        const Result<QString> result = registry(json(R"({"default_agent":"compaction"})")).defaultAgent();
        QCOMPARE(result.errorMessage(), u"default agent \"compaction\" is hidden"_s);
    }

    void defaultAgentMustExist()
    {
        const Result<QString> result = registry(json(R"({"default_agent":"does_not_exist"})")).defaultAgent();
        QCOMPARE(result.errorMessage(), u"default agent \"does_not_exist\" not found"_s);
    }

    void defaultAgentFallsBackToPlanWhenBuildIsDisabled()
    {
        QCOMPARE(registry(json(R"({"agent":{"build":{"disable":true}}})")).defaultAgent().value(), u"plan"_s);
    }

    void noDefaultAgentWhenEveryPrimaryAgentIsDisabled()
    {
        const Result<QString> result =
            registry(json(R"({"agent":{"build":{"disable":true},"plan":{"disable":true}}})")).defaultAgent();
        QCOMPARE(result.errorMessage(), u"no primary visible agent found"_s);
    }

    void listPutsTheDefaultAgentFirstAndKeepsTheRestInOrder()
    {
        QCOMPARE(names(registry().list()).first(), u"build"_s);
        QCOMPARE(names(registry(json(R"({"default_agent":"plan"})")).list()),
                 QStringList({u"plan"_s, u"build"_s, u"general"_s, u"explore"_s, u"compaction"_s, u"title"_s,
                              u"summary"_s}));
    }

    // --- bad config ----------------------------------------------------------

    void unknownModeIsReportedAndOnlyThatAgentIsSkipped()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"boss":{"mode":"overlord"},"helper":{"mode":"subagent"}}})"));
        QVERIFY(!r.find(u"boss"_s));
        QVERIFY(r.find(u"helper"_s));
        const QString problems = r.problems().join(u"\n"_s);
        QVERIFY2(problems.contains(u"agent \"boss\": \"mode\" must be \"primary\", \"subagent\" or \"all\", not \"overlord\""_s),
                 qPrintable(problems));
        QVERIFY2(problems.contains(u"the agent \"boss\" is skipped"_s), qPrintable(problems));
    }

    void wrongTypesAreReportedByField()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"x":{"temperature":"hot","steps":0,"hidden":"yes",
            "model":"gpt-4","color":"blurple","options":[1],"tools":{"bash":"no"}}}})"));
        QVERIFY(!r.find(u"x"_s));
        const QString problems = r.problems().join(u"\n"_s);
        for (const QString &field : {u"\"temperature\" must be a number, not text"_s,
                                     u"\"steps\" must be a whole number of at least 1, not 0"_s,
                                     u"\"hidden\" must be true or false"_s, u"\"model\" must be written \"provider/model\""_s,
                                     u"\"color\" must be a colour"_s, u"\"options\" must be a map"_s,
                                     u"\"tools\" must map each tool to true or false"_s})
            QVERIFY2(problems.contains(field), qPrintable(field + u"\n"_s + problems));
    }

    void aBadEntryForABuiltInKeepsItsPermissionRules()
    {
        // A typo elsewhere must not throw away a deny the person asked for.
        const AgentRegistry r = registry(json(R"({"agent":{"build":{"color":"red","permission":{"bash":"deny"}}}})"));
        const Agent *build = r.find(u"build"_s);
        QVERIFY(build);
        QVERIFY(!build->color);
        QCOMPARE(action(build, u"bash"_s), PermissionAction::Deny);
        QVERIFY(r.problems().join(u"\n"_s).contains(u"ignored except its permission rules"_s));
    }

    void aPermissionTypoAsksInsteadOfAllowing()
    {
        const AgentRegistry r = registry(json(R"({"permission":{"bash":"denyy"},"agent":{"plan":{"permission":{"webfetch":true}}}})"));
        QCOMPARE(action(r.find(u"build"_s), u"bash"_s), PermissionAction::Ask);
        QCOMPARE(action(r.find(u"plan"_s), u"webfetch"_s), PermissionAction::Ask);
        const QString problems = r.problems().join(u"\n"_s);
        QVERIFY2(problems.contains(u"config: \"permission.bash\" is \"denyy\", which is not \"allow\", \"ask\" or \"deny\""_s),
                 qPrintable(problems));
        QVERIFY2(problems.contains(u"config: agent \"plan\": \"permission.webfetch\" is true"_s), qPrintable(problems));
    }

    void anAgentEntryThatIsNotAMapIsReported()
    {
        const AgentRegistry r = registry(json(R"({"agent":{"x":"fast"},"default_agent":3})"));
        QVERIFY(!r.find(u"x"_s));
        QVERIFY(r.problems().join(u"\n"_s).contains(u"agent.x must be a map"_s));
        QVERIFY(r.problems().join(u"\n"_s).contains(u"\"default_agent\" must be an agent name"_s));
        QCOMPARE(r.defaultAgent().value(), u"build"_s);
    }

    // --- Markdown agents -----------------------------------------------------

    void markdownAgentInTheProjectFolder()
    {
        write(u"repo/app/.opencode/agent/review.md"_s, "---\n"
                                                       "description: Reviews code for quality\n"
                                                       "mode: subagent\n"
                                                       "model: anthropic/claude-sonnet-4-5\n"
                                                       "temperature: 0.1\n"
                                                       "steps: 12\n"
                                                       "color: \"#00AA00\"\n"
                                                       "tools:\n"
                                                       "  write: false\n"
                                                       "permission:\n"
                                                       "  bash:\n"
                                                       "    \"git diff*\": allow\n"
                                                       "    \"*\": ask\n"
                                                       "---\n"
                                                       "\n"
                                                       "You review code.\n\nBe brief.\n");
        const AgentRegistry r = loaded();
        QVERIFY2(r.problems().isEmpty(), qPrintable(r.problems().join(u"\n"_s)));
        const Agent *review = r.find(u"review"_s);
        QVERIFY(review);
        QCOMPARE(review->description, u"Reviews code for quality"_s);
        QCOMPARE(review->mode, AgentMode::Subagent);
        QCOMPARE(review->model, (ModelRef{u"anthropic"_s, u"claude-sonnet-4-5"_s}));
        QCOMPARE(review->temperature, 0.1);
        QCOMPARE(review->steps, 12);
        QCOMPARE(review->color, u"#00AA00"_s);
        QCOMPARE(review->prompt, u"You review code.\n\nBe brief."_s);
        QVERIFY(!review->native);
        QCOMPARE(action(review, u"edit"_s), PermissionAction::Deny);
        QCOMPARE(action(review, u"bash"_s, u"rm -rf /"_s), PermissionAction::Ask);
    }

    void markdownPermissionsKeepTheOrderTheyWereWrittenIn()
    {
        // Written order: the general rule after the specific one wins (as in
        // OpenCode). Sorted keys would have put "*" first.
        write(u"repo/.opencode/agents/careful.md"_s, "---\n"
                                                     "permission:\n"
                                                     "  bash:\n"
                                                     "    \"git *\": allow\n"
                                                     "    \"*\": ask\n"
                                                     "  edit: deny\n"
                                                     "  \"*\": allow\n"
                                                     "---\n");
        const AgentRegistry r = loaded();
        const Agent *careful = r.find(u"careful"_s);
        QVERIFY(careful);
        QCOMPARE(action(careful, u"bash"_s, u"git status"_s), PermissionAction::Allow); // "*": allow came last
        const PermissionRuleset &rules = careful->permission;
        const qsizetype gitRule = rules.indexOf(PermissionRule{u"bash"_s, u"git *"_s, PermissionAction::Allow});
        const qsizetype anyRule = rules.indexOf(PermissionRule{u"bash"_s, u"*"_s, PermissionAction::Ask});
        QVERIFY(gitRule >= 0 && anyRule > gitRule);
        QVERIFY(rules.indexOf(PermissionRule{u"edit"_s, u"*"_s, PermissionAction::Deny}) > anyRule);
    }

    void nestedMarkdownAgentsAreNamedByTheirPath()
    {
        write(u"repo/.opencode/agents/team/lead.md"_s, "---\ndescription: Leads\n---\nLead the team.\n");
        const AgentRegistry r = loaded();
        QVERIFY(r.find(u"team/lead"_s));
        QCOMPARE(r.find(u"team/lead"_s)->prompt, u"Lead the team."_s);
    }

    void aMarkdownAgentWithoutFrontMatterIsAllPrompt()
    {
        write(u"repo/.opencode/agent/plain.md"_s, "Just a prompt.\n");
        const AgentRegistry r = loaded();
        const Agent *plain = r.find(u"plain"_s);
        QVERIFY(plain);
        QCOMPARE(plain->prompt, u"Just a prompt."_s);
        QCOMPARE(plain->mode, AgentMode::All);
    }

    void projectAgentsWinOverGlobalOnes()
    {
        write(u"home/.config/opencode/agent/docs.md"_s, "---\ndescription: global\ntemperature: 0.3\n---\nGlobal.\n");
        write(u"repo/app/.opencode/agent/docs.md"_s, "---\ndescription: project\n---\nProject.\n");
        write(u"home/.config/opencode/agent/only-global.md"_s, "---\ndescription: mine\n---\n");
        const AgentRegistry r = loaded();
        QCOMPARE(r.find(u"docs"_s)->description, u"project"_s);
        QCOMPARE(r.find(u"docs"_s)->temperature, 0.3); // merged, not replaced
        QCOMPARE(r.find(u"docs"_s)->prompt, u"Project."_s);
        QVERIFY(r.find(u"only-global"_s));
    }

    void aMarkdownAgentMergesOverTheConfigEntryOfTheSameName()
    {
        write(u"repo/.opencode/agent/review.md"_s, "---\ndescription: From Markdown\n---\nReview.\n");
        const AgentRegistry r = loaded(json(R"({"agent":{"review":{"model":"openai/gpt-5","description":"From JSON"}}})"));
        const Agent *review = r.find(u"review"_s);
        QCOMPARE(review->description, u"From Markdown"_s);
        QCOMPARE(review->model, (ModelRef{u"openai"_s, u"gpt-5"_s}));
    }

    void markdownCanReconfigureABuiltInAgent()
    {
        write(u"repo/.opencode/agent/build.md"_s, "---\nsteps: 3\n---\nBuild carefully.\n");
        const AgentRegistry r = loaded();
        const Agent *build = r.find(u"build"_s);
        QVERIFY(build->native);
        QCOMPARE(build->steps, 3);
        QCOMPARE(build->prompt, u"Build carefully."_s);
    }

    void legacyModeFilesBecomePrimaryAgents()
    {
        write(u"repo/.opencode/mode/focus.md"_s, "---\nmode: subagent\n---\nFocus.\n");
        const AgentRegistry r = loaded();
        const Agent *focus = r.find(u"focus"_s);
        QVERIFY(focus);
        QCOMPARE(focus->mode, AgentMode::Primary);
    }

    void claudeCodeStyleDescriptionsWithColonsLoad()
    {
        write(u"repo/.opencode/agent/tester.md"_s,
              "---\n"
              "description: Use this agent when: the tests fail, e.g. after a refactor\n"
              "---\n"
              "Fix tests.\n");
        const AgentRegistry r = loaded();
        QVERIFY2(r.problems().isEmpty(), qPrintable(r.problems().join(u"\n"_s)));
        QCOMPARE(r.find(u"tester"_s)->description, u"Use this agent when: the tests fail, e.g. after a refactor"_s);
    }

    void brokenFrontMatterIsAnErrorWithFileAndLine()
    {
        write(u"repo/.opencode/agent/broken.md"_s, "---\n"
                                                   "description: ok\n"
                                                   "permission:\n"
                                                   "  bash: \"unterminated\n"
                                                   "---\n"
                                                   "Body\n");
        write(u"repo/.opencode/agent/fine.md"_s, "---\ndescription: fine\n---\nFine.\n");
        const AgentRegistry r = loaded();
        QVERIFY(!r.find(u"broken"_s));
        QVERIFY(r.find(u"fine"_s));
        // An error, not a note: the file may hold rules tighter than the built-in's.
        QCOMPARE(r.errors().size(), 1);
        QCOMPARE(r.errors().constFirst().file, QDir::cleanPath(path(u"repo/.opencode/agent/broken.md"_s)));
        QCOMPARE(r.errors().constFirst().line, 4);
        QVERIFY2(r.problems().isEmpty(), qPrintable(r.problems().join(u"\n"_s)));
    }

    void aBadFieldInMarkdownIsAnErrorNamingTheFileAndLine()
    {
        write(u"repo/.opencode/agent/odd.md"_s, "---\n"
                                                "description: Odd\n"
                                                "mode: sidekick\n"
                                                "---\n");
        const AgentRegistry r = loaded();
        QVERIFY(!r.find(u"odd"_s));
        QCOMPARE(r.errors().size(), 1);
        const QString expected = QDir::cleanPath(path(u"repo/.opencode/agent/odd.md"_s)) + u":3: agent \"odd\": \"mode\""_s;
        QVERIFY2(r.errors().constFirst().toString().startsWith(expected), qPrintable(r.errors().constFirst().toString()));
    }

    void aMarkdownFileForABuiltInWithAWrongTypeIsAnError()
    {
        write(u"repo/.opencode/agent/build.md"_s, "---\n"
                                                  "permission:\n"
                                                  "  bash: deny\n"
                                                  "steps: many\n"
                                                  "---\n");
        const AgentRegistry r = loaded();
        QCOMPARE(r.errors().size(), 1);
        QCOMPARE(r.errors().constFirst().line, 4);
        QVERIFY(r.errors().constFirst().message.contains(u"\"steps\""_s));
        // Its rules still apply to the built-in meanwhile.
        QCOMPARE(action(r.find(u"build"_s), u"bash"_s), PermissionAction::Deny);
    }

    void aFolderOrPipeNamedLikeAnAgentFileIsAnError()
    {
        QVERIFY(QDir().mkpath(path(u"repo/.opencode/agent/folder.md"_s)));
        QCOMPARE(::mkfifo(QFile::encodeName(path(u"repo/.opencode/agent/pipe.md"_s)).constData(), 0600), 0);
        const AgentRegistry r = loaded();
        const QStringList errors = configErrorLines(r.errors());
        QCOMPARE(errors.size(), 2);
        QVERIFY2(errors.at(0).endsWith(u"folder.md: is a folder, not a file"_s), qPrintable(errors.join(u'\n')));
        QVERIFY2(errors.at(1).endsWith(u"pipe.md: is a named pipe (FIFO), not a file"_s), qPrintable(errors.join(u'\n')));
    }

    void anAgentFileThatIsNotUtf8IsAnError()
    {
        write(u"repo/.opencode/agent/latin.md"_s, "---\ndescription: caf\xE9\n---\n");
        const AgentRegistry r = loaded();
        QCOMPARE(r.errors().size(), 1);
        QVERIFY(r.errors().constFirst().message.contains(u"not UTF-8"_s));
    }

    void markdownAgentsMayDisableABuiltIn()
    {
        write(u"repo/.opencode/agent/general.md"_s, "---\ndisable: true\n---\n");
        QVERIFY(!loaded().find(u"general"_s));
    }

    void projectMarkdownAgentsAreIgnoredWhenProjectConfigIsDisabled()
    {
        write(u"repo/.opencode/agent/review.md"_s, "---\ndescription: x\n---\n");
        ConfigLocations l = locations();
        l.environment.insert(u"OPENCODE_DISABLE_PROJECT_CONFIG"_s, u"1"_s);
        QVERIFY(!AgentRegistry::load(Config{}, l, path(u"data"_s)).find(u"review"_s));
    }

    void theConfigDirectoryVariableAddsAFolder()
    {
        write(u"profile/agent/profiled.md"_s, "---\ndescription: from profile\n---\n");
        ConfigLocations l = locations();
        l.environment.insert(u"OPENCODE_CONFIG_DIR"_s, path(u"profile"_s));
        QVERIFY(AgentRegistry::load(Config{}, l, path(u"data"_s)).find(u"profiled"_s));
    }

    void agentJsonUsesOpenCodeFieldNames()
    {
        const QJsonObject build = registry(json(R"({"agent":{"build":{"top_p":0.8,"model":"a/b"}}})"))
                                      .find(u"build"_s)
                                      ->toJson();
        QCOMPARE(build.value("topP"_L1).toDouble(), 0.8);
        QCOMPARE(build.value("mode"_L1).toString(), u"primary"_s);
        QCOMPARE(build.value("model"_L1).toObject().value("providerID"_L1).toString(), u"a"_s);
        QVERIFY(build.value("permission"_L1).toArray().size() > 5);
    }
};

QTEST_GUILESS_MAIN(TestAgentRegistry)
#include "tst_agent_registry.moc"
