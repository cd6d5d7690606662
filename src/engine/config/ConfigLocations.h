#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace qcode {

// Everything config discovery reads from outside: folders and environment.
// The app fills it from the system; tests point it at temporary folders so
// they never read a person's real config.
struct ConfigLocations {
    QString homeDirectory;
    // User-wide config folders, in merge order (later wins): OpenCode's
    // ~/.config/opencode, then qcode's own config folder.
    QStringList globalDirectories;
    QString projectDirectory;
    // The upward walk from the project folder stops here (the git
    // worktree root); empty or unrelated: only the project folder itself.
    QString worktreeRoot;
    QProcessEnvironment environment;

    static ConfigLocations forSystem(const QString &projectDirectory, const QString &worktreeRoot);
    // The folders from the worktree root down to the project folder.
    QStringList projectChain() const;
};

} // namespace qcode
