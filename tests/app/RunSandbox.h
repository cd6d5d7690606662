#pragma once

#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

#include "TempTree.h"

namespace qcode::test {

// A private world for one `qcode run` process: HOME, XDG_CONFIG_HOME,
// XDG_DATA_HOME (and cache and state) in a temporary folder, a project
// folder, and an opencode.json whose custom providers point at fake
// servers — the same file would drive `opencode run`.
class RunSandbox
{
public:
    RunSandbox();

    bool isValid() const { return m_valid; }
    QString root() const { return m_tree.root(); }
    QString projectDirectory() const { return m_tree.path(QStringLiteral("project")); }
    QString configFile() const { return m_tree.path(QStringLiteral("config/opencode/opencode.json")); }
    // Where qcode keeps its database under XDG_DATA_HOME.
    QString databaseFile() const { return m_tree.path(QStringLiteral("data/qcode/qcode.db")); }

    // Writes opencode.json: provider "fake" (model "fake-model") at
    // `provider`, the default model; provider "titles" at `titles`, the
    // small model that names sessions, so title calls never take the main
    // server's scripted answers. `extra` keys are merged over the top level.
    bool writeConfig(const QUrl &provider, const QUrl &titles, const QJsonObject &extra = {}) const;
    bool writeProjectFile(const QString &relative, const QByteArray &text) const;

    // The system environment with every folder pointed inside the sandbox
    // and the variables that would redirect qcode's data or config removed.
    QProcessEnvironment environment() const;

private:
    TempTree m_tree;
    bool m_valid = false;
};

} // namespace qcode::test
