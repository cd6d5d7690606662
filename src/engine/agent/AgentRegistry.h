#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

#include "Agent.h"
#include "AgentPaths.h"
#include "MarkdownAgents.h"
#include "model/Result.h"

namespace qcode {

class Config;
struct ConfigLocations;

// The agents of one project (OpenCode's Agent namespace, reference §7):
// the built-in ones, changed, removed or joined by config `agent` entries,
// the legacy `mode` map, and Markdown agents.
//
// Merge order: built-ins; then each config entry (config `agent`, with the
// Markdown agent of the same name merged over it, then the legacy `mode`
// entry), whose fields replace the agent's, whose options merge into its
// options and whose permission rules are appended after its rules; finally
// the tool-output folder is allowed unless the agent denies exactly it.
//
// A bad config entry never stops the others: it is reported in problems()
// and skipped. A Markdown agent that cannot be read, whose front matter is
// broken or has a field of the wrong type is an error (errors()): it may
// hold tighter rules than the agent it changes, so its project must not
// run without it. Skipping an entry for a
// built-in agent keeps the built-in, and still applies the entry's
// permission rules, so a typo elsewhere in an entry cannot widen what the
// agent may do.
class AgentRegistry
{
    Q_DECLARE_TR_FUNCTIONS(AgentRegistry)

public:
    AgentRegistry() = default;

    // Reads `config` (the merged opencode.json) and the Markdown agents in
    // the folders `locations` names. `dataDirectory` is qcode's data folder
    // (DataPaths::dataDirectory()): the built-in rules let every agent read
    // saved tool output there, and the plan agent write plans.
    static AgentRegistry load(const Config &config, const ConfigLocations &locations, const QString &dataDirectory,
                              const QStringList &skillDirectories = {});
    // The same from parts. `environment` supplies OPENCODE_PERMISSION.
    static AgentRegistry build(const QJsonObject &config, const QList<MarkdownAgent> &markdownAgents,
                               const AgentPaths &paths, const QProcessEnvironment &environment = {});

    // By the key it is configured under ("build", "team/lead").
    const Agent *find(const QString &key) const;
    std::optional<Agent> get(const QString &key) const { return find(key) ? std::optional(*find(key)) : std::nullopt; }
    QStringList keys() const;

    // Every agent, the default one first, the others in the order they
    // were defined (built-ins first).
    QList<Agent> list() const;

    // Config `default_agent` when it names a visible agent that is not a
    // subagent (an error otherwise); else the first such agent (build).
    Result<QString> defaultAgent() const;

    const QStringList &problems() const { return m_problems; }
    const ConfigErrors &errors() const { return m_errors; }

private:
    struct Entry {
        QString key;
        Agent agent;
    };
    Entry *entry(const QString &key);

    QList<Entry> m_entries;
    QString m_configuredDefault;
    QStringList m_problems;
    ConfigErrors m_errors;
};

} // namespace qcode
