#include "ListTool.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <functional>

#include "ToolPermission.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QString parentOf(const QString &relative)
{
    const qsizetype slash = relative.lastIndexOf(u'/');
    return slash < 0 ? u"."_s : relative.left(slash);
}

QString baseName(const QString &relative)
{
    return relative.mid(relative.lastIndexOf(u'/') + 1);
}

// The files as OpenCode draws them: each folder's subfolders first, then
// its files, both sorted, indented two spaces a level.
QString renderTree(const QStringList &files)
{
    QSet<QString> folders{u"."_s};
    QMap<QString, QStringList> filesByFolder;
    for (const QString &file : files) {
        const QString folder = parentOf(file);
        filesByFolder[folder].append(baseName(file));
        for (QString f = folder; f != "."_L1; f = parentOf(f))
            folders.insert(f);
    }
    std::function<QString(const QString &, int)> render = [&](const QString &folder, int depth) {
        QString out;
        if (depth > 0)
            out += QString(depth * 2, u' ') + baseName(folder) + "/\n"_L1;
        QStringList children;
        for (const QString &candidate : folders) {
            if (candidate != folder && parentOf(candidate) == folder)
                children.append(candidate);
        }
        std::sort(children.begin(), children.end());
        for (const QString &child : children)
            out += render(child, depth + 1);
        QStringList names = filesByFolder.value(folder);
        std::sort(names.begin(), names.end());
        for (const QString &name : names)
            out += QString((depth + 1) * 2, u' ') + name + u'\n';
        return out;
    };
    return render(u"."_s, 0);
}

} // namespace

ListTool::ListTool(ToolServices services, FileSearch::Backend backend)
    : m_services(std::move(services))
    , m_backend(backend)
{
}

QStringList ListTool::defaultIgnores()
{
    static const QStringList folders{
        u"node_modules/"_s, u"__pycache__/"_s, u".git/"_s,    u"dist/"_s,     u"build/"_s,  u"target/"_s,
        u"vendor/"_s,       u"bin/"_s,         u"obj/"_s,     u".idea/"_s,    u".vscode/"_s, u".zig-cache/"_s,
        u"zig-out"_s,       u".coverage"_s,    u"coverage/"_s, u"tmp/"_s,     u"temp/"_s,   u".cache/"_s,
        u"cache/"_s,        u"logs/"_s,        u".venv/"_s,   u"venv/"_s,     u"env/"_s};
    QStringList globs;
    for (const QString &folder : folders)
        globs.append(u'!' + folder + u'*');
    return globs;
}

QString ListTool::name() const
{
    return u"list"_s;
}

QString ListTool::description() const
{
    return u"Lists the files below a directory as a tree, at most 100, leaving out dependency, build and cache "
           "folders such as node_modules/ and dist/. path must be absolute; leave it out for the project "
           "directory. ignore adds glob patterns to leave out. To find files by name the glob tool is "
           "usually better."_s;
}

QJsonObject ListTool::parameters() const
{
    return QJsonObject{
        {"type"_L1, "object"_L1},
        {"properties"_L1,
         QJsonObject{
             {"path"_L1, QJsonObject{{"type"_L1, "string"_L1},
                                     {"description"_L1, "The absolute path to the directory to list (must be "
                                                        "absolute, not relative)"_L1}}},
             {"ignore"_L1, QJsonObject{{"type"_L1, "array"_L1},
                                       {"items"_L1, QJsonObject{{"type"_L1, "string"_L1}}},
                                       {"description"_L1, "List of glob patterns to ignore"_L1}}},
         }},
    };
}

QCoro::Task<ToolResult> ListTool::execute(QJsonObject arguments, ToolContext context)
{
    const QString search =
        QDir::cleanPath(QDir(context.directory).absoluteFilePath(arguments.value("path"_L1).toString()));
    QCoro::Task<std::optional<ToolFailure>> external =
        ToolPermission::checkExternalDirectory(context, search, ToolPermission::PathKind::Directory);
    if (std::optional<ToolFailure> refused = co_await external)
        co_return *refused;

    PermissionRequest ask;
    ask.permission = u"list"_s;
    ask.patterns = QStringList{search};
    ask.always = QStringList{u"*"_s};
    ask.metadata = QJsonObject{{"path"_L1, search}};
    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    const QFileInfo info(search);
    if (!info.exists())
        co_return ToolFailure{u"Directory not found: %1"_s.arg(search)};
    if (!info.isDir())
        co_return ToolFailure{u"%1 is a file, not a directory: read it with the read tool"_s.arg(search)};

    QStringList globs = defaultIgnores();
    for (const QJsonValue &ignore : arguments.value("ignore"_L1).toArray())
        globs.append(u'!' + ignore.toString());
    QCoro::Task<Result<QList<FileSearch::FoundFile>>> searching =
        FileSearch::files(search, globs, m_backend, context.abort);
    const Result<QList<FileSearch::FoundFile>> found = co_await searching;
    if (!found)
        co_return ToolFailure{found.errorMessage()};

    QStringList relative;
    for (const FileSearch::FoundFile &file : *found)
        relative.append(QDir(search).relativeFilePath(file.path));
    std::sort(relative.begin(), relative.end());
    const bool truncated = relative.size() >= MaxFiles;
    relative = relative.mid(0, MaxFiles);

    const QString output = search + "/\n"_L1 + renderTree(relative);
    const QString title = QDir::fromNativeSeparators(QDir(context.worktree.isEmpty() ? u"/"_s : context.worktree)
                                                         .relativeFilePath(search));
    co_return ToolOutput{output, title,
                         QJsonObject{{"count"_L1, qint64(relative.size())}, {"truncated"_L1, truncated}}, {}};
}

} // namespace qcode
