#include "ProjectCache.h"

#include <QCoro/QCoroSignal>
#include <QDir>
#include <QFileInfo>

#include "engine/config/LocalServerDetector.h"
#include "engine/config/McpConfig.h"
#include "engine/mcp/McpManager.h"
#include "engine/tool/ToolRegistry.h"
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
    const McpConfig mcp = McpConfig::fromJson(project->instance->config().json());
    if (!mcp.servers.isEmpty() && project->instance->configErrors().isEmpty()) {
        const QProcessEnvironment environment = m_options.mcpEnvironment.isEmpty()
            ? QProcessEnvironment::systemEnvironment() : m_options.mcpEnvironment;
        // No parent: a forgotten project's servers are closed when the last
        // prompt on it lets go (on this thread, where projects live).
        project->mcp = std::make_shared<McpManager>(mcp, folder, environment);
        project->mcp->connectAll();
    }
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

QCoro::Task<> ProjectCache::mcpReady(std::shared_ptr<LoadedProject> project) const
{
    if (!project->mcp)
        co_return;
    QCoro::Task<> settling = project->mcp->settled(m_options.mcpWaitMs);
    co_await settling;
}

std::shared_ptr<ToolRunner> ProjectCache::toolsFor(LoadedProject &project)
{
    if (!project.tools) {
        project.tools = m_options.makeTools(*project.instance);
        if (auto *registry = dynamic_cast<ToolRegistry *>(project.tools.get()); registry && project.mcp)
            registry->addSource(project.mcp);
    }
    return project.tools;
}

void ProjectCache::forget(const QString &directory)
{
    m_projects.erase(folderOf(directory));
}

} // namespace qcode
