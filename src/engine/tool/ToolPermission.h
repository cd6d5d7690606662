#pragma once

#include <QString>

#include <QCoro/QCoroTask>

#include <optional>

#include "engine/session/SessionEvents.h"
#include "engine/session/loop/ToolRunner.h"

namespace qcode::ToolPermission {

// The permission asks every tool makes (reference §8.0, §9): a request
// through the context's asker, and OpenCode's external-directory check.
// Both answer std::nullopt when the tool may go on, else the failure the
// model reads.
//
// Answers map as the stream processor expects: Once and Always go on;
// RejectWithMessage is PermissionRejectedWithMessage with the person's
// words; the person's Reject is PermissionRejected (the loop stops), a
// rule's Reject (OpenCode's DeniedError) an ordinary failure the model
// reads and works around. A context without an asker may not ask, so
// anything that needs a permission is refused.

// The request's sessionID and tool reference are filled from `context`
// when empty. Arguments by value: the coroutine may outlive the caller's.
QCoro::Task<std::optional<ToolFailure>> ask(ToolContext context, PermissionRequest request);

// The `edit` question that edit, write and apply_patch ask: the patterns
// are project-relative paths, "always" approves every edit, and the
// metadata carries what the person is shown (filepath, diff …).
PermissionRequest editRequest(QStringList relativePaths, QJsonObject metadata);

enum class PathKind { File, Directory };

// `path` made absolute against `directory` and followed to where it
// really leads (LinkSafeFiles::realPath: every link on the way, the last
// one too, dangling or not; the missing rest appended as written), so a
// link out of the project or a "../../x" is seen for what it is. A loop of
// links gives the absolute path as written.
QString resolvedPath(const QString &directory, const QString &path);

// Whether a resolved path lies in the context's directory or worktree (a
// worktree of "/" or "" is none, as OpenCode treats "/").
bool isInsideProject(const ToolContext &context, const QString &resolved);

// OpenCode's assertExternalDirectory: a target outside the project asks
// `external_directory` with pattern and always "<dir>/*", where dir is the
// target itself for a directory, else its parent, after resolving (a final
// link too, dangling or not); the metadata is {filepath, parentDir}. A
// path that cannot be resolved (a loop of links) is refused.
QCoro::Task<std::optional<ToolFailure>> checkExternalDirectory(ToolContext context, QString target, PathKind kind);

// The same check of a path resolved already, taken as given: the writing
// tools resolve once (TextFiles::realPath), check that, and write exactly
// that; a removal checks where the removed link itself lies.
QCoro::Task<std::optional<ToolFailure>> checkExternalResolved(ToolContext context, QString resolved, PathKind kind);

} // namespace qcode::ToolPermission
