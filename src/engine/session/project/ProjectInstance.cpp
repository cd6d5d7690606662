#include "ProjectInstance.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include "engine/session/SessionLogging.h"
#include "engine/catalogue/ModelCatalogue.h"
#include "engine/config/ConfigLoader.h"
#include "engine/snapshot/SnapshotStore.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// How far apart two ids are, for "did you mean" (Levenshtein distance).
int distance(const QString &a, const QString &b)
{
    QList<int> row(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        row[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::optional<bool> configFlag(const Config &config, const QString &section, const QString &key)
{
    const QJsonValue value = config.value(section).toObject().value(key);
    return value.isBool() ? std::optional(value.toBool()) : std::nullopt;
}

// A repository without commits has the project id "global", like every
// folder outside git; its snapshots still need a folder of their own.
QString snapshotFolder(const QString &projectID, const QString &worktree)
{
    if (projectID != u"global"_s)
        return projectID;
    return u"global-"_s
           + QString::fromLatin1(QCryptographicHash::hash(worktree.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
}

} // namespace

ProjectInstance::~ProjectInstance() = default;

std::unique_ptr<ProjectInstance> ProjectInstance::load(const QString &directory, const ConfigLocations &locations,
                                                       const QString &dataDirectory, SecretStore *secrets)
{
    std::unique_ptr<ProjectInstance> instance(new ProjectInstance);
    instance->m_directory = QDir::cleanPath(QFileInfo(directory).absoluteFilePath());
    instance->m_worktree = locations.worktreeRoot;
    const LoadedConfig loaded = ConfigLoader::load(locations);
    instance->m_config = Config::fromJson(loaded.json);
    instance->m_configProblems = loaded.problems;
    instance->m_agents = AgentRegistry::load(instance->m_config, locations, dataDirectory);
    instance->m_configErrors = loaded.errors + instance->m_agents.errors();
    instance->m_providers = std::make_unique<ProviderRegistry>(ModelCatalogue::bundled(), instance->m_config,
                                                               locations.environment, secrets);
    instance->m_instructions = InstructionFiles(InstructionSources::from(instance->m_config, locations));

    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Project &project = instance->m_project;
    project.id = projectID(instance->m_worktree);
    project.worktree = instance->m_worktree.isEmpty() ? u"/"_s : instance->m_worktree;
    if (!instance->m_worktree.isEmpty())
        project.vcs = u"git"_s;
    project.timeCreated = now;
    project.timeUpdated = now;

    const QJsonValue snapshot = instance->m_config.value(u"snapshot"_s);
    if (!instance->m_worktree.isEmpty() && !(snapshot.isBool() && !snapshot.toBool())) {
        SnapshotStore::Options options;
        options.gitDirectory = QDir(dataDirectory).filePath(u"snapshot/"_s + snapshotFolder(project.id, instance->m_worktree));
        options.workTree = instance->m_worktree;
        instance->m_snapshots = std::make_unique<SnapshotStore>(options);
    }
    return instance;
}

QString ProjectInstance::findWorktree(const QString &directory)
{
    QDir dir(QFileInfo(directory).absoluteFilePath());
    while (true) {
        if (QFileInfo::exists(dir.filePath(u".git"_s)))
            return QDir::cleanPath(dir.absolutePath());
        if (!dir.cdUp())
            return {};
    }
}

QString ProjectInstance::projectID(const QString &worktree)
{
    if (worktree.isEmpty())
        return u"global"_s;
    // OpenCode caches the id in .git/opencode; reading it keeps sessions
    // shared between the two programs under one project.
    const QString cache = QDir(worktree).filePath(u".git/opencode"_s);
    if (QFile file(cache); file.open(QIODevice::ReadOnly)) {
        const QString id = QString::fromUtf8(file.readAll()).trimmed();
        if (!id.isEmpty())
            return id;
    }
    QProcess git;
    git.setWorkingDirectory(worktree);
    git.start(u"git"_s, {u"rev-list"_s, u"--max-parents=0"_s, u"--all"_s});
    if (!git.waitForFinished(5000) || git.exitStatus() != QProcess::NormalExit || git.exitCode() != 0) {
        git.kill();
        qCInfo(lcSession) << "no root commit for" << worktree << "- project id \"global\"";
        return u"global"_s;
    }
    QStringList roots = QString::fromUtf8(git.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
    for (QString &root : roots)
        root = root.trimmed();
    roots.sort();
    return roots.isEmpty() ? u"global"_s : roots.first();
}

EnvironmentInfo ProjectInstance::environment() const
{
    return EnvironmentInfo::forDirectory(m_directory, m_worktree.isEmpty() ? m_directory : m_worktree);
}

QStringList ProjectInstance::problems() const
{
    return configNotes() + m_providers->problems();
}

QStringList ProjectInstance::configNotes() const
{
    return m_configProblems + m_config.problems() + m_agents.problems();
}

Result<void> ProjectInstance::checkConfig() const
{
    if (m_configErrors.isEmpty())
        return {};
    // Every error is in the log and the summary; a refusal names the first,
    // the one to fix first.
    return Error{m_configErrors.constFirst().toString()};
}

Result<ResolvedModel> ProjectInstance::resolveModel(const ModelRef &ref) const
{
    const ProviderInfo *provider = m_providers->provider(ref.providerID);
    const ModelInfo *model = provider ? provider->model(ref.modelID) : nullptr;
    if (provider && model) {
        const std::optional<WireProtocol> protocol = provider->protocolFor(*model);
        if (!protocol) {
            return Error(tr("Model %1/%2 needs an SDK package qcode does not speak (%3).")
                             .arg(ref.providerID, ref.modelID, model->npm.isEmpty() ? provider->npm : model->npm));
        }
        return ResolvedModel{*provider, *model, *protocol};
    }
    // OpenCode's wording, with the closest ids of the same provider (or,
    // for an unknown provider, the closest provider ids).
    QList<QPair<int, QString>> candidates;
    if (provider) {
        for (const ModelInfo &candidate : provider->models)
            candidates.append({distance(candidate.id, ref.modelID), ref.providerID + u'/' + candidate.id});
    } else {
        for (const ProviderInfo &candidate : m_providers->providers())
            candidates.append({distance(candidate.id, ref.providerID), candidate.id});
    }
    std::sort(candidates.begin(), candidates.end());
    QStringList suggestions;
    for (const auto &[score, name] : std::as_const(candidates)) {
        if (suggestions.size() == 3)
            break;
        suggestions.append(name);
    }
    QString message = tr("Model not found: %1/%2.").arg(ref.providerID, ref.modelID);
    if (!suggestions.isEmpty())
        message += u' ' + tr("Did you mean: %1?").arg(suggestions.join(u", "_s));
    return Error(message);
}

ModelRef ProjectInstance::smallModel(const ModelRef &fallback) const
{
    const std::optional<ModelRef> small = m_providers->smallModel(fallback.providerID);
    if (small && resolveModel(*small))
        return *small;
    return fallback;
}

bool ProjectInstance::autoCompact() const
{
    return configFlag(m_config, u"compaction"_s, u"auto"_s).value_or(true);
}

bool ProjectInstance::prune() const
{
    return configFlag(m_config, u"compaction"_s, u"prune"_s).value_or(true);
}

std::optional<qint64> ProjectInstance::reservedTokens() const
{
    const QJsonValue value = m_config.value(u"compaction"_s).toObject().value(u"reserved"_s);
    return value.isDouble() ? std::optional(qint64(value.toDouble())) : std::nullopt;
}

bool ProjectInstance::continueLoopOnDeny() const
{
    return configFlag(m_config, u"experimental"_s, u"continue_loop_on_deny"_s).value_or(false);
}

} // namespace qcode
