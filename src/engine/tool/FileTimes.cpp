#include "FileTimes.h"

#include <QDir>
#include <QFileInfo>

namespace qcode {

namespace {

QString key(const QString &path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

QString isoTime(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

} // namespace

void FileTimes::recordRead(const QString &sessionID, const QString &path)
{
    m_reads[sessionID].insert(key(path), QDateTime::currentDateTimeUtc());
}

std::optional<QDateTime> FileTimes::lastRead(const QString &sessionID, const QString &path) const
{
    const auto session = m_reads.constFind(sessionID);
    if (session == m_reads.cend())
        return std::nullopt;
    const auto read = session->constFind(key(path));
    if (read == session->cend())
        return std::nullopt;
    return *read;
}

Result<void> FileTimes::checkWritable(const QString &sessionID, const QString &path) const
{
    const std::optional<QDateTime> read = lastRead(sessionID, path);
    if (!read)
        return Error{QStringLiteral("You must read file %1 before overwriting it. Use the Read tool first").arg(path)};
    // A file that vanished since the read is the caller's to report (it
    // knows whether it creates or overwrites).
    const QFileInfo info(path);
    if (!info.exists())
        return {};
    const QDateTime modified = info.lastModified().toUTC();
    if (modified.toMSecsSinceEpoch() > read->toMSecsSinceEpoch() + ToleranceMs)
        return Error{QStringLiteral("File %1 has been modified since it was last read.\n"
                        "Last modification: %2\n"
                        "Last read: %3\n\n"
                        "Please read the file again before modifying it.")
                         .arg(path, isoTime(modified), isoTime(*read))};
    return {};
}

void FileTimes::forgetSession(const QString &sessionID)
{
    m_reads.remove(sessionID);
}

} // namespace qcode
