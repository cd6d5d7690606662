#include "FileSearch.h"

#include "engine/glob/IgnoreRules.h"
#include "engine/glob/RipgrepGlobs.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtConcurrent>

#include <QCoro/QCoroFuture>
#include <QCoro/QCoroProcess>

#include <algorithm>
#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif
#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "ToolLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

constexpr qint64 ReadChunkBytes = 64 * 1024;
// A line longer than this is matched on its first MaxScannedLine bytes
// only, so one endless line cannot take all memory.
constexpr qsizetype MaxScannedLine = 1024 * 1024;

using Cancelled = std::shared_ptr<std::atomic_bool>;

// Sets the returned flag when `abort` fires (or is already gone), for work
// off the engine thread to poll.
Cancelled cancelFlag(const QPointer<AbortSignal> &abort)
{
    auto flag = std::make_shared<std::atomic_bool>(!abort || abort->isAborted());
    if (abort)
        QObject::connect(abort.data(), &AbortSignal::aborted, abort.data(), [flag] { *flag = true; });
    return flag;
}

bool aborted(const QPointer<AbortSignal> &abort)
{
    return !abort || abort->isAborted();
}

QString cutLine(QString text)
{
    if (text.endsWith(u'\r'))
        text.chop(1);
    if (text.size() > FileSearch::MaxLineLength)
        text = text.left(FileSearch::MaxLineLength) + "..."_L1;
    return text;
}

// --- the in-process walk ------------------------------------------------

struct Walk {
    QList<QFileInfo> files;
    bool partial = false;
    bool cancelled = false;
};

QString relativeTo(const QString &root, const QString &path)
{
    return QDir(root).relativeFilePath(path);
}

// Regular files below `root` as ripgrep walks them: hidden entries
// included, symlinks skipped, the globs first, then the ignore files for
// what the globs leave open (RipgrepGlobs::verdict).
Walk walk(const QString &root, const RipgrepGlobs &globs, const std::atomic_bool &cancelled)
{
    Walk result;
    QList<std::pair<QString, IgnoreRules>> pending{
        {root, IgnoreRules::forSearchRoot(root, IgnoreRules::defaultGlobalIgnoreFile())}};
    while (!pending.isEmpty()) {
        if (cancelled) {
            result.cancelled = true;
            return result;
        }
        const auto [folder, rules] = pending.takeLast();
        const QDir dir(folder);
        if (!dir.isReadable()) {
            result.partial = true;
            continue;
        }
        const QFileInfoList entries =
            dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QFileInfo &entry : entries) {
            if (entry.isSymLink())
                continue;
            const QString path = entry.absoluteFilePath();
            const bool isDirectory = entry.isDir();
            if (!isDirectory && !entry.isFile())
                continue;
            const RipgrepGlobs::Verdict verdict = globs.verdict(relativeTo(root, path), isDirectory);
            if (verdict == RipgrepGlobs::Verdict::Drop
                || (verdict == RipgrepGlobs::Verdict::AskIgnoreFiles && rules.isIgnored(path, isDirectory)))
                continue;
            if (isDirectory)
                pending.append({path, rules.enter(path)});
            else
                result.files.append(entry);
        }
    }
    return result;
}

// When `path` was last modified, in UTC. QFileInfo::lastModified() answers
// in local time, and that conversion, not the stat, was most of a glob's
// time over a large tree (tests/bench/bench_search).
QDateTime modifiedAt(const QString &path)
{
#ifdef Q_OS_UNIX
    struct stat info {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return {};
    const qint64 ms = qint64(info.st_mtim.tv_sec) * 1000 + info.st_mtim.tv_nsec / 1000000;
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
#else
    return QFileInfo(path).lastModified().toUTC();
#endif
}

void sortNewestFirst(QList<FileSearch::Match> &matches)
{
    std::sort(matches.begin(), matches.end(), [](const FileSearch::Match &a, const FileSearch::Match &b) {
        if (a.modified != b.modified)
            return a.modified > b.modified;
        if (a.path != b.path)
            return a.path < b.path;
        return a.line < b.line;
    });
}

// Whether ripgrep's sorted walk (--sort=path: each folder's entries by
// name, depth first) meets `a` before `b`: their paths compared folder by
// folder, so "a/b" comes before "a.txt" although '.' sorts before '/'.
bool walkedBefore(const QByteArray &a, const QByteArray &b)
{
    qsizetype i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i])
        ++i;
    if (i == a.size() || i == b.size())
        return a.size() < b.size();
    if (a[i] == '/')
        return true;
    if (b[i] == '/')
        return false;
    return uchar(a[i]) < uchar(b[i]);
}

