#include "GrepTool.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include "ToolPermission.h"

using namespace Qt::StringLiterals;

namespace qcode {

GrepTool::GrepTool(ToolServices services, FileSearch::Backend backend)
    : m_services(std::move(services))
    , m_backend(backend)
{
}

QString GrepTool::name() const
{
    return u"grep"_s;
}

QString GrepTool::description() const
{
    return u"Searches file contents with a regular expression, fast in a project of any size.\n\n"
           "Usage:\n"
           "- Full regular expression syntax, e.g. \"log.*Error\" or \"function\\s+\\w+\".\n"
           "- Narrow the files with include, e.g. \"*.js\" or \"*.{ts,tsx}\".\n"
           "- Returns the matching lines with their line numbers, grouped by file, the most recently "
           "modified files first, at most 100 lines.\n"
           "- To count matches or search in other ways, use the bash tool with rg directly.\n"
           "- For an open-ended search that may take several rounds, use the task tool."_s;
}

QJsonObject GrepTool::parameters() const
{
    return QJsonObject{
        {"type"_L1, "object"_L1},
        {"properties"_L1,
         QJsonObject{
             {"pattern"_L1, QJsonObject{{"type"_L1, "string"_L1},
                                        {"description"_L1, "The regex pattern to search for in file contents"_L1}}},
             {"path"_L1,
              QJsonObject{{"type"_L1, "string"_L1},
                          {"description"_L1,
                           "The directory to search in. Defaults to the current working directory."_L1}}},
             {"include"_L1,
              QJsonObject{{"type"_L1, "string"_L1},
                          {"description"_L1,
                           "File pattern to include in the search (e.g. \"*.js\", \"*.{ts,tsx}\")"_L1}}},
         }},
        {"required"_L1, QJsonArray{"pattern"_L1}},
    };
}

QCoro::Task<ToolResult> GrepTool::execute(QJsonObject arguments, ToolContext context)
{
    const QString pattern = arguments.value("pattern"_L1).toString();
    const QString given = arguments.value("path"_L1).toString();
    const QString include = arguments.value("include"_L1).toString();
    if (pattern.isEmpty())
        co_return ToolFailure{u"pattern is required"_s};

    PermissionRequest ask;
    ask.permission = u"grep"_s;
    ask.patterns = QStringList{pattern};
    ask.always = QStringList{u"*"_s};
    ask.metadata = QJsonObject{{"pattern"_L1, pattern}, {"path"_L1, given}, {"include"_L1, include}};
    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    const QString search = QDir::cleanPath(QDir(context.directory).absoluteFilePath(given));
    const QFileInfo info(search);
    QCoro::Task<std::optional<ToolFailure>> external = ToolPermission::checkExternalDirectory(
        context, search, info.isDir() ? ToolPermission::PathKind::Directory : ToolPermission::PathKind::File);
    if (std::optional<ToolFailure> refused = co_await external)
        co_return *refused;
    if (!info.exists())
        co_return ToolFailure{u"Search path not found: %1"_s.arg(given.isEmpty() ? search : given)};

    QCoro::Task<Result<FileSearch::GrepResult>> searching =
        FileSearch::grep(pattern, search, include, m_backend, context.abort);
    const Result<FileSearch::GrepResult> found = co_await searching;
    if (!found)
        co_return ToolFailure{found.errorMessage()};

    const QList<FileSearch::Match> &matches = found->matches;
    if (matches.isEmpty()) {
        QString output = u"No files found"_s;
        if (found->partial)
            output += "\n\n(Some paths were inaccessible and skipped)"_L1;
        co_return ToolOutput{output, pattern, QJsonObject{{"matches"_L1, 0}, {"truncated"_L1, false}}, {}};
    }

    const qsizetype total = matches.size();
    const bool truncated = total > MaxMatches;
    QStringList lines{u"Found %1 matches%2"_s.arg(QString::number(total),
                                                  truncated ? u" (showing first %1)"_s.arg(MaxMatches) : QString())};
    QString current;
    for (qsizetype i = 0; i < std::min(total, MaxMatches); ++i) {
        const FileSearch::Match &match = matches.at(i);
        if (match.path != current) {
            if (!current.isEmpty())
                lines.append(QString());
            current = match.path;
            lines.append(match.path + u':');
        }
        lines.append(u"  Line %1: %2"_s.arg(QString::number(match.line), match.text));
    }
    if (truncated) {
        lines.append(QString());
        lines.append(u"(Results truncated: showing %1 of %2 matches (%3 hidden). Consider using a more specific "
                     "path or pattern.)"_s.arg(QString::number(MaxMatches), QString::number(total),
                                               QString::number(total - MaxMatches)));
    }
    if (found->partial) {
        lines.append(QString());
        lines.append(u"(Some paths were inaccessible and skipped)"_s);
    }
    co_return ToolOutput{lines.join(u'\n'), pattern,
                         QJsonObject{{"matches"_L1, qint64(total)}, {"truncated"_L1, truncated}}, {}};
}

} // namespace qcode
