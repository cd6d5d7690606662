#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include "ConfigError.h"
#include "JsoncParser.h"

namespace qcode {

// The types OpenCode's config schema gives each key qcode reads (and the
// common ones it only tolerates), checked on one file before it is merged,
// so an error names the file, line and column of the offending value.
// A key of the wrong type is an error, never silently dropped: a
// `permission` written as a list would otherwise stop denying anything.
//
// Nested objects accept keys they do not know (providers pass options
// through; newer OpenCode versions add fields); unknown top-level keys
// are returned in `unknownKeys` for the log.
class ConfigSchema
{
    Q_DECLARE_TR_FUNCTIONS(ConfigSchema)

public:
    static ConfigErrors check(const JsoncDocument &document, const QString &fileName,
                              QStringList *unknownKeys = nullptr);
};

} // namespace qcode
