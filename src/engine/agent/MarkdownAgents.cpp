#include "MarkdownAgents.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include "AgentLogging.h"
#include "FrontMatter.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

bool isSet(const QProcessEnvironment &environment, const QString &name)
{
    const QString value = environment.value(name).trimmed().toLower();
    return value == "1"_L1 || value == "true"_L1;
}

// Markdown files below `root`, sorted so loading is deterministic.
QStringList markdownFiles(const QString &root, bool recursive)
{
    QStringList files;
    if (!QFileInfo(root).isDir())
        return files;
    // Unreadable files, pipes and folders named *.md are listed too: each
    // is an error when read, never silently passed over.
    QDirIterator it(root, {u"*.md"_s}, QDir::Files | QDir::Dirs | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot,
                    recursive ? QDirIterator::Subdirectories | QDirIterator::FollowSymlinks : QDirIterator::NoIteratorFlags);
    while (it.hasNext())
        files.append(it.next());
    files.sort();
    return files;
}

QString nameBelow(const QString &root, const QString &file)
{
    QString relative = QDir(root).relativeFilePath(file);
    relative.chop(3); // ".md"
    return relative;
}

} // namespace

QStringList MarkdownAgents::directories(const ConfigLocations &locations)
{
    QStringList candidates = locations.globalDirectories;
    if (!locations.homeDirectory.isEmpty())
        candidates.append(QDir(locations.homeDirectory).filePath(u".opencode"_s));
    if (!isSet(locations.environment, u"OPENCODE_DISABLE_PROJECT_CONFIG"_s)) {
        for (const QString &dir : locations.projectChain())
            candidates.append(QDir(dir).filePath(u".opencode"_s));
    }
    const QString configDir = locations.environment.value(u"OPENCODE_CONFIG_DIR"_s);
    if (!configDir.isEmpty())
        candidates.append(configDir);

    QStringList out;
    for (const QString &candidate : std::as_const(candidates)) {
        const QString clean = QDir::cleanPath(QFileInfo(candidate).absoluteFilePath());
        if (QFileInfo(clean).isDir() && !out.contains(clean))
            out.append(clean);
    }
    return out;
}

Result<MarkdownAgent> MarkdownAgents::loadFile(const QString &file, const QString &name)
{
    Result<MarkdownDocument> document = FrontMatter::read(file);
    if (!document)
        return document.error();
    MarkdownAgent agent;
    agent.file = file;
    agent.config = document->data;
    agent.sourceMap = document->sourceMap;
    const QJsonValue ownName = agent.config.value("name"_L1);
    agent.name = ownName.isString() && !ownName.toString().isEmpty() ? ownName.toString() : name;
    if (!agent.config.contains("name"_L1))
        agent.config.insert(u"name"_s, agent.name);
    agent.config.insert(u"prompt"_s, document->body.trimmed());
    return agent;
}

QList<MarkdownAgent> MarkdownAgents::load(const QStringList &directories, QStringList *problems,
                                          ConfigErrors *errors)
{
    QList<MarkdownAgent> agents;
    const auto add = [&](const QString &file, const QString &name, bool primary) {
        Result<MarkdownAgent> agent = loadFile(file, name);
        if (!agent) {
            const ConfigError error = ConfigError::fromLocatedText(file, agent.errorMessage());
            qCWarning(lcAgents).noquote() << error.toString();
            if (errors)
                errors->append(error);
            else if (problems)
                problems->append(error.toString());
            return;
        }
        if (primary)
            agent->config.insert(u"mode"_s, u"primary"_s);
        qCDebug(lcAgents) << "agent" << agent->name << "from" << file;
        agents.append(std::move(agent).value());
    };
    for (const QString &dir : directories) {
        for (const QString &folder : {u"agent"_s, u"agents"_s}) {
            const QString root = QDir(dir).filePath(folder);
            for (const QString &file : markdownFiles(root, true))
                add(file, nameBelow(root, file), false);
        }
        for (const QString &folder : {u"mode"_s, u"modes"_s}) {
            const QString root = QDir(dir).filePath(folder);
            for (const QString &file : markdownFiles(root, false))
                add(file, nameBelow(root, file), true);
        }
    }
    return agents;
}

} // namespace qcode
