#include "LinkSafeFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStringList>

#include <algorithm>
#include <utility>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#include <QSaveFile>
#endif

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// The root a path starts from: "/", or a drive's "C:/"; empty when the
// path is relative.
QString rootOf(const QString &path)
{
    if (path.startsWith(u'/'))
        return u"/"_s;
    if (path.size() >= 3 && path.at(0).isLetter() && path.at(1) == u':' && path.at(2) == u'/')
        return path.left(3);
    return {};
}

QString joined(const QString &folder, const QString &name)
{
    return folder.endsWith(u'/') ? QString(folder + name) : QString(folder + u'/' + name);
}

QString parentOf(const QString &path)
{
    const QString root = rootOf(path);
    const qsizetype slash = path.lastIndexOf(u'/');
    return slash < root.size() ? root : path.left(slash);
}

// What one component of a path is, seen without following it.
struct Entry {
    enum class Kind { Missing, Link, Other, Unreadable };
    Kind kind = Kind::Missing;
    QString target; // a link's target as stored, relative or absolute
};

Entry lookUp(const QString &path)
{
#ifdef Q_OS_UNIX
    const QByteArray native = QFile::encodeName(path);
    struct stat info;
    if (::lstat(native.constData(), &info) != 0)
        return {Entry::Kind::Missing, {}};
    if (!S_ISLNK(info.st_mode))
        return {Entry::Kind::Other, {}};
    // st_size is the target's length, except for the kernel's own links
    // (/proc), which say 0: grow until the target fits.
    for (qsizetype size = std::max<qsizetype>(info.st_size + 1, 256); size <= 1024 * 1024; size *= 4) {
        QByteArray target(size, Qt::Uninitialized);
        const ssize_t length = ::readlink(native.constData(), target.data(), size_t(size));
        if (length < 0)
            return {Entry::Kind::Unreadable, {}};
        if (length < size)
            return {Entry::Kind::Link, QFile::decodeName(target.left(length))};
    }
    return {Entry::Kind::Unreadable, {}};
#else
    const QFileInfo info(path);
    if (info.isSymbolicLink() || info.isJunction())
        return {Entry::Kind::Link, QDir::fromNativeSeparators(info.symLinkTarget())};
    return {info.exists() ? Entry::Kind::Other : Entry::Kind::Missing, {}};
#endif
}

QString linkAppeared(const QString &verb, const QString &path, const QString &where)
{
    return u"Cannot %1 %2: %3 is a symbolic link now, which it was not when the path was checked. Nothing was "
           "done through it; check the path again."_s
        .arg(verb, path, where);
}

#ifdef Q_OS_UNIX

// An open file descriptor, closed with the object.
class Descriptor
{
public:
    explicit Descriptor(int fd = -1)
        : m_fd(fd)
    {
    }
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(Descriptor &&other) noexcept
        : m_fd(std::exchange(other.m_fd, -1))
    {
    }
    Descriptor &operator=(Descriptor &&other) noexcept
    {
        std::swap(m_fd, other.m_fd);
        return *this;
    }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;

    int fd() const { return m_fd; }

private:
    int m_fd = -1;
};

