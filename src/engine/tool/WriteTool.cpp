#include "WriteTool.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QtConcurrent>

#include <QCoro/QCoroFuture>

#include "FileTimes.h"
#include "LinkSafeFiles.h"
#include "TextFiles.h"
#include "ToolLogging.h"
#include "ToolPermission.h"
#include "UnifiedDiff.h"

namespace qcode {

WriteTool::WriteTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString WriteTool::name() const
{
    return QStringLiteral("write");
}

QString WriteTool::description() const
{
    // Instructions for the model, in qcode's words; not translated.
    return QStringLiteral(
        "Writes a file on the local filesystem, replacing it if it exists.\n\n"
        "Usage:\n"
        "- To overwrite an existing file, read it with the read tool in this conversation first; writing over a "
        "file you have not read, or that changed since you read it, fails.\n"
        "- Prefer the edit tool for changes to an existing file; write new files only when the task needs "
        "them.\n"
        "- Missing folders on the way are created.\n"
        "- Do not create documentation files (*.md, README) unless asked to.");
}

QJsonObject WriteTool::parameters() const
{
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("content"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                          {QStringLiteral("description"), QStringLiteral("The content to write to the file")}}},
             {QStringLiteral("filePath"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                          {QStringLiteral("description"),
                           QStringLiteral("The absolute path to the file to write (must be absolute, not "
                                          "relative)")}}},
         }},
        {QStringLiteral("required"), QJsonArray{QStringLiteral("content"), QStringLiteral("filePath")}},
    };
}

QCoro::Task<ToolResult> WriteTool::execute(QJsonObject arguments, ToolContext context)
{
    const QString filePath = arguments.value(QStringLiteral("filePath")).toString();
    const QJsonValue contentValue = arguments.value(QStringLiteral("content"));
    if (filePath.isEmpty())
        co_return ToolFailure{QStringLiteral("filePath is required")};
    if (!contentValue.isString())
        co_return ToolFailure{QStringLiteral("content must be a string")};
    const QString content = contentValue.toString();

    // `path` is what the person and the model see; `target` is where it
    // really leads, through any link: what is checked, read and written.
    const QString path = TextFiles::absolutePath(context, filePath);
    const Result<QString> resolved = TextFiles::realPath(path);
    if (!resolved)
        co_return ToolFailure{resolved.errorMessage()};
    const QString target = *resolved;
    QCoro::Task<std::optional<ToolFailure>> external =
        ToolPermission::checkExternalResolved(context, target, ToolPermission::PathKind::File);
    if (std::optional<ToolFailure> refused = co_await external)
        co_return *refused;

    const QFileInfo info(target);
    if (info.isDir())
        co_return ToolFailure{QStringLiteral("Path is a directory, not a file: %1").arg(path)};
    const bool exists = info.exists();
    QByteArray previous;
    if (exists) {
        if (!info.isFile())
            co_return ToolFailure{QStringLiteral("Cannot write %1: it is not a regular file").arg(path)};
        if (m_services.fileTimes) {
            const Result<void> writable = m_services.fileTimes->checkWritable(context.sessionID, path);
            if (!writable)
                co_return ToolFailure{writable.errorMessage()};
        }
        Result<QByteArray> read = LinkSafeFiles::read(target);
        if (!read)
            co_return ToolFailure{read.errorMessage()};
        previous = std::move(read).value();
    }

    // The diff shows a binary or non-UTF-8 file's old bytes as best it can;
    // the write replaces them whole either way.
    // Diffing a large file is slow: not on the engine thread.
    QFuture<QString> diffing = QtConcurrent::run([path, previous, content] {
        const QString before = TextFiles::toLf(QString::fromUtf8(previous));
        return UnifiedDiff::trimIndentation(UnifiedDiff::twoFilesPatch(path, path, before, TextFiles::toLf(content)));
    });
    const QString diff = co_await diffing;
    const QString relative = TextFiles::relativePath(context, path);

    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(
        context, ToolPermission::editRequest({relative}, {{QStringLiteral("filepath"), path}, {QStringLiteral("diff"), diff}}));
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    // While the question was open the file may have appeared or changed.
    bool changed = QFileInfo::exists(target) != exists;
    if (!changed && exists) {
        const Result<QByteArray> again = LinkSafeFiles::read(target);
        changed = !again || *again != previous;
    }
    if (changed)
        co_return ToolFailure{QStringLiteral("File %1 has been modified since it was last read.\n\n"
                                 "Please read the file again before modifying it.")
                                  .arg(path)};

    const Result<void> written = TextFiles::writeText(target, TextFiles::Text{content, false});
    if (!written)
        co_return ToolFailure{written.errorMessage()};
    if (m_services.fileTimes)
        m_services.fileTimes->recordRead(context.sessionID, path);
    qCDebug(lcTool) << "wrote" << path;

    ToolOutput output;
    output.output = QStringLiteral("Wrote file successfully.");
    output.title = relative;
    output.metadata = QJsonObject{
        {QStringLiteral("diagnostics"), QJsonObject()},
        {QStringLiteral("filepath"), path},
        {QStringLiteral("exists"), exists},
        {QStringLiteral("diff"), diff},
    };
    co_return output;
}

} // namespace qcode
