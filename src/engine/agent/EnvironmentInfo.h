#pragma once

#include <QDate>
#include <QString>

#include <optional>

namespace qcode {

// What the environment block of the system prompt tells the model
// (reference §6.1). forDirectory() reads it from the machine; tests fill
// it by hand.
struct EnvironmentInfo {
    QString workingDirectory;
    QString worktree;       // the workspace (git worktree) root
    bool isGitRepo = false;
    QString platform;       // as Node names it: "linux", "darwin", "win32" …
    QDate today;
    // The <directories> block's content. OpenCode 1.2 leaves it empty;
    // ProjectListing::tree() can fill it.
    std::optional<QString> directoryListing;

    static EnvironmentInfo forDirectory(const QString &directory, const QString &worktree);

    static QString currentPlatform();
    // Whether `directory` or a folder above it holds .git (a folder, or the
    // file a linked worktree has).
    static bool isInsideGitRepository(const QString &directory);
    // JavaScript's Date.toDateString(): "Tue Mar 03 2026".
    static QString dateString(const QDate &date);
};

} // namespace qcode
