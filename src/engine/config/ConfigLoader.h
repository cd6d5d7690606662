#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

#include "ConfigError.h"
#include "ConfigLocations.h"
#include "model/Result.h"

namespace qcode {

// The merged configuration and how it came about.
struct LoadedConfig {
    QJsonObject json;     // every file merged, later wins
    QStringList files;    // the files that were read and merged, in order
    QStringList problems; // notes that leave the config usable (a named file that does not exist)
    ConfigErrors errors;  // files qcode must not run without; each such file is left out of `json`
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
// A file that exists but cannot be read (a folder, a pipe, a device, over
// ConfigFile::MaxBytes), is not UTF-8, does not parse, or has a key of the
// wrong type (ConfigSchema) is an error with its line and column: the
// project refuses prompts until it is fixed, as OpenCode refuses to start.
class ConfigLoader
{
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    static LoadedConfig load(const ConfigLocations &locations);

    // The candidate paths in merge order, whether they exist or not.
    static QStringList candidateFiles(const ConfigLocations &locations);

    // Reads one file: UTF-8 check, substitution, JSONC, then the schema.
    // Errors read "<path>:<line>:<column>: <what is wrong>".
    static Result<QJsonObject> loadFile(const QString &path, const ConfigLocations &locations);
    static Result<QJsonObject> parseText(const QByteArray &text, const QString &path, const ConfigLocations &locations);
    // The same, with every error of the file.
    static std::optional<QJsonObject> loadFile(const QString &path, const ConfigLocations &locations,
                                               ConfigErrors *errors);
    static std::optional<QJsonObject> parseText(const QByteArray &text, const QString &path,
                                                const ConfigLocations &locations, ConfigErrors *errors);
};

} // namespace qcode
