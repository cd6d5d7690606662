#include "ProjectCache.h"

#include <QCoro/QCoroSignal>
#include <QDir>
#include <QFileInfo>

#include "engine/config/LocalServerDetector.h"
#include "engine/session/SessionLogging.h"
#include "model/Store.h"

namespace qcode {

ProjectCache::ProjectCache(Options options, Store &store, QObject *context)
    : m_options(std::move(options))
    , m_store(store)
    , m_context(context)
{
}

QString ProjectCache::folderOf(const QString &directory)
{
    return QDir::cleanPath(QFileInfo(directory).absoluteFilePath());
}

std::shared_ptr<LoadedProject> ProjectCache::loaded(const QString &directory)
{
    const QString folder = folderOf(directory);
    auto found = m_projects.find(folder);
    if (found != m_projects.end())
        return found->second;
    const QString worktree = ProjectInstance::findWorktree(folder);
    const ConfigLocations locations = m_options.locations(folder, worktree);
    auto project = std::make_shared<LoadedProject>();
    project->instance = ProjectInstance::load(folder, locations, m_options.dataDirectory, m_options.secrets);
    project->commands = CommandRegistry::load(project->instance->config(), locations);
    project->homeDirectory = locations.homeDirectory.isEmpty() ? QDir::homePath() : locations.homeDirectory;
    // Each loader has logged its own problems and errors already.
    for (const QString &problem : project->instance->problems())
        qCInfo(lcSession) << "config:" << problem;
    if (Result<void> saved = m_store.upsertProject(project->instance->project()); !saved)
        qCWarning(lcSession) << "project" << folder << "not saved:" << saved.errorMessage();
    m_projects.emplace(folder, project);
    const std::weak_ptr<LoadedProject> weak = project;
    const auto sourceFinished = [weak] {
        if (const std::shared_ptr<LoadedProject> done = weak.lock())
            done->sources->finished();
    };
    ProviderRegistry &providers = project->instance->providers();
    if (m_options.secrets) {
        project->sources->started();
        QCoro::connect(providers.loadStoredKeys(), m_context, sourceFinished);
    }
    if (!m_options.localServerProbes.isEmpty()) {
        // Probed again at each load (a reload after Settings closes too),
        // so a server started meanwhile is offered.
        project->sources->started();
        auto *detector = new LocalServerDetector(m_context);
        detector->setProbes(m_options.localServerProbes);
        QCoro::connect(detector->detect(), m_context,
                       [weak, detector, sourceFinished](const QList<LocalServer> &servers) {
                           detector->deleteLater();
                           if (const std::shared_ptr<LoadedProject> done = weak.lock())
                               done->instance->providers().setLocalServers(servers);
                           sourceFinished();
                       });
    }
    return project;
}

QCoro::Task<> ProjectCache::ready(std::shared_ptr<LoadedProject> project)
{
    if (project->sources->isPending())
        co_await qCoro(project->sources.get(), &ProviderSources::settled);
}

std::shared_ptr<ToolRunner> ProjectCache::toolsFor(LoadedProject &project)
{
    if (!project.tools)
        project.tools = m_options.makeTools(*project.instance);
    return project.tools;
}

void ProjectCache::forget(const QString &directory)
{
    m_projects.erase(folderOf(directory));
}

} // namespace qcode