// A listed file and its modification time in milliseconds since the epoch
// (UTC), the sort key: comparing QDateTimes is far slower than integers.
struct StampedPath {
    QByteArray path; // absolute, in the file system's encoding
    qint64 modifiedMs = 0;
};

qint64 modifiedMsOf(const QByteArray &path)
{
#ifdef Q_OS_UNIX
    struct stat info {};
    if (::stat(path.constData(), &info) != 0)
        return std::numeric_limits<qint64>::min();
    return qint64(info.st_mtim.tv_sec) * 1000 + info.st_mtim.tv_nsec / 1000000;
#else
    const QDateTime modified = modifiedAt(QFile::decodeName(path));
    return modified.isValid() ? modified.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
#endif
}

// Stamps every path (the stats run on the thread pool: on a large tree
// they are most of a glob's time), then orders them newest first, ties by
// path (grep's matches are ordered the same way).
QList<FileSearch::FoundFile> newestFirst(std::vector<StampedPath> paths)
{
    const auto stamp = [](StampedPath &entry) { entry.modifiedMs = modifiedMsOf(entry.path); };
    // Handing a few hundred stats to the pool costs more than it saves.
    constexpr size_t ParallelFrom = 2000;
    if (paths.size() < ParallelFrom)
        std::for_each(paths.begin(), paths.end(), stamp);
    else
        QtConcurrent::blockingMap(paths, stamp);
    std::sort(paths.begin(), paths.end(), [](const StampedPath &a, const StampedPath &b) {
        if (a.modifiedMs != b.modifiedMs)
            return a.modifiedMs > b.modifiedMs;
        return a.path < b.path;
    });
    QList<FileSearch::FoundFile> found;
    found.reserve(qsizetype(paths.size()));
    for (const StampedPath &entry : paths) {
        const QDateTime modified = entry.modifiedMs == std::numeric_limits<qint64>::min()
            ? QDateTime()
            : QDateTime::fromMSecsSinceEpoch(entry.modifiedMs, Qt::UTC);
        found.append(FileSearch::FoundFile{QFile::decodeName(entry.path), modified});
    }
    return found;
}

// The lines of one file that match, as ripgrep reports them; stops at a
// NUL byte (a binary file), as ripgrep does when it meets one. False when
// the file could not be read.
bool grepFile(const QString &path, const QRegularExpression &expression, QList<FileSearch::Match> &out)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QDateTime modified = modifiedAt(path);
    QByteArray line;
    qint64 number = 0;
    const auto finish = [&] {
        ++number;
        const QString text = QString::fromUtf8(line);
        if (expression.match(text).hasMatch())
            out.append(FileSearch::Match{path, number, cutLine(text), modified});
        line.clear();
    };
    while (true) {
        const QByteArray chunk = file.read(ReadChunkBytes);
        if (chunk.isEmpty())
            break;
        if (chunk.contains('\0'))
            return true;
        qsizetype start = 0;
        while (start < chunk.size()) {
            const qsizetype end = chunk.indexOf('\n', start);
            const qsizetype stop = end < 0 ? chunk.size() : end;
            const qsizetype room = MaxScannedLine - line.size();
            line.append(chunk.constData() + start, std::min(stop - start, std::max<qsizetype>(room, 0)));
            if (end < 0)
                break;
            finish();
            start = end + 1;
        }
    }
    if (file.error() != QFileDevice::NoError)
        return false;
    if (!line.isEmpty())
        finish();
    return true;
}

// --- ripgrep ------------------------------------------------------------

struct ProcessOutcome {
    int exitCode = 0;
    QString errors;
    bool sawOutput = false;
};

