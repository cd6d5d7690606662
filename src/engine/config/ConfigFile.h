#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include "model/Result.h"

namespace qcode {

// Reads a file where configuration is expected (opencode.json, a
// `{file:…}` reference, an agent's Markdown) without ever hanging or
// swallowing a mistake: a folder, a pipe, a socket, a device or a file
// larger than MaxBytes is refused before anything is read, and a pipe is
// never opened for a blocking read. Errors are sentences without the path
// ("is a folder, not a file"), for the caller to place.
class ConfigFile
{
    Q_DECLARE_TR_FUNCTIONS(ConfigFile)

public:
    static constexpr qint64 MaxBytes = 4 * 1024 * 1024;

    static Result<QByteArray> read(const QString &path);
};

} // namespace qcode
