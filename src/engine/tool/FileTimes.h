#pragma once

#include <QDateTime>
#include <QHash>
#include <QString>

#include <optional>

#include "model/Result.h"

namespace qcode {

// When each session last read each file (OpenCode's FileTime, reference
// §8.2): write, edit and apply_patch refuse to overwrite a file the
// session has not read, or one that changed on disk after that read, so
// the model never clobbers text it has not seen. Memory only, like
// OpenCode: a restart forgets the reads and the model reads again.
//
// Paths are compared after QDir::cleanPath, so "a/../b.txt" and "b.txt"
// under the same absolute folder are one file. Lives on the engine thread.
class FileTimes
{
public:
    // A file written within this long after the read still counts as read:
    // file systems stamp modification times from a coarser clock than
    // QDateTime::currentDateTime().
    static constexpr qint64 ToleranceMs = 50;

    void recordRead(const QString &sessionID, const QString &path);
    std::optional<QDateTime> lastRead(const QString &sessionID, const QString &path) const;
    // Fine when the file was read in this session and not modified since;
    // otherwise OpenCode's sentence saying which.
    Result<void> checkWritable(const QString &sessionID, const QString &path) const;
    // A deleted session's reads (OpenCode leaves them until restart).
    void forgetSession(const QString &sessionID);

private:
    QHash<QString, QHash<QString, QDateTime>> m_reads;
};

} // namespace qcode
