#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace qcode {

// A project: a worktree sessions belong to (OpenCode's project table). Its
// id is the root commit of a git repository, or "global".
struct Project {
    QString id;
    QString worktree;
    std::optional<QString> vcs;
    std::optional<QString> name;
    std::optional<QString> iconUrl;
    std::optional<QString> iconColor;
    qint64 timeCreated = 0;
    qint64 timeUpdated = 0;
    std::optional<qint64> timeInitialized;
    QJsonArray sandboxes;
    std::optional<QJsonObject> commands;
};

} // namespace qcode
