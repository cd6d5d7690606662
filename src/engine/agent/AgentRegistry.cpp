#include "AgentRegistry.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include "AgentConfig.h"
#include "AgentLogging.h"
#include "BuiltinAgents.h"
#include "PermissionRules.h"
#include "engine/config/Config.h"
#include "engine/config/ConfigLocations.h"
#include "engine/config/JsonMerge.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// A config entry on its way to AgentConfig: the raw JSON (config, then a
// Markdown agent and a legacy mode merged over it) and where its keys are.
struct RawEntry {
    QString key;
    QJsonObject json;
    ConfigSourceMap sourceMap;
    bool fromMarkdown = false;
};

RawEntry *findRaw(QList<RawEntry> &entries, const QString &key)
{
    for (RawEntry &e : entries) {
        if (e.key == key)
            return &e;
    }
    return nullptr;
}

void mergeRaw(QList<RawEntry> &entries, const QString &key, const QJsonObject &json, const ConfigSourceMap &map,
              bool fromMarkdown = false)
{
    if (RawEntry *existing = findRaw(entries, key)) {
        existing->json = JsonMerge::deepMerge(existing->json, json);
        existing->sourceMap.overlay(map);
        existing->fromMarkdown = existing->fromMarkdown || fromMarkdown;
        return;
    }
    entries.append({key, json, map, fromMarkdown});
}

bool isEditTool(const QString &tool)
{
    return tool == "write"_L1 || tool == "edit"_L1 || tool == "patch"_L1 || tool == "multiedit"_L1;
}

// The global `permission`, with OPENCODE_PERMISSION merged over it and the
// legacy global `tools` map beneath it (as OpenCode's config loader does).
QJsonValue globalPermission(const QJsonObject &config, const QProcessEnvironment &environment, QStringList *problems)
{
    QJsonValue permission = config.value("permission"_L1);
    const QString fromEnvironment = environment.value(u"OPENCODE_PERMISSION"_s);
    if (!fromEnvironment.isEmpty()) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(fromEnvironment.toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || document.isNull()) {
            problems->append(AgentRegistry::tr("OPENCODE_PERMISSION is not valid JSON (%1); it is ignored.")
                                 .arg(error.errorString()));
        } else {
            const QJsonValue over = document.isObject() ? QJsonValue(document.object()) : QJsonValue(document.array());
            permission = permission.isObject() && over.isObject()
                             ? QJsonValue(JsonMerge::deepMerge(permission.toObject(), over.toObject()))
                             : over;
        }
    }
    const QJsonValue tools = config.value("tools"_L1);
    if (tools.isObject()) {
        QJsonObject fromTools;
        const QJsonObject map = tools.toObject();
        for (auto it = map.begin(); it != map.end(); ++it) {
            const QString action = it.value().toBool() ? u"allow"_s : u"deny"_s;
            fromTools.insert(isEditTool(it.key()) ? u"edit"_s : it.key(), action);
        }
        if (permission.isObject())
            permission = JsonMerge::deepMerge(fromTools, permission.toObject());
        else if (permission.isUndefined() || permission.isNull())
            permission = fromTools;
    } else if (!tools.isUndefined() && !tools.isNull()) {
        problems->append(AgentRegistry::tr("config: \"tools\" must be a map of tool names to true or false; it is "
                                           "ignored."));
    }
    return permission;
}

void apply(Agent &agent, const AgentConfig &config)
{
    if (config.model)
        agent.model = config.model;
    if (config.variant)
        agent.variant = config.variant;
    if (config.prompt)
        agent.prompt = config.prompt;
    if (config.description)
        agent.description = config.description;
    if (config.temperature)
        agent.temperature = config.temperature;
    if (config.topP)
        agent.topP = config.topP;
    if (config.mode)
        agent.mode = *config.mode;
    if (config.color)
        agent.color = config.color;
    if (config.hidden)
        agent.hidden = config.hidden;
    if (config.name)
        agent.name = *config.name;
    if (config.steps)
        agent.steps = config.steps;
    agent.options = JsonMerge::deepMerge(agent.options, config.options);
    agent.permission += config.permission;
}

} // namespace

AgentRegistry::Entry *AgentRegistry::entry(const QString &key)
{
    for (Entry &e : m_entries) {
        if (e.key == key)
            return &e;
    }
    return nullptr;
}

const Agent *AgentRegistry::find(const QString &key) const
{
    for (const Entry &e : m_entries) {
        if (e.key == key)
            return &e.agent;
    }
    return nullptr;
}

QStringList AgentRegistry::keys() const
{
    QStringList out;
    for (const Entry &e : m_entries)
        out.append(e.key);
    return out;
}

AgentRegistry AgentRegistry::load(const Config &config, const ConfigLocations &locations, const QString &dataDirectory,
                                  const QStringList &skillDirectories)
{
    AgentPaths paths;
    paths.dataDirectory = dataDirectory;
    paths.worktree = locations.worktreeRoot.isEmpty() ? locations.projectDirectory : locations.worktreeRoot;
    paths.homeDirectory = locations.homeDirectory;
    paths.skillDirectories = skillDirectories;

    QStringList problems;
    ConfigErrors errors;
    const QList<MarkdownAgent> markdown =
        MarkdownAgents::load(MarkdownAgents::directories(locations), &problems, &errors);
    AgentRegistry registry = build(config.json(), markdown, paths, locations.environment);
    registry.m_problems = problems + registry.m_problems;
    registry.m_errors = errors + registry.m_errors;
    return registry;
}

