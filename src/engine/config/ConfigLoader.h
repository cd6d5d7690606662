#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "ConfigLocations.h"
#include "model/Result.h"

namespace qcode {

// The merged configuration and how it came about.
struct LoadedConfig {
    QJsonObject json;     // every file merged, later wins
    QStringList files;    // the files that were read and merged, in order
    QStringList problems; // one sentence per file that was skipped, naming it
};

// Finds and merges OpenCode-format config files, in this order (later
// wins; OpenCode's precedence, reference §7):
//   1. each global folder: config.json, opencode.json, opencode.jsonc,
//      qcode.json, qcode.jsonc; then ~/.opencode/opencode.json(c)
//   2. the file named by OPENCODE_CONFIG, then the one named by QCODE_CONFIG
//   3. from the worktree root down to the project folder, in each folder:
//      opencode.jsonc, opencode.json, qcode.jsonc, qcode.json
//   4. the same walk for `.opencode/opencode.json(c)`
//   5. OPENCODE_CONFIG_DIR's opencode.json(c), then OPENCODE_CONFIG_CONTENT
// A file that cannot be read or parsed is reported and skipped; the others
// still apply.
class ConfigLoader
{
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    static LoadedConfig load(const ConfigLocations &locations);

    // The candidate paths in merge order, whether they exist or not.
    static QStringList candidateFiles(const ConfigLocations &locations);

    // Reads one file: substitution, then JSONC.
    static Result<QJsonObject> loadFile(const QString &path, const ConfigLocations &locations);
    static Result<QJsonObject> parseText(const QByteArray &text, const QString &path, const ConfigLocations &locations);
};

} // namespace qcode
