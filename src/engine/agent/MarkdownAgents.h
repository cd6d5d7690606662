#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "ConfigSourceMap.h"
#include "engine/config/ConfigError.h"
#include "engine/config/ConfigLocations.h"
#include "model/Result.h"

namespace qcode {

// An agent written as Markdown: front matter = the `agent.<name>` config
// fields, body = the prompt.
struct MarkdownAgent {
    QString name;              // path below agent/ without ".md" ("review", "team/lead"), or front matter `name`
    QString file;
    QJsonObject config;        // front matter, plus "prompt" (the trimmed body) and "name"
    ConfigSourceMap sourceMap; // rooted at the front matter
};

// Finds Markdown agents where OpenCode looks for them (reference §7).
class MarkdownAgents
{
    Q_DECLARE_TR_FUNCTIONS(MarkdownAgents)

public:
    // The config folders, in merge order (a later folder's agent wins):
    // each global config folder, ~/.opencode, the .opencode folders from the
    // worktree root down to the project (skipped under
    // OPENCODE_DISABLE_PROJECT_CONFIG), then OPENCODE_CONFIG_DIR. Only
    // folders that exist.
    static QStringList directories(const ConfigLocations &locations);

    // In each folder, {agent,agents}/**/*.md, then {mode,modes}/*.md (the
    // legacy modes, made primary agents). A file that cannot be read (a
    // folder or a pipe named *.md too) or whose front matter is broken is
    // an error in `errors` with its file and line, and left out.
    static QList<MarkdownAgent> load(const QStringList &directories, QStringList *problems,
                                     ConfigErrors *errors = nullptr);

    static Result<MarkdownAgent> loadFile(const QString &file, const QString &name);
};

} // namespace qcode
