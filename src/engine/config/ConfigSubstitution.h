#pragma once

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QString>

#include "ConfigError.h"
#include "model/Result.h"

namespace qcode {

// OpenCode's placeholders in config text, replaced before parsing:
// `{env:VAR}` becomes the variable's value (empty when unset) and
// `{file:path}` the trimmed contents of a file, relative to the config
// file's folder, `~/` meaning the home folder. Values are escaped for a
// JSON string, where placeholders stand in practice. A `{file:…}` on a
// line that starts with `//` is left alone, as OpenCode does. A referenced
// file that is missing, unreadable, not a regular file or not UTF-8 is an
// error placed at the reference.
class ConfigSubstitution
{
    Q_DECLARE_TR_FUNCTIONS(ConfigSubstitution)

public:
    static Result<QString> apply(const QString &text, const QString &configFile,
                                 const QProcessEnvironment &environment, const QString &homeDirectory,
                                 ConfigError *error = nullptr);
};

} // namespace qcode