// Runs ripgrep, handing each line of its output to `sink` as it comes,
// until the sink returns false (then ripgrep is stopped and the outcome is
// a success); killed when `abort` fires.
QCoro::Task<Result<ProcessOutcome>> runRipgrep(QString rg, QStringList arguments, QString workingDirectory,
                                               QPointer<AbortSignal> abort,
                                               std::function<bool(const QByteArray &)> sink)
{
    QProcess process;
    process.setWorkingDirectory(workingDirectory);
    process.setProcessChannelMode(QProcess::SeparateChannels);
    ProcessOutcome outcome;
    QByteArray pending;
    bool stopped = false;
    const auto drain = [&](bool atEnd) {
        pending += process.readAllStandardOutput();
        qsizetype start = 0;
        while (!stopped) {
            const qsizetype end = pending.indexOf('\n', start);
            if (end < 0)
                break;
            outcome.sawOutput = true;
            stopped = !sink(pending.mid(start, end - start));
            start = end + 1;
        }
        pending.remove(0, start);
        if (atEnd && !stopped && !pending.isEmpty()) {
            outcome.sawOutput = true;
            stopped = !sink(pending);
        }
        if (stopped) {
            pending.clear();
            process.kill();
        }
    };
    QObject::connect(&process, &QProcess::readyReadStandardOutput, &process, [&drain] { drain(false); });
    QMetaObject::Connection killer;
    if (abort)
        killer = QObject::connect(abort.data(), &AbortSignal::aborted, &process, [&process] { process.kill(); });
    qCDebug(lcTool) << "running" << rg << arguments << "in" << workingDirectory;
    QCoro::Task<bool> starting = qCoro(process).start(rg, arguments, QIODevice::ReadOnly);
    const bool started = co_await starting;
    if (!started) {
        QObject::disconnect(killer);
        co_return Error{QStringLiteral("ripgrep failed to start: %1").arg(process.errorString())};
    }
    if (aborted(abort))
        process.kill();
    QCoro::Task<bool> finishing = qCoro(process).waitForFinished(std::chrono::milliseconds(-1));
    co_await finishing;
    QObject::disconnect(killer);
    drain(true);
    if (aborted(abort))
        co_return Error{QStringLiteral("The search was stopped.")};
    if (stopped)
        co_return outcome;
    if (process.exitStatus() != QProcess::NormalExit)
        co_return Error{QStringLiteral("ripgrep failed: it crashed")};
    outcome.exitCode = process.exitCode();
    outcome.errors = QString::fromUtf8(process.readAllStandardError()).trimmed();
    co_return outcome;
}

} // namespace

QString FileSearch::ripgrep()
{
    return QStandardPaths::findExecutable(u"rg"_s);
}

QCoro::Task<Result<QList<FileSearch::FoundFile>>> FileSearch::files(QString directory, QStringList globs, Backend backend,
                                                                     QPointer<AbortSignal> abort)
{
    QCoro::Task<Result<FileList>> listing = list(std::move(directory), std::move(globs), -1, backend, abort);
    Result<FileList> listed = co_await listing;
    if (!listed)
        co_return listed.error();
    co_return std::move(listed->files);
}

QCoro::Task<Result<FileSearch::FileList>> FileSearch::firstFiles(QString directory, QStringList globs, qsizetype limit,
                                                                 Backend backend, QPointer<AbortSignal> abort)
{
    QCoro::Task<Result<FileList>> listing =
        list(std::move(directory), std::move(globs), std::max<qsizetype>(limit, 0), backend, abort);
    co_return co_await listing;
}

QCoro::Task<Result<FileSearch::FileList>> FileSearch::list(QString directory, QStringList globs, qsizetype limit,
                                                           Backend backend, QPointer<AbortSignal> abort)
{
    const QString rg = backend == Backend::InProcess ? QString() : ripgrep();
    if (backend == Backend::Ripgrep && rg.isEmpty())
        co_return Error{QStringLiteral("ripgrep (rg) is not installed")};
    if (rg.isEmpty()) {
        QCoro::Task<Result<FileList>> scanning = scanFiles(std::move(directory), std::move(globs), limit, abort);
        co_return co_await scanning;
    }
    QCoro::Task<Result<FileList>> searching = ripgrepFiles(rg, std::move(directory), std::move(globs), limit, abort);
    co_return co_await searching;
}

