#include "ReadTool.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QtConcurrent>

#include <QCoro/QCoroFuture>

#include "FileTimes.h"
#include "ToolLogging.h"
#include "ToolPermission.h"
#include "engine/message/FileReader.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// A Result carried through a QFuture, which wants a default-constructible
// value.
struct ReadOutcome {
    FileReadResult result;
    QString error;
    bool ok = false;
};

} // namespace

ReadTool::ReadTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString ReadTool::name() const
{
    return u"read"_s;
}

QString ReadTool::description() const
{
    // Instructions for the model, in qcode's words; not translated.
    return u"Reads a file or lists a directory on the local filesystem.\n\n"
           "Usage:\n"
           "- filePath should be an absolute path; a relative path is taken from the project directory.\n"
           "- By default up to 2000 lines are returned from the start of the file. Use offset (the 1-based "
           "line to start at) and limit (how many lines) to read a window of a long file; read a generous "
           "window rather than many small slices.\n"
           "- Every line is prefixed with its line number as \"<n>: \". Lines longer than 2000 characters are "
           "cut, and the output stops at 50 KB; the footer says how to continue.\n"
           "- A directory path returns its entries, one per line, with a trailing / for subdirectories.\n"
           "- Images and PDFs are returned as attachments you can look at. Other binary files cannot be read.\n"
           "- To find a file by name use the glob tool; to find text in many files use the grep tool.\n"
           "- You can call several tools in one response: read all the files you need at once."_s;
}

QJsonObject ReadTool::parameters() const
{
    return QJsonObject{
        {"type"_L1, "object"_L1},
        {"properties"_L1,
         QJsonObject{
             {"filePath"_L1,
              QJsonObject{{"type"_L1, "string"_L1},
                          {"description"_L1, "The absolute path to the file or directory to read"_L1}}},
             {"offset"_L1, QJsonObject{{"type"_L1, "integer"_L1},
                                       {"coerce"_L1, true},
                                       {"description"_L1, "The line number to start reading from (1-indexed)"_L1}}},
             {"limit"_L1,
              QJsonObject{{"type"_L1, "integer"_L1},
                          {"coerce"_L1, true},
                          {"description"_L1, "The maximum number of lines to read (defaults to 2000)"_L1}}},
         }},
        {"required"_L1, QJsonArray{"filePath"_L1}},
    };
}

QCoro::Task<ToolResult> ReadTool::execute(QJsonObject arguments, ToolContext context)
{
    FileReadRequest request;
    request.filePath = arguments.value("filePath"_L1).toString();
    if (arguments.contains("offset"_L1))
        request.offset = arguments.value("offset"_L1).toInteger();
    if (arguments.contains("limit"_L1))
        request.limit = arguments.value("limit"_L1).toInteger();
    const FileReader reader(context.directory, context.worktree);
    // FileReader refuses these too; refusing before any question spares
    // the person a permission dialog for a call that cannot work.
    if (request.offset && *request.offset < 1)
        co_return ToolFailure{u"offset must be greater than or equal to 1"_s};
    if (request.filePath.isEmpty())
        co_return ToolFailure{u"filePath must name a file or directory"_s};

    const QString path = reader.absolutePath(request.filePath);
    const bool isDirectory = QFileInfo(path).isDir();
    QCoro::Task<std::optional<ToolFailure>> external = ToolPermission::checkExternalDirectory(
        context, path, isDirectory ? ToolPermission::PathKind::Directory : ToolPermission::PathKind::File);
    if (std::optional<ToolFailure> refused = co_await external)
        co_return *refused;

    PermissionRequest ask;
    ask.permission = u"read"_s;
    ask.patterns = QStringList{path};
    ask.always = QStringList{u"*"_s};
    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    // A large file or a slow disk must not stall the engine thread.
    QFuture<ReadOutcome> reading = QtConcurrent::run([reader, request] {
        Result<FileReadResult> read = reader.read(request);
        if (!read)
            return ReadOutcome{{}, read.errorMessage(), false};
        return ReadOutcome{std::move(read).value(), {}, true};
    });
    const ReadOutcome outcome = co_await reading;
    if (!outcome.ok)
        co_return ToolFailure{outcome.error};

    if (!isDirectory && m_services.fileTimes)
        m_services.fileTimes->recordRead(context.sessionID, path);
    qCDebug(lcTool) << "read" << path;
    co_return ToolOutput{outcome.result.output, outcome.result.title, outcome.result.metadata,
                         outcome.result.attachments};
}

} // namespace qcode
