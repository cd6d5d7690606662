#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "CommandDefinition.h"

namespace qcode {

class Config;
struct ConfigLocations;

// The slash commands of one project, loaded where OpenCode loads them
// (config.ts): the config's `command` map ({name: {template, description,
// agent, model, subtask}}), then in every config folder in merge order —
// the global config folders, ~/.opencode, the .opencode folders from the
// worktree down to the project, OPENCODE_CONFIG_DIR — the Markdown files
// {command,commands}/**/*.md, whose front matter holds description, agent,
// model and subtask (and optionally name) and whose trimmed body is the
// template. A file's name is its path below command/ without ".md".
//
// A later definition of a name is merged over the earlier one field by
// field, as OpenCode's deep merge does: a Markdown command overrides the
// config entry of its name, and a project's file a global one, while the
// fields it leaves out keep their earlier values. A bad entry (a file that
// cannot be read, broken front matter, a field of the wrong type) is named
// in problems() and skipped; the rest still load.
class CommandRegistry
{
    Q_DECLARE_TR_FUNCTIONS(CommandRegistry)

public:
    CommandRegistry() = default;

    static CommandRegistry load(const Config &config, const ConfigLocations &locations);
    // The same from parts: the `command` value of the merged config and the
    // config folders, in merge order.
    static CommandRegistry build(const QJsonValue &configCommands, const QStringList &directories);

    const CommandDefinition *find(const QString &name) const;
    // Sorted by name.
    const QList<CommandDefinition> &list() const { return m_commands; }
    QStringList names() const;
    const QStringList &problems() const { return m_problems; }

private:
    void merge(const QString &name, const QJsonObject &fields, const QString &source);
    void loadDirectory(const QString &directory);

    QList<CommandDefinition> m_commands;
    QStringList m_problems;
};

} // namespace qcode
