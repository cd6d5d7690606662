#include "ConfigFile.h"

#include <QFile>
#include <QFileInfo>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#endif

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString tooLarge(qint64 size)
{
    return ConfigFile::tr("is %1 bytes, larger than the %2 MiB a config file may be")
        .arg(size)
        .arg(ConfigFile::MaxBytes / (1024 * 1024));
}

#ifdef Q_OS_UNIX
QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return ConfigFile::tr("is a folder, not a file");
    if (S_ISFIFO(mode))
        return ConfigFile::tr("is a named pipe (FIFO), not a file");
    if (S_ISSOCK(mode))
        return ConfigFile::tr("is a socket, not a file");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return ConfigFile::tr("is a device, not a file");
    return ConfigFile::tr("is not a regular file");
}
#endif

} // namespace

Result<QByteArray> ConfigFile::read(const QString &path)
{
#ifdef Q_OS_UNIX
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
    // writer. The checks run on the opened descriptor, so what is read is
    // what was checked.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return Error{tr("cannot be read: %1").arg(QString::fromLocal8Bit(std::strerror(errno)))};
    struct stat status {};
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        const QString what = S_ISREG(status.st_mode) ? tr("cannot be read: %1").arg(QString::fromLocal8Bit(std::strerror(errno)))
                                                     : kindOf(status.st_mode);
        ::close(fd);
        return Error{what};
    }
    if (status.st_size > MaxBytes) {
        ::close(fd);
        return Error{tooLarge(status.st_size)};
    }
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return Error{tr("cannot be read: %1").arg(file.errorString())};
    }
#else
    const QFileInfo info(path);
    if (info.isDir())
        return Error{tr("is a folder, not a file")};
    if (info.exists() && !info.isFile())
        return Error{tr("is not a regular file")};
    if (info.size() > MaxBytes)
        return Error{tooLarge(info.size())};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{tr("cannot be read: %1").arg(file.errorString())};
#endif
    // A file that grew since it was checked is still cut off at the cap.
    QByteArray bytes = file.read(MaxBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return Error{tr("cannot be read: %1").arg(file.errorString())};
    if (bytes.size() > MaxBytes)
        return Error{tooLarge(bytes.size())};
    return bytes;
}

} // namespace qcode
