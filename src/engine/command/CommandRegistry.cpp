#include "CommandRegistry.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>

#include "CommandLogging.h"
#include "engine/agent/FrontMatter.h"
#include "engine/agent/MarkdownAgents.h"
#include "engine/config/Config.h"
#include "engine/config/ConfigLocations.h"
#include "engine/config/ProviderRegistry.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

bool isAbsent(const QJsonValue &value)
{
    return value.isUndefined() || value.isNull();
}

// What is wrong with one source's fields, or nothing.
std::optional<QString> fieldProblem(const QJsonObject &fields)
{
    for (const QString &key : {u"template"_s, u"description"_s, u"agent"_s, u"name"_s}) {
        const QJsonValue value = fields.value(key);
        if (!isAbsent(value) && !value.isString())
            return CommandRegistry::tr("\"%1\" must be text").arg(key);
    }
    const QJsonValue model = fields.value("model"_L1);
    if (!isAbsent(model) && !ProviderRegistry::parseModel(model.toString()))
        return CommandRegistry::tr("\"model\" must be of the form provider/model");
    const QJsonValue subtask = fields.value("subtask"_L1);
    if (!isAbsent(subtask) && !subtask.isBool())
        return CommandRegistry::tr("\"subtask\" must be true or false");
    return std::nullopt;
}

// Markdown files below `root`, sorted so loading is deterministic.
QStringList markdownFiles(const QString &root)
{
    QStringList files;
    if (!QFileInfo(root).isDir())
        return files;
    QDirIterator it(root, {u"*.md"_s}, QDir::Files | QDir::Hidden | QDir::Readable,
                    QDirIterator::Subdirectories | QDirIterator::FollowSymlinks);
    while (it.hasNext())
        files.append(it.next());
    files.sort();
    return files;
}

} // namespace

CommandRegistry CommandRegistry::load(const Config &config, const ConfigLocations &locations)
{
    return build(config.value(u"command"_s), MarkdownAgents::directories(locations));
}

CommandRegistry CommandRegistry::build(const QJsonValue &configCommands, const QStringList &directories)
{
    CommandRegistry registry;
    if (configCommands.isObject()) {
        const QJsonObject map = configCommands.toObject();
        for (auto it = map.begin(); it != map.end(); ++it) {
            const QString source = tr("config");
            if (!it.value().isObject()) {
                registry.m_problems.append(
                    tr("%1: command.%2 must be a map of settings; it is skipped.").arg(source, it.key()));
                continue;
            }
            const QJsonObject fields = it.value().toObject();
            if (!fields.value("template"_L1).isString()) {
                registry.m_problems.append(
                    tr("%1: command.%2 has no \"template\" text; it is skipped.").arg(source, it.key()));
                continue;
            }
            registry.merge(it.key(), fields, source);
        }
    } else if (!isAbsent(configCommands)) {
        registry.m_problems.append(tr("config: \"command\" must be a map of command names to their settings; it is "
                                      "ignored."));
    }
    for (const QString &directory : directories)
        registry.loadDirectory(directory);

    std::sort(registry.m_commands.begin(), registry.m_commands.end(),
              [](const CommandDefinition &a, const CommandDefinition &b) { return a.name < b.name; });
    for (const QString &problem : std::as_const(registry.m_problems))
        qCWarning(lcCommands).noquote() << problem;
    return registry;
}

void CommandRegistry::loadDirectory(const QString &directory)
{
    for (const QString &folder : {u"command"_s, u"commands"_s}) {
        const QString root = QDir(directory).filePath(folder);
        for (const QString &file : markdownFiles(root)) {
            const Result<MarkdownDocument> document = FrontMatter::read(file);
            if (!document) {
                m_problems.append(tr("The command file could not be loaded: %1").arg(document.errorMessage()));
                continue;
            }
            QString name = QDir(root).relativeFilePath(file);
            name.chop(3); // ".md"
            QJsonObject fields = document->data;
            fields.insert(u"template"_s, document->body.trimmed());
            if (const QJsonValue own = fields.value("name"_L1); own.isString() && !own.toString().isEmpty())
                name = own.toString();
            merge(name, fields, file);
        }
    }
}

void CommandRegistry::merge(const QString &name, const QJsonObject &fields, const QString &source)
{
    if (const std::optional<QString> problem = fieldProblem(fields)) {
        m_problems.append(tr("%1: the command \"%2\" is skipped: %3.").arg(source, name, *problem));
        return;
    }
    auto found = std::find_if(m_commands.begin(), m_commands.end(),
                              [&name](const CommandDefinition &command) { return command.name == name; });
    if (found == m_commands.end()) {
        m_commands.append(CommandDefinition{name, {}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, {}});
        found = m_commands.end() - 1;
    }
    CommandDefinition &command = *found;
    command.source = source;
    if (const QJsonValue value = fields.value("template"_L1); value.isString())
        command.templateText = value.toString();
    if (const QJsonValue value = fields.value("description"_L1); value.isString())
        command.description = value.toString();
    if (const QJsonValue value = fields.value("agent"_L1); value.isString())
        command.agent = value.toString();
    if (const QJsonValue value = fields.value("model"_L1); value.isString())
        command.model = ProviderRegistry::parseModel(value.toString());
    if (const QJsonValue value = fields.value("subtask"_L1); value.isBool())
        command.subtask = value.toBool();
    qCDebug(lcCommands) << "command" << name << "from" << source;
}

const CommandDefinition *CommandRegistry::find(const QString &name) const
{
    const auto found = std::find_if(m_commands.cbegin(), m_commands.cend(),
                                    [&name](const CommandDefinition &command) { return command.name == name; });
    return found == m_commands.cend() ? nullptr : &*found;
}

QStringList CommandRegistry::names() const
{
    QStringList out;
    for (const CommandDefinition &command : m_commands)
        out.append(command.name);
    return out;
}

} // namespace qcode