QCoro::Task<Result<FileSearch::GrepResult>> FileSearch::grep(QString pattern, QString path, QString include,
                                                             Backend backend, QPointer<AbortSignal> abort)
{
    const QString rg = backend == Backend::InProcess ? QString() : ripgrep();
    if (backend == Backend::Ripgrep && rg.isEmpty())
        co_return Error{QStringLiteral("ripgrep (rg) is not installed")};
    if (rg.isEmpty()) {
        QCoro::Task<Result<GrepResult>> scanning =
            scanGrep(std::move(pattern), std::move(path), std::move(include), abort);
        co_return co_await scanning;
    }
    QCoro::Task<Result<GrepResult>> searching =
        ripgrepGrep(rg, std::move(pattern), std::move(path), std::move(include), abort);
    co_return co_await searching;
}

QCoro::Task<Result<FileSearch::FileList>> FileSearch::scanFiles(QString directory, QStringList globs, qsizetype limit,
                                                                QPointer<AbortSignal> abort)
{
    const Cancelled cancelled = cancelFlag(abort);
    QFuture<std::optional<FileList>> scanning = QtConcurrent::run([directory, globs, limit, cancelled] {
        const RipgrepGlobs set(globs);
        const Walk walked = walk(directory, set, *cancelled);
        if (walked.cancelled)
            return std::optional<FileList>();
        std::vector<StampedPath> kept;
        for (const QFileInfo &file : walked.files) {
            if (set.keepsFile(relativeTo(directory, file.absoluteFilePath())))
                kept.push_back(StampedPath{QFile::encodeName(QDir::cleanPath(file.absoluteFilePath())), 0});
        }
        const bool truncated = limit >= 0 && qsizetype(kept.size()) > limit;
        if (truncated) {
            std::sort(kept.begin(), kept.end(),
                      [](const StampedPath &a, const StampedPath &b) { return walkedBefore(a.path, b.path); });
            kept.resize(size_t(limit));
        }
        return std::optional<FileList>(FileList{newestFirst(std::move(kept)), truncated});
    });
    std::optional<FileList> found = co_await scanning;
    if (!found || aborted(abort))
        co_return Error{QStringLiteral("The search was stopped.")};
    co_return std::move(*found);
}

QCoro::Task<Result<FileSearch::GrepResult>> FileSearch::scanGrep(QString pattern, QString path, QString include,
                                                                 QPointer<AbortSignal> abort)
{
    // ripgrep's regular expressions are Unicode-aware: \w and \d match
    // beyond ASCII.
    const QRegularExpression expression(pattern, QRegularExpression::UseUnicodePropertiesOption);
    if (!expression.isValid())
        co_return Error{QStringLiteral("Invalid regular expression %1: %2 at offset %3")
                            .arg(pattern, expression.errorString())
                            .arg(expression.patternErrorOffset())};
    const Cancelled cancelled = cancelFlag(abort);
    QFuture<std::optional<GrepResult>> scanning = QtConcurrent::run([path, include, expression, cancelled] {
        GrepResult result;
        const QFileInfo target(path);
        QList<QFileInfo> files;
        if (target.isDir()) {
            const RipgrepGlobs set(QStringList{include});
            Walk walked = walk(path, set, *cancelled);
            if (walked.cancelled)
                return std::optional<GrepResult>();
            result.partial = walked.partial;
            for (const QFileInfo &file : walked.files) {
                if (set.keepsFile(relativeTo(path, file.absoluteFilePath())))
                    files.append(file);
            }
        } else {
            // A file named outright is searched whatever the glob says.
            files.append(target);
        }
        for (const QFileInfo &file : files) {
            if (*cancelled)
                return std::optional<GrepResult>();
            if (!grepFile(QDir::cleanPath(file.absoluteFilePath()), expression, result.matches))
                result.partial = true;
        }
        sortNewestFirst(result.matches);
        return std::optional<GrepResult>(std::move(result));
    });
    std::optional<GrepResult> result = co_await scanning;
    if (!result || aborted(abort))
        co_return Error{QStringLiteral("The search was stopped.")};
    co_return std::move(*result);
}

