#include "EnvironmentInfo.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSysInfo>

using namespace Qt::StringLiterals;

namespace qcode {

EnvironmentInfo EnvironmentInfo::forDirectory(const QString &directory, const QString &worktree)
{
    EnvironmentInfo info;
    info.workingDirectory = QDir::cleanPath(QFileInfo(directory).absoluteFilePath());
    info.worktree = worktree.isEmpty() ? info.workingDirectory : QDir::cleanPath(QFileInfo(worktree).absoluteFilePath());
    info.isGitRepo = isInsideGitRepository(info.workingDirectory);
    info.platform = currentPlatform();
    info.today = QDate::currentDate();
    return info;
}

QString EnvironmentInfo::currentPlatform()
{
#if defined(Q_OS_WIN)
    return u"win32"_s;
#elif defined(Q_OS_MACOS)
    return u"darwin"_s;
#elif defined(Q_OS_LINUX)
    return u"linux"_s;
#elif defined(Q_OS_FREEBSD)
    return u"freebsd"_s;
#elif defined(Q_OS_OPENBSD)
    return u"openbsd"_s;
#else
    return QSysInfo::kernelType();
#endif
}

bool EnvironmentInfo::isInsideGitRepository(const QString &directory)
{
    QDir dir(QFileInfo(directory).absoluteFilePath());
    while (true) {
        if (QFileInfo::exists(dir.filePath(u".git"_s)))
            return true;
        if (!dir.cdUp())
            return false;
    }
}

QString EnvironmentInfo::dateString(const QDate &date)
{
    return QLocale::c().toString(date, u"ddd MMM dd yyyy"_s);
}

} // namespace qcode
