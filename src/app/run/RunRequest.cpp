#include "RunRequest.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdio>

#ifdef Q_OS_WIN
#include <io.h>
#define QCODE_ISATTY _isatty
#define QCODE_FILENO _fileno
#else
#include <unistd.h>
#define QCODE_ISATTY isatty
#define QCODE_FILENO fileno
#endif

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString absoluteFrom(const QString &base, const QString &path)
{
    return QDir::cleanPath(QDir(base).absoluteFilePath(path));
}

} // namespace

Result<RunRequest> RunRequestResolver::resolve(const RunArguments &arguments, const QString &currentDirectory,
                                               const PipedInput &pipedInput)
{
    RunRequest request;
    request.directory = absoluteFrom(currentDirectory, arguments.directory.isEmpty() ? u"."_s : arguments.directory);
    const QFileInfo folder(request.directory);
    if (!folder.exists())
        return Error{tr("The folder %1 does not exist.").arg(QDir::toNativeSeparators(request.directory))};
    if (!folder.isDir())
        return Error{tr("%1 is not a folder.").arg(QDir::toNativeSeparators(request.directory))};

    for (const QString &file : arguments.files) {
        const QString path = absoluteFrom(request.directory, file);
        const QFileInfo info(path);
        if (!info.exists())
            return Error{tr("File not found: %1 (looked for %2).").arg(file, QDir::toNativeSeparators(path))};
        if (!info.isReadable())
            return Error{tr("File %1 cannot be read.").arg(QDir::toNativeSeparators(path))};
        request.files.append(path);
    }

    request.message = arguments.messageWords.join(u' ');
    if (request.message.isEmpty() && pipedInput) {
        if (const std::optional<QByteArray> piped = pipedInput())
            request.message = QString::fromUtf8(*piped);
    }
    if (request.message.trimmed().isEmpty())
        return Error{tr("No message: give one as words after `qcode run`, or pipe it in on standard input.")};

    request.model = arguments.model;
    request.agent = arguments.agent;
    request.continueLast = arguments.continueLast;
    request.sessionID = arguments.sessionID;
    request.format = arguments.format;
    request.autoApprove = arguments.autoApprove;
    return request;
}

std::optional<QByteArray> RunRequestResolver::readStandardInput()
{
    if (QCODE_ISATTY(QCODE_FILENO(stdin)))
        return std::nullopt;
    QFile input;
    if (!input.open(stdin, QIODevice::ReadOnly))
        return std::nullopt;
    return input.readAll();
}

} // namespace qcode
