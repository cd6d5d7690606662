#pragma once

#include <QByteArray>
#include <QString>

#include "model/Result.h"

namespace qcode {

// Where a path really leads, and writing there without a symbolic link
// taking the write elsewhere. The permission checks look at the real path
// (every link on the way followed, the last one too, dangling or not), and
// the writing tools then write that real path through no link at all: a
// link that appears after the check (swapped in while a question was
// open) fails the write instead of being followed, so there is no window
// between checking a path and using it.
//
// Their messages are read by the model: plain English, not translated.
class LinkSafeFiles
{
public:
    // The kernel's limit (Linux's MAXSYMLINKS) on links followed in one path.
    static constexpr int MaxLinks = 40;

    // `absolutePath` with every symbolic link on the way replaced by its
    // target, each component in turn: links to links, relative targets,
    // ".." after a link (taken from the link's target, not lexically) and
    // a final link whose target does not exist yet. From the first
    // component that does not exist the rest is appended as written. The
    // result names no link, so what is checked is what is written. Fails
    // on a loop (more than MaxLinks links).
    static Result<QString> realPath(const QString &absolutePath);

    // Writes `bytes` to `resolved` (a realPath() result) atomically: a
    // temporary file in the same folder renamed over the old file, whose
    // permissions it keeps. Missing folders are created. Every folder on
    // the way is opened without following links, and the file's name is
    // checked again just before the rename: a link found anywhere (one put
    // there after the permission check) fails the write, and nothing is
    // written through it.
    static Result<void> write(const QString &resolved, const QByteArray &bytes);

    // The bytes of the file `resolved` (a realPath() result) names, read
    // through no link: a link found on the way fails the read.
    static Result<QByteArray> read(const QString &resolved);

    // Removes the entry `path` names: a link itself, never its target. The
    // folders on the way are opened as write() opens them, so `path`'s
    // folder must be a real path.
    static Result<void> remove(const QString &path);
};

} // namespace qcode