QCoro::Task<Result<FileSearch::FileList>> FileSearch::ripgrepFiles(QString rg, QString directory, QStringList globs,
                                                                   qsizetype limit, QPointer<AbortSignal> abort)
{
    // ripgrep lists paths relative to its working folder; they stay bytes
    // until the end, since stat wants bytes and most are never shown.
    std::vector<StampedPath> listed;
    const QByteArray prefix = QFile::encodeName(directory.endsWith(u'/') ? directory : directory + u'/');
    QStringList arguments{u"--files"_s, u"--hidden"_s};
    // A limited listing must be the same every time: ripgrep's parallel
    // walk lists in no fixed order, its sorted walk in path order.
    if (limit >= 0)
        arguments.append(u"--sort=path"_s);
    for (const QString &glob : globs)
        arguments.append(u"--glob="_s + glob);
    QCoro::Task<Result<ProcessOutcome>> running =
        runRipgrep(rg, arguments, directory, abort, [&listed, &prefix, limit](const QByteArray &line) {
            if (!line.isEmpty())
                listed.push_back(StampedPath{prefix + line, 0});
            return limit < 0 || qsizetype(listed.size()) <= limit;
        });
    const Result<ProcessOutcome> outcome = co_await running;
    if (!outcome)
        co_return outcome.error();
    // Exit 1 is "nothing found"; 2 is an error, fatal only when nothing
    // was listed (a bad glob), else some folders were unreadable.
    if (outcome->exitCode == 2 && !outcome->sawOutput && !outcome->errors.isEmpty())
        co_return Error{QStringLiteral("ripgrep failed: %1").arg(outcome->errors)};

    const auto stampAll = [limit](std::vector<StampedPath> listed) {
        const bool truncated = limit >= 0 && qsizetype(listed.size()) > limit;
        if (truncated)
            listed.resize(size_t(limit));
        return FileList{newestFirst(std::move(listed)), truncated};
    };
    // A capped listing is a few stats: not worth a trip to the pool.
    if (limit >= 0 && limit < 1000)
        co_return stampAll(std::move(listed));
    QFuture<FileList> stamping = QtConcurrent::run(stampAll, std::move(listed));
    FileList found = co_await stamping;
    co_return found;
}

QCoro::Task<Result<FileSearch::GrepResult>> FileSearch::ripgrepGrep(QString rg, QString pattern, QString path,
                                                                    QString include, QPointer<AbortSignal> abort)
{
    GrepResult result;
    QStringList arguments{u"-nH"_s,     u"--hidden"_s,  u"--no-messages"_s, u"--null"_s,
                          u"--field-match-separator=|"_s, u"--regexp"_s, pattern};
    if (!include.isEmpty())
        arguments << u"--glob"_s << include;
    arguments << path;
    const QFileInfo target(path);
    const QString workingDirectory = target.isDir() ? path : target.path();
    // Each line is "<path>\0<line>|<text>".
    QCoro::Task<Result<ProcessOutcome>> running =
        runRipgrep(rg, arguments, workingDirectory, abort, [&result](const QByteArray &line) {
            const qsizetype nul = line.indexOf('\0');
            const qsizetype bar = nul < 0 ? -1 : line.indexOf('|', nul + 1);
            if (bar < 0)
                return true;
            bool ok = false;
            const qint64 number = line.mid(nul + 1, bar - nul - 1).toLongLong(&ok);
            if (!ok)
                return true;
            result.matches.append(Match{QDir::cleanPath(QString::fromUtf8(line.left(nul))), number,
                                        cutLine(QString::fromUtf8(line.mid(bar + 1))), {}});
            return true;
        });
    const Result<ProcessOutcome> outcome = co_await running;
    if (!outcome)
        co_return outcome.error();
    if (outcome->exitCode == 2 && !outcome->sawOutput && !outcome->errors.isEmpty())
        co_return Error{QStringLiteral("ripgrep failed: %1").arg(outcome->errors)};
    if (outcome->exitCode != 0 && outcome->exitCode != 1 && outcome->exitCode != 2)
        co_return Error{QStringLiteral("ripgrep failed with exit code %1: %2").arg(outcome->exitCode).arg(outcome->errors)};
    result.partial = outcome->exitCode == 2;

    QFuture<GrepResult> stamping = QtConcurrent::run([result]() mutable {
        QHash<QString, QDateTime> modified;
        for (Match &match : result.matches) {
            auto it = modified.find(match.path);
            if (it == modified.end())
                it = modified.insert(match.path, modifiedAt(match.path));
            match.modified = *it;
        }
        sortNewestFirst(result.matches);
        return result;
    });
    GrepResult stamped = co_await stamping;
    co_return stamped;
}

} // namespace qcode
