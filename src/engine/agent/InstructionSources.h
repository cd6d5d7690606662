#pragma once

#include <QString>
#include <QStringList>

namespace qcode {

class Config;
struct ConfigLocations;

// Everything instruction discovery reads from outside: folders, the config
// `instructions` list and OpenCode's environment switches. Tests fill it
// with temporary folders so a person's real files are never read.
struct InstructionSources {
    QString projectDirectory;      // where the walk up starts
    QString worktree;              // where it stops (the git worktree root)
    QString homeDirectory;
    QStringList globalDirectories; // user config folders (~/.config/opencode, qcode's own)
    QString configDirectory;       // OPENCODE_CONFIG_DIR; empty when unset
    bool disableProjectConfig = false;    // OPENCODE_DISABLE_PROJECT_CONFIG
    bool disableClaudeCodePrompt = false; // OPENCODE_DISABLE_CLAUDE_CODE_PROMPT
    QStringList instructions;      // config `instructions`: paths, globs, URLs

    static InstructionSources from(const Config &config, const ConfigLocations &locations);
};

} // namespace qcode
