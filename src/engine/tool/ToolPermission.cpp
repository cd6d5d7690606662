#include "ToolPermission.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>

#include "LinkSafeFiles.h"
#include "ToolLogging.h"
#include "engine/session/asks/PermissionAsker.h"
#include "engine/session/asks/PermissionTexts.h"

using namespace Qt::StringLiterals;

namespace qcode::ToolPermission {
namespace {

// What the model reads; OpenCode's words, not translated (they are input
// to the model, which was trained on them).
const QString CannotAskText =
    u"Permission \"%1\" is needed for %2, and this tool call cannot ask the user for it."_s;

bool contains(const QString &root, const QString &path)
{
    if (root.isEmpty())
        return false;
    if (path == root)
        return true;
    return path.startsWith(root.endsWith(u'/') ? root : root + u'/');
}

} // namespace

QCoro::Task<std::optional<ToolFailure>> ask(ToolContext context, PermissionRequest request)
{
    if (request.sessionID.isEmpty())
        request.sessionID = context.sessionID;
    if (!request.tool && !context.callID.isEmpty())
        request.tool = PermissionToolRef{context.messageID, context.callID};
    if (!context.permissions) {
        qCInfo(lcTool) << "refusing" << request.permission << "without an asker";
        co_return ToolFailure{CannotAskText.arg(request.permission, request.patterns.join(u", "_s)),
                              ToolFailure::Kind::Failed};
    }
    QCoro::Task<PermissionAnswer> asking = context.permissions->ask(request, context.abort);
    const PermissionAnswer answer = co_await asking;
    switch (answer.reply) {
    case PermissionReply::Once:
    case PermissionReply::Always:
        co_return std::nullopt;
    case PermissionReply::RejectWithMessage:
        co_return ToolFailure{PermissionTexts::corrected(answer.message), ToolFailure::Kind::PermissionRejectedWithMessage};
    case PermissionReply::Reject:
        break;
    }
    if (answer.byRule)
        co_return ToolFailure{PermissionTexts::denied(request.permission, request.patterns), ToolFailure::Kind::Failed};
    co_return ToolFailure{PermissionTexts::rejected(), ToolFailure::Kind::PermissionRejected};
}

QString resolvedPath(const QString &directory, const QString &path)
{
    const QString absolute = QDir::cleanPath(QDir(directory).absoluteFilePath(path));
    const Result<QString> real = LinkSafeFiles::realPath(absolute);
    return real ? *real : absolute;
}

bool isInsideProject(const ToolContext &context, const QString &resolved)
{
    if (!context.directory.isEmpty() && contains(resolvedPath(QString(), context.directory), resolved))
        return true;
    const QString worktree = QDir::cleanPath(context.worktree);
    if (context.worktree.isEmpty() || worktree == "/"_L1)
        return false;
    return contains(resolvedPath(QString(), worktree), resolved);
}

QCoro::Task<std::optional<ToolFailure>> checkExternalDirectory(ToolContext context, QString target, PathKind kind)
{
    // A path that cannot be followed to its end (a loop of links) cannot
    // be placed inside or outside the project: refused.
    const Result<QString> real =
        LinkSafeFiles::realPath(QDir::cleanPath(QDir(context.directory).absoluteFilePath(target)));
    if (!real)
        co_return ToolFailure{real.errorMessage(), ToolFailure::Kind::Failed};
    QCoro::Task<std::optional<ToolFailure>> checking = checkExternalResolved(std::move(context), *real, kind);
    co_return co_await checking;
}

QCoro::Task<std::optional<ToolFailure>> checkExternalResolved(ToolContext context, QString resolved, PathKind kind)
{
    if (isInsideProject(context, resolved))
        co_return std::nullopt;
    const QString dir = kind == PathKind::Directory ? resolved : QFileInfo(resolved).path();
    const QString glob = dir.endsWith(u'/') ? QString(dir + u'*') : QString(dir + "/*"_L1);
    PermissionRequest request;
    request.permission = u"external_directory"_s;
    request.patterns = QStringList{glob};
    request.always = QStringList{glob};
    request.metadata = QJsonObject{{"filepath"_L1, resolved}, {"parentDir"_L1, dir}};
    QCoro::Task<std::optional<ToolFailure>> asking = ask(std::move(context), std::move(request));
    co_return co_await asking;
}

PermissionRequest editRequest(QStringList relativePaths, QJsonObject metadata)
{
    PermissionRequest request;
    request.permission = QStringLiteral("edit");
    request.patterns = std::move(relativePaths);
    request.always = QStringList{QStringLiteral("*")};
    request.metadata = std::move(metadata);
    return request;
}

} // namespace qcode::ToolPermission
