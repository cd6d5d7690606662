#pragma once

#include <QCoreApplication>
#include <QString>

#include <memory>

#include "engine/agent/AgentRegistry.h"
#include "engine/agent/EnvironmentInfo.h"
#include "engine/agent/InstructionFiles.h"
#include "engine/config/Config.h"
#include "engine/config/ConfigError.h"
#include "engine/config/ConfigLocations.h"
#include "engine/config/ProviderRegistry.h"
#include "engine/session/loop/ModelRequest.h"
#include "model/Project.h"
#include "model/Result.h"

namespace qcode {

class SnapshotStore;

// One project folder as the engine sees it (OpenCode's Instance): where it
// is, which project it belongs to, and what its configuration says —
// agents, providers and models, instruction files. Loaded once per folder
// and kept while the engine runs.
class ProjectInstance
{
    Q_DECLARE_TR_FUNCTIONS(ProjectInstance)

public:
    // Reads the configuration of `directory`. Notes (problems()) leave the
    // rest usable; configErrors() (a file that cannot be read or parsed, a
    // key of the wrong type, a broken agent file) mean the project must
    // not run a prompt until they are fixed and it is loaded again.
    ~ProjectInstance();

    // `secrets` (may be null: no keychain) gives the providers the keys
    // saved in the OS keychain once providers().loadStoredKeys() has run;
    // it must outlive the instance.
    static std::unique_ptr<ProjectInstance> load(const QString &directory, const ConfigLocations &locations,
                                                 const QString &dataDirectory, SecretStore *secrets = nullptr);

    // The git worktree holding `directory` (the nearest folder above it
    // with a .git), or empty outside git.
    static QString findWorktree(const QString &directory);
    // OpenCode's project id: the repository's first root commit (cached in
    // .git/opencode as OpenCode does), "global" outside git.
    static QString projectID(const QString &worktree);

    const QString &directory() const { return m_directory; }
    const QString &worktree() const { return m_worktree; }
    const Project &project() const { return m_project; }
    const Config &config() const { return m_config; }
    const AgentRegistry &agents() const { return m_agents; }
    ProviderRegistry &providers() { return *m_providers; }
    const ProviderRegistry &providers() const { return *m_providers; }
    InstructionFiles &instructions() { return m_instructions; }
    EnvironmentInfo environment() const;
    QStringList problems() const;
    // problems() of the config files and agents alone, without the
    // providers' (a keychain that cannot be read, a package qcode lacks).
    QStringList configNotes() const;
    ConfigErrors configErrors() const { return m_configErrors; }
    // The first config error as a failure to report, or success.
    Result<void> checkConfig() const;

    // The model `ref` names, ready to call, or OpenCode's error: "Model not
    // found: p/m. Did you mean: …?".
    Result<ResolvedModel> resolveModel(const ModelRef &ref) const;
    // The provider list's default model (config `model`, else the first
    // usable one).
    Result<ModelRef> defaultModel() const { return m_providers->defaultModel(); }
    // config `small_model`, else the provider's small model, else `fallback`.
    ModelRef smallModel(const ModelRef &fallback) const;

    // The compaction settings of config `compaction`.
    bool autoCompact() const;
    bool prune() const;
    std::optional<qint64> reservedTokens() const;
    bool continueLoopOnDeny() const;

    // The project's snapshot store (reference §11.1), or null: outside git,
    // or when config `snapshot` is false.
    SnapshotStore *snapshots() const { return m_snapshots.get(); }

private:
    ProjectInstance() = default;

    QString m_directory;
    QString m_worktree;
    Project m_project;
    Config m_config;
    QStringList m_configProblems;
    ConfigErrors m_configErrors;
    AgentRegistry m_agents;
    std::unique_ptr<ProviderRegistry> m_providers;
    InstructionFiles m_instructions{InstructionSources{}};
    std::unique_ptr<SnapshotStore> m_snapshots;
};

} // namespace qcode
