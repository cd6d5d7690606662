#pragma once

#include <QString>
#include <QStringList>

namespace qcode {

// The folders the built-in permission rules mention. The app fills it from
// DataPaths and the project; tests point it at temporary folders.
struct AgentPaths {
    QString dataDirectory;   // qcode's data folder (tool output, plans)
    QString worktree;        // the project's worktree root
    QString homeDirectory;   // for ~ and $HOME in permission patterns
    QStringList skillDirectories;

    // "<data>/tool-output/*": where truncated tool output is saved, always
    // readable (OpenCode's Truncate.GLOB).
    QString toolOutputGlob() const;
    // "<data>/plans": where the plan agent may write plans.
    QString plansDirectory() const;
};

} // namespace qcode
