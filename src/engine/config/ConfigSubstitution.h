#pragma once

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QString>

#include "model/Result.h"

namespace qcode {

// OpenCode's placeholders in config text, replaced before parsing:
// `{env:VAR}` becomes the variable's value (empty when unset) and
// `{file:path}` the trimmed contents of a file, relative to the config
// file's folder, `~/` meaning the home folder. Values are escaped for a
// JSON string, where placeholders stand in practice. A `{file:…}` on a
// line that starts with `//` is left alone, as OpenCode does.
class ConfigSubstitution
{
    Q_DECLARE_TR_FUNCTIONS(ConfigSubstitution)

public:
    static Result<QString> apply(const QString &text, const QString &configFile,
                                 const QProcessEnvironment &environment, const QString &homeDirectory);
};

} // namespace qcode