QString systemError(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

bool isLinkAt(int folder, const QByteArray &name)
{
    struct stat info;
    return ::fstatat(folder, name.constData(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(info.st_mode);
}

// Opens `folder` one component at a time from the root, following no
// link, creating missing components when `create` is set. `path` names
// the file being read, written or deleted (`verb`), for the messages.
Result<Descriptor> openFolder(const QString &folder, bool create, const QString &path, const QString &verb)
{
    Descriptor current(::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (current.fd() < 0)
        return Error{u"Cannot %1 %2: %3"_s.arg(verb, path, systemError(errno))};
    QString walked = u"/"_s;
    const QStringList parts = folder.split(u'/', Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        if (part == "."_L1 || part == ".."_L1)
            return Error{u"Cannot %1 %2: its folder %3 is not a resolved path."_s.arg(verb, path, folder)};
        walked = joined(walked, part);
        const QByteArray name = QFile::encodeName(part);
        int next = ::openat(current.fd(), name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0 && errno == ENOENT && create) {
            if (::mkdirat(current.fd(), name.constData(), 0777) != 0 && errno != EEXIST)
                return Error{u"Cannot create the folder %1: %2"_s.arg(walked, systemError(errno))};
            next = ::openat(current.fd(), name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
        if (next < 0) {
            const int error = errno;
            if (isLinkAt(current.fd(), name))
                return Error{linkAppeared(verb, path, walked)};
            if (error == ENOTDIR)
                return Error{u"Cannot %1 %2: %3 is not a folder."_s.arg(verb, path, walked)};
            return Error{u"Cannot %1 %2: cannot open the folder %3: %4"_s.arg(verb, path, walked, systemError(error))};
        }
        current = Descriptor(next);
    }
    return current;
}

Result<void> writeAll(int fd, const QByteArray &bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t written = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return Error{systemError(errno)};
        done += written;
    }
    if (::fsync(fd) != 0)
        return Error{systemError(errno)};
    return {};
}

#endif

} // namespace

Result<QString> LinkSafeFiles::realPath(const QString &absolutePath)
{
    const QString path = QDir::fromNativeSeparators(absolutePath);
    const QString root = rootOf(path);
    if (root.isEmpty())
        return Error{u"Cannot resolve %1: it is not an absolute path."_s.arg(absolutePath)};
    QStringList pending = path.mid(root.size()).split(u'/', Qt::SkipEmptyParts);
    QString resolved = root;
    // How many components at the end of `resolved` do not exist: below
    // them nothing can be a link, and a ".." takes one back.
    int missing = 0;
    int links = 0;
    while (!pending.isEmpty()) {
        const QString part = pending.takeFirst();
        if (part == "."_L1)
            continue;
        if (part == ".."_L1) {
            resolved = parentOf(resolved);
            missing = std::max(0, missing - 1);
            continue;
        }
        const QString candidate = joined(resolved, part);
        if (missing > 0) {
            resolved = candidate;
            ++missing;
            continue;
        }
        const Entry entry = lookUp(candidate);
        switch (entry.kind) {
        case Entry::Kind::Missing:
            ++missing;
            resolved = candidate;
            break;
        case Entry::Kind::Other:
            resolved = candidate;
            break;
        case Entry::Kind::Unreadable:
            return Error{u"Cannot resolve %1: the symbolic link %2 cannot be read."_s.arg(absolutePath, candidate)};
        case Entry::Kind::Link: {
            if (++links > MaxLinks)
                return Error{u"Cannot resolve %1: too many levels of symbolic links (a loop of links?)."_s.arg(
                    absolutePath)};
            // A relative target goes on from the link's folder, which is
            // `resolved` already; an absolute one from its root.
            const QString target = QDir::fromNativeSeparators(entry.target);
            const QString targetRoot = rootOf(target);
            if (!targetRoot.isEmpty())
                resolved = targetRoot;
            pending = target.mid(targetRoot.size()).split(u'/', Qt::SkipEmptyParts) + pending;
            break;
        }
        }
    }
    return resolved;
}

Result<void> LinkSafeFiles::write(const QString &resolved, const QByteArray &bytes)
{
    const QString path = QDir::fromNativeSeparators(resolved);
    const QString folder = parentOf(path);
    const QString fileName = path.mid(path.lastIndexOf(u'/') + 1);
    if (rootOf(path).isEmpty() || fileName.isEmpty() || fileName == "."_L1 || fileName == ".."_L1)
        return Error{u"Cannot write %1: it does not name a file."_s.arg(resolved)};
#ifdef Q_OS_UNIX
    Result<Descriptor> opened = openFolder(folder, true, resolved, u"write"_s);
    if (!opened)
        return opened.error();
    const int dir = opened->fd();
    const QByteArray name = QFile::encodeName(fileName);

    struct stat old;
    const bool exists = ::fstatat(dir, name.constData(), &old, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists && S_ISLNK(old.st_mode))
        return Error{linkAppeared(u"write"_s, resolved, resolved)};
    if (exists && !S_ISREG(old.st_mode))
        return Error{u"Cannot write %1: it is not a regular file."_s.arg(resolved)};

    const QByteArray temporary =
        name + ".qcode-" + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    const mode_t mode = exists ? (old.st_mode & 07777) : 0666;
    const Descriptor file(
        ::openat(dir, temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
    if (file.fd() < 0)
        return Error{u"Cannot write %1: %2"_s.arg(resolved, systemError(errno))};
    const auto discard = [&](const QString &why) {
        ::unlinkat(dir, temporary.constData(), 0);
        return Error{u"Cannot write %1: %2"_s.arg(resolved, why)};
    };
    // The umask narrowed the mode given to open; an existing file keeps its own.
    if (exists && ::fchmod(file.fd(), mode) != 0)
        return discard(systemError(errno));
    if (const Result<void> written = writeAll(file.fd(), bytes); !written)
        return discard(written.errorMessage());
    // The last moment a link can be refused rather than replaced: renaming
    // over a link would replace the link itself, never write through it,
    // but a name the person did not approve is still not written.
    if (isLinkAt(dir, name)) {
        ::unlinkat(dir, temporary.constData(), 0);
        return Error{linkAppeared(u"write"_s, resolved, resolved)};
    }
    if (::renameat(dir, temporary.constData(), dir, name.constData()) != 0)
        return discard(systemError(errno));
    return {};
#else
    // Without openat: check that the path still resolves to itself, then
    // write as before.
    const Result<QString> again = LinkSafeFiles::realPath(path);
    if (!again || *again != path)
        return Error{linkAppeared(u"write"_s, resolved, resolved)};
    if (!QDir().mkpath(folder))
        return Error{u"Cannot create the folder %1"_s.arg(folder)};
    const Result<QString> created = LinkSafeFiles::realPath(path);
    if (!created || *created != path)
        return Error{linkAppeared(u"write"_s, resolved, resolved)};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Error{u"Cannot write %1: %2"_s.arg(resolved, file.errorString())};
    return {};
#endif
}

Result<QByteArray> LinkSafeFiles::read(const QString &resolved)
{
    const QString path = QDir::fromNativeSeparators(resolved);
    const QString folder = parentOf(path);
    const QString fileName = path.mid(path.lastIndexOf(u'/') + 1);
    if (rootOf(path).isEmpty() || fileName.isEmpty())
        return Error{u"Cannot read %1: it does not name a file."_s.arg(resolved)};
#ifdef Q_OS_UNIX
    Result<Descriptor> opened = openFolder(folder, false, resolved, u"read"_s);
    if (!opened)
        return opened.error();
    const QByteArray name = QFile::encodeName(fileName);
    const Descriptor file(::openat(opened->fd(), name.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (file.fd() < 0) {
        const int error = errno;
        if (isLinkAt(opened->fd(), name))
            return Error{linkAppeared(u"read"_s, resolved, resolved)};
        return Error{u"Cannot read %1: %2"_s.arg(resolved, systemError(error))};
    }
    QFile reading;
    if (!reading.open(file.fd(), QIODevice::ReadOnly, QFileDevice::DontCloseHandle))
        return Error{u"Cannot read %1: %2"_s.arg(resolved, reading.errorString())};
    const QByteArray bytes = reading.readAll();
    if (reading.error() != QFileDevice::NoError)
        return Error{u"Cannot read %1: %2"_s.arg(resolved, reading.errorString())};
    return bytes;
#else
    const Result<QString> again = LinkSafeFiles::realPath(path);
    if (!again || *again != path)
        return Error{linkAppeared(u"read"_s, resolved, resolved)};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{u"Cannot read %1: %2"_s.arg(resolved, file.errorString())};
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return Error{u"Cannot read %1: %2"_s.arg(resolved, file.errorString())};
    return bytes;
#endif
}

Result<void> LinkSafeFiles::remove(const QString &path)
{
    const QString cleaned = QDir::fromNativeSeparators(path);
    const QString folder = parentOf(cleaned);
    const QString fileName = QFileInfo(cleaned).fileName();
    if (rootOf(cleaned).isEmpty() || fileName.isEmpty())
        return Error{u"Cannot delete %1: it does not name a file."_s.arg(path)};
#ifdef Q_OS_UNIX
    Result<Descriptor> opened = openFolder(folder, false, path, u"delete"_s);
    if (!opened)
        return opened.error();
    if (::unlinkat(opened->fd(), QFile::encodeName(fileName).constData(), 0) != 0)
        return Error{u"Cannot delete %1: %2"_s.arg(path, systemError(errno))};
    return {};
#else
    const Result<QString> again = LinkSafeFiles::realPath(folder);
    if (!again || *again != folder)
        return Error{u"Cannot delete %1: %2 is a symbolic link now."_s.arg(path, folder)};
    QFile file(cleaned);
    if (!file.remove())
        return Error{u"Cannot delete %1: %2"_s.arg(path, file.errorString())};
    return {};
#endif
}

} // namespace qcode
