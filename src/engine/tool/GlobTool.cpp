#include "GlobTool.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include "ToolPermission.h"

using namespace Qt::StringLiterals;

namespace qcode {

GlobTool::GlobTool(ToolServices services, FileSearch::Backend backend)
    : m_services(std::move(services))
    , m_backend(backend)
{
}

QString GlobTool::name() const
{
    return u"glob"_s;
}

QString GlobTool::description() const
{
    return u"Finds files by name with a glob pattern, fast in a project of any size.\n\n"
           "Usage:\n"
           "- Patterns like \"**/*.ts\" or \"src/**/*.{h,cpp}\"; a pattern without \"/\" such as \"*.md\" matches "
           "file names at any depth.\n"
           "- Returns absolute paths, the most recently modified first, at most 100; when more match, the "
           "first 100 in path order are returned, so narrow the pattern or the path.\n"
           "- Hidden files are included; the .git folder is not.\n"
           "- To find text inside files use the grep tool. For an open-ended search that may take several "
           "rounds, use the task tool.\n"
           "- You can run several searches in one response."_s;
}

QJsonObject GlobTool::parameters() const
{
    return QJsonObject{
        {"type"_L1, "object"_L1},
        {"properties"_L1,
         QJsonObject{
             {"pattern"_L1,
              QJsonObject{{"type"_L1, "string"_L1}, {"description"_L1, "The glob pattern to match files against"_L1}}},
             {"path"_L1,
              QJsonObject{{"type"_L1, "string"_L1},
                          {"description"_L1,
                           "The directory to search in. Leave it out to search the project directory; "
                           "do not pass \"undefined\" or \"null\"."_L1}}},
         }},
        {"required"_L1, QJsonArray{"pattern"_L1}},
    };
}

QCoro::Task<ToolResult> GlobTool::execute(QJsonObject arguments, ToolContext context)
{
    const QString pattern = arguments.value("pattern"_L1).toString();
    const QString given = arguments.value("path"_L1).toString();
    if (pattern.isEmpty())
        co_return ToolFailure{u"pattern must not be empty"_s};

    PermissionRequest ask;
    ask.permission = u"glob"_s;
    ask.patterns = QStringList{pattern};
    ask.always = QStringList{u"*"_s};
    ask.metadata = QJsonObject{{"pattern"_L1, pattern}, {"path"_L1, given}};
    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    const QString search = QDir::cleanPath(QDir(context.directory).absoluteFilePath(given));
    QCoro::Task<std::optional<ToolFailure>> external =
        ToolPermission::checkExternalDirectory(context, search, ToolPermission::PathKind::Directory);
    if (std::optional<ToolFailure> refused = co_await external)
        co_return *refused;
    const QFileInfo info(search);
    if (!info.exists())
        co_return ToolFailure{u"Directory not found: %1"_s.arg(search)};
    if (!info.isDir())
        co_return ToolFailure{u"%1 is a file, not a directory: give glob a directory to search in"_s.arg(search)};

    // ripgrep lets a later glob override an earlier one: the exclusion
    // comes last so that "**" does not bring .git back (it does in OpenCode).
    QCoro::Task<Result<FileSearch::FileList>> searching =
        FileSearch::firstFiles(search, QStringList{pattern, u"!.git/*"_s}, MaxResults, m_backend, context.abort);
    const Result<FileSearch::FileList> found = co_await searching;
    if (!found)
        co_return ToolFailure{found.errorMessage()};

    const bool truncated = found->truncated;
    QStringList lines;
    for (const FileSearch::FoundFile &file : found->files)
        lines.append(file.path);
    QString output = lines.isEmpty() ? u"No files found"_s : lines.join(u'\n');
    if (truncated)
        output += "\n\n(Results are truncated: showing first 100 results. Consider using a more specific path or "
                  "pattern.)"_L1;
    const QString title = QDir::fromNativeSeparators(QDir(context.worktree.isEmpty() ? u"/"_s : context.worktree)
                                                         .relativeFilePath(search));
    co_return ToolOutput{output, title,
                         QJsonObject{{"count"_L1, qint64(lines.size())}, {"truncated"_L1, truncated}}, {}};
}

} // namespace qcode