AgentRegistry AgentRegistry::build(const QJsonObject &config, const QList<MarkdownAgent> &markdownAgents,
                                   const AgentPaths &paths, const QProcessEnvironment &environment)
{
    AgentRegistry registry;
    QStringList &problems = registry.m_problems;
    const ConfigSourceMap configMap(tr("config"));

    const PermissionRuleset user = PermissionRules::fromConfig(globalPermission(config, environment, &problems),
                                                               paths.homeDirectory, configMap, {u"permission"_s},
                                                               &problems);
    for (Agent &agent : BuiltinAgents::create(paths, user))
        registry.m_entries.append({agent.name, std::move(agent)});

    // Config entries, then Markdown agents over them, then legacy modes.
    QList<RawEntry> raw;
    const auto collect = [&](const QString &section, bool primary) {
        const QJsonValue value = config.value(section);
        if (value.isUndefined() || value.isNull())
            return;
        if (!value.isObject()) {
            problems.append(tr("config: \"%1\" must be a map of agent names to their settings; it is ignored.")
                                .arg(section));
            return;
        }
        const QJsonObject map = value.toObject();
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!it.value().isObject()) {
                problems.append(tr("config: %1.%2 must be a map of settings; it is ignored.").arg(section, it.key()));
                continue;
            }
            QJsonObject json = it.value().toObject();
            if (primary)
                json.insert(u"mode"_s, u"primary"_s);
            mergeRaw(raw, it.key(), json, configMap);
        }
    };
    collect(u"agent"_s, false);
    for (const MarkdownAgent &markdown : markdownAgents)
        mergeRaw(raw, markdown.name, markdown.config, markdown.sourceMap, true);
    collect(u"mode"_s, true);

    for (const RawEntry &entry : std::as_const(raw)) {
        const AgentConfig parsed = AgentConfig::fromJson(entry.key, entry.json, entry.sourceMap, paths.homeDirectory);
        problems += parsed.warnings;
        Entry *existing = registry.entry(entry.key);
        if (parsed.disable) {
            registry.m_entries.removeIf([&](const Entry &e) { return e.key == entry.key; });
            qCDebug(lcAgents) << "agent" << entry.key << "disabled by" << entry.sourceMap.describe({u"disable"_s});
            continue;
        }
        if (!parsed.isValid()) {
            if (entry.fromMarkdown) {
                // Fatal: the project refuses prompts, so no fallback is needed.
                registry.m_errors += parsed.errors;
                if (existing)
                    existing->agent.permission += parsed.permission;
                continue;
            }
            problems += configErrorLines(parsed.errors);
            if (existing) {
                existing->agent.permission += parsed.permission;
                problems.append(tr("%1: the settings for the built-in agent \"%2\" are ignored except its "
                                   "permission rules.")
                                    .arg(entry.sourceMap.describe({}), entry.key));
            } else {
                problems.append(tr("%1: the agent \"%2\" is skipped.").arg(entry.sourceMap.describe({}), entry.key));
            }
            continue;
        }
        if (!existing) {
            Agent agent;
            agent.name = entry.key;
            agent.mode = AgentMode::All;
            agent.native = false;
            agent.permission = PermissionRules::merge({BuiltinAgents::defaults(paths), user});
            registry.m_entries.append({entry.key, agent});
            existing = &registry.m_entries.last();
        }
        apply(existing->agent, parsed);
    }

    // Saved tool output stays readable unless an agent denies exactly it.
    const QString toolOutput = paths.toolOutputGlob();
    for (Entry &e : registry.m_entries) {
        const bool denied = std::any_of(e.agent.permission.cbegin(), e.agent.permission.cend(), [&](const PermissionRule &r) {
            return r.permission == "external_directory"_L1 && r.action == PermissionAction::Deny && r.pattern == toolOutput;
        });
        if (!denied)
            e.agent.permission.append({u"external_directory"_s, toolOutput, PermissionAction::Allow});
    }

    const QJsonValue defaultAgent = config.value("default_agent"_L1);
    if (defaultAgent.isString())
        registry.m_configuredDefault = defaultAgent.toString();
    else if (!defaultAgent.isUndefined() && !defaultAgent.isNull())
        problems.append(tr("config: \"default_agent\" must be an agent name; it is ignored."));

    for (const QString &problem : std::as_const(problems))
        qCWarning(lcAgents).noquote() << problem;
    for (const ConfigError &error : std::as_const(registry.m_errors))
        qCWarning(lcAgents).noquote() << "agent error:" << error.toString();
    return registry;
}

QList<Agent> AgentRegistry::list() const
{
    const QString first = m_configuredDefault.isEmpty() ? u"build"_s : m_configuredDefault;
    QList<Agent> out;
    for (const Entry &e : m_entries) {
        if (e.key == first)
            out.prepend(e.agent);
        else
            out.append(e.agent);
    }
    return out;
}

Result<QString> AgentRegistry::defaultAgent() const
{
    if (!m_configuredDefault.isEmpty()) {
        const Agent *agent = find(m_configuredDefault);
        if (!agent)
            return Error{tr("default agent \"%1\" not found").arg(m_configuredDefault)};
        if (agent->mode == AgentMode::Subagent)
            return Error{tr("default agent \"%1\" is a subagent").arg(m_configuredDefault)};
        if (agent->isHidden())
            return Error{tr("default agent \"%1\" is hidden").arg(m_configuredDefault)};
        return m_configuredDefault;
    }
    for (const Entry &e : m_entries) {
        if (e.agent.mode != AgentMode::Subagent && !e.agent.isHidden())
            return e.key;
    }
    return Error{tr("no primary visible agent found")};
}

} // namespace qcode
