#include "BuiltinAgents.h"

#include <QDir>

#include "PermissionRules.h"
#include "PromptLibrary.h"

using namespace Qt::StringLiterals;

namespace qcode::BuiltinAgents {

namespace {

PermissionRule rule(const QString &permission, const QString &pattern, PermissionAction action)
{
    return {permission, pattern, action};
}

PermissionRule rule(const QString &permission, PermissionAction action)
{
    return {permission, u"*"_s, action};
}

constexpr PermissionAction Allow = PermissionAction::Allow;
constexpr PermissionAction Deny = PermissionAction::Deny;
constexpr PermissionAction Ask = PermissionAction::Ask;

// External folders every agent may reach without asking.
QStringList whitelistedDirectories(const AgentPaths &paths)
{
    QStringList globs{paths.toolOutputGlob()};
    for (const QString &dir : paths.skillDirectories)
        globs.append(QDir(dir).filePath(u"*"_s));
    return globs;
}

PermissionRuleset externalDirectoryRules(const AgentPaths &paths)
{
    PermissionRuleset rules{rule(u"external_directory"_s, Ask)};
    for (const QString &glob : whitelistedDirectories(paths))
        rules.append(rule(u"external_directory"_s, glob, Allow));
    return rules;
}

Agent native(const QString &name, AgentMode mode, PermissionRuleset permission)
{
    Agent agent;
    agent.name = name;
    agent.mode = mode;
    agent.native = true;
    agent.permission = std::move(permission);
    return agent;
}

} // namespace

PermissionRuleset defaults(const AgentPaths &paths)
{
    PermissionRuleset rules{rule(u"*"_s, Allow), rule(u"doom_loop"_s, Ask)};
    rules += externalDirectoryRules(paths);
    rules += {
        rule(u"question"_s, Deny),
        rule(u"plan_enter"_s, Deny),
        rule(u"plan_exit"_s, Deny),
        // The .env rules follow GitHub's Node.gitignore.
        rule(u"read"_s, u"*"_s, Allow),
        rule(u"read"_s, u"*.env"_s, Ask),
        rule(u"read"_s, u"*.env.*"_s, Ask),
        rule(u"read"_s, u"*.env.example"_s, Allow),
    };
    return rules;
}

QList<Agent> create(const AgentPaths &paths, const PermissionRuleset &user)
{
    const PermissionRuleset base = defaults(paths);
    QList<Agent> agents;

    Agent build = native(u"build"_s, AgentMode::Primary,
                         PermissionRules::merge({base, {rule(u"question"_s, Allow), rule(u"plan_enter"_s, Allow)}, user}));
    build.description = u"The default agent. Executes tools based on configured permissions."_s;
    agents.append(build);

    // Plans may be written inside the project's .opencode/plans and in the
    // data folder's plans; nothing else may be edited.
    const QString plans = paths.plansDirectory();
    const QString worktree = paths.worktree.isEmpty() ? QDir::currentPath() : paths.worktree;
    const QString plansRelative = QDir(worktree).relativeFilePath(QDir(plans).filePath(u"*.md"_s));
    Agent plan = native(u"plan"_s, AgentMode::Primary,
                        PermissionRules::merge({base,
                                                {rule(u"question"_s, Allow), rule(u"plan_exit"_s, Allow),
                                                 rule(u"external_directory"_s, QDir(plans).filePath(u"*"_s), Allow),
                                                 rule(u"edit"_s, Deny),
                                                 rule(u"edit"_s, u".opencode/plans/*.md"_s, Allow),
                                                 rule(u"edit"_s, plansRelative, Allow)},
                                                user}));
    plan.description = u"Plan mode. Disallows all edit tools."_s;
    agents.append(plan);

    Agent general = native(u"general"_s, AgentMode::Subagent,
                           PermissionRules::merge({base, {rule(u"todoread"_s, Deny), rule(u"todowrite"_s, Deny)}, user}));
    general.description = u"General-purpose agent for researching complex questions and carrying out multi-step "
                          u"tasks. Several can run at once to split independent pieces of work."_s;
    agents.append(general);

    PermissionRuleset exploreRules{rule(u"*"_s, Deny)};
    for (const char *tool : {"grep", "glob", "list", "bash", "webfetch", "websearch", "codesearch", "read"})
        exploreRules.append(rule(QString::fromLatin1(tool), Allow));
    exploreRules += externalDirectoryRules(paths);
    Agent explore = native(u"explore"_s, AgentMode::Subagent, PermissionRules::merge({base, exploreRules, user}));
    explore.description =
        u"Fast, read-only agent for finding your way around a codebase: locating files by pattern (such as "
        u"\"src/**/*.tsx\"), searching code for keywords (such as \"API endpoints\") or answering questions about "
        u"how the code works (such as \"how are API endpoints registered?\"). Say how thorough it should be: "
        u"\"quick\" for a basic search, \"medium\" for a moderate exploration, or \"very thorough\" for a "
        u"comprehensive search across many places and naming conventions."_s;
    explore.prompt = PromptLibrary::text(PromptText::Explore);
    agents.append(explore);

    const PermissionRuleset denyAll = PermissionRules::merge({base, {rule(u"*"_s, Deny)}, user});

    Agent compaction = native(u"compaction"_s, AgentMode::Primary, denyAll);
    compaction.hidden = true;
    compaction.prompt = PromptLibrary::text(PromptText::Compaction);
    agents.append(compaction);

    Agent title = native(u"title"_s, AgentMode::Primary, denyAll);
    title.hidden = true;
    title.temperature = 0.5;
    title.prompt = PromptLibrary::text(PromptText::Title);
    agents.append(title);

    Agent summary = native(u"summary"_s, AgentMode::Primary, denyAll);
    summary.hidden = true;
    summary.prompt = PromptLibrary::text(PromptText::Summary);
    agents.append(summary);

    return agents;
}

} // namespace qcode::BuiltinAgents
