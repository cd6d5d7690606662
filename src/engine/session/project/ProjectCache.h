#pragma once

#include <QCoro/QCoroTask>
#include <QList>
#include <QObject>
#include <QProcessEnvironment>
#include <QString>

#include <functional>
#include <map>
#include <memory>

#include "engine/command/CommandRegistry.h"
#include "engine/config/ConfigLocations.h"
#include "engine/config/LocalServer.h"
#include "engine/config/ProviderSources.h"
#include "engine/session/project/ProjectInstance.h"
#include "engine/session/loop/ToolRunner.h"

namespace qcode {

class McpManager;
class SecretStore;
class Store;

// One project folder as loaded: its configuration, the tools made for it
// and its slash commands. Shared by whatever runs on it, so a reload
// (ProjectCache::forget) never pulls it from under a running prompt.
struct LoadedProject {
    std::unique_ptr<ProjectInstance> instance;
    std::shared_ptr<ToolRunner> tools; // made on first use
    CommandRegistry commands;
    QString homeDirectory;             // for "@~/path" in command templates
    // The keychain's keys and the local servers still coming in: what
    // resolves models waits for them (ProjectCache::ready).
    std::unique_ptr<ProviderSources> sources = std::make_unique<ProviderSources>();
    // The project's MCP servers, connecting from the moment it is loaded;
    // null when its config names none. The tool registry shares it.
    std::shared_ptr<McpManager> mcp;
};

// The engine's loaded projects, by folder: each is loaded once (config,
// agents, commands, providers, the keychain's keys and the local servers)
// and kept until forgotten; its tools are made on first use.
class ProjectCache
{
public:
    struct Options {
        std::function<ConfigLocations(const QString &directory, const QString &worktree)> locations;
        QString dataDirectory;
        SecretStore *secrets = nullptr;
        QList<LocalServer> localServerProbes;
        // Makes the tools of one project.
        std::function<std::shared_ptr<ToolRunner>(ProjectInstance &project)> makeTools;
        // What local MCP servers start with; empty: the system's.
        QProcessEnvironment mcpEnvironment;
        int mcpWaitMs = 5000;
    };

    // `context` owns the probes and the keychain reads; `store` records
    // each project loaded.
    ProjectCache(Options options, Store &store, QObject *context);

    std::shared_ptr<LoadedProject> loaded(const QString &directory);
    ProjectInstance *project(const QString &directory) { return loaded(directory)->instance.get(); }
    // Done when the project's keychain keys and local servers are in.
    static QCoro::Task<> ready(std::shared_ptr<LoadedProject> project);
    // Done when the project's MCP servers are connected or failed, or
    // after Options::mcpWaitMs: what runs the model waits so its first
    // step has their tools, but never long.
    QCoro::Task<> mcpReady(std::shared_ptr<LoadedProject> project) const;
    std::shared_ptr<ToolRunner> toolsFor(LoadedProject &project);
    // What runs on it keeps it until it ends; the next use loads it again.
    void forget(const QString &directory);

private:
    static QString folderOf(const QString &directory);

    Options m_options;
    Store &m_store;
    QObject *m_context;
    std::map<QString, std::shared_ptr<LoadedProject>> m_projects;
};

} // namespace qcode
