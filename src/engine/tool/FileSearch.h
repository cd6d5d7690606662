#pragma once

#include <QDateTime>
#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <QCoro/QCoroTask>

#include "engine/session/loop/AbortSignal.h"
#include "model/Result.h"

namespace qcode {

// Finding files by name and lines by regular expression for the glob and
// grep tools (reference §8.6, §8.7): ripgrep where it is installed, as
// OpenCode runs it, else an in-process walk that gives the same answers
// for the same tree. Both run off the engine thread (a process, or a
// QtConcurrent job) and stop when `abort` fires.
//
// The in-process walk follows ripgrep's defaults as the tools call it:
// hidden files included, symlinks not followed, files containing a NUL
// byte skipped by grep, globs matched as ripgrep's --glob does (a glob
// without "/" matches the file name at any depth, one with "/" the path
// from the search folder; `*` stays within a folder, `**` crosses them).
// It honours the ignore files ripgrep honours (IgnoreRules): .rgignore and
// .ignore, and inside a git repository .gitignore and the exclude files.
class FileSearch
{
public:
    enum class Backend {
        Automatic, // ripgrep when `rg` is on PATH, else in-process
        Ripgrep,
        InProcess,
    };

    struct FoundFile {
        QString path; // absolute
        QDateTime modified;
    };

    struct Match {
        QString path; // absolute
        qint64 line = 0;
        QString text; // the line without its end, at most MaxLineLength + "..."
        QDateTime modified;
    };

    struct GrepResult {
        QList<Match> matches;
        bool partial = false; // some paths could not be read
    };

    static constexpr qsizetype MaxLineLength = 2000;

    // The `rg` on PATH, or empty.
    static QString ripgrep();

    // Files below `directory` that `globs` keep (ripgrep's --glob, in
    // order; "!" excludes, and a folder an exclusion matches is skipped
    // whole), newest first (ties by path).
    static QCoro::Task<Result<QList<FoundFile>>> files(QString directory, QStringList globs, Backend backend,
                                                       QPointer<AbortSignal> abort);

    // Lines matching `pattern` in `path` (a folder, searched recursively,
    // or one file), in files matching `include` when given; sorted by
    // their file's modification time, newest first (ties by path, then
    // line).
    static QCoro::Task<Result<GrepResult>> grep(QString pattern, QString path, QString include, Backend backend,
                                                QPointer<AbortSignal> abort);

    struct FileList {
        QList<FoundFile> files;
        bool truncated = false; // more files matched than the limit
    };

    // At most `limit` of the files `globs` keep below `directory`: the first
    // ones in path order (folder by folder, as ripgrep's --sort=path walks),
    // so the same tree always gives the same answer; then newest first.
    // Stopping early keeps a search of a huge tree fast: ordering all of
    // its files by time would stat every one of them (reference §8.6: the
    // glob tool takes the first 100 ripgrep lists, then orders those).
    static QCoro::Task<Result<FileList>> firstFiles(QString directory, QStringList globs, qsizetype limit,
                                                    Backend backend, QPointer<AbortSignal> abort);

private:
    // limit < 0: all files.
    static QCoro::Task<Result<FileList>> list(QString directory, QStringList globs, qsizetype limit, Backend backend,
                                              QPointer<AbortSignal> abort);
    static QCoro::Task<Result<FileList>> ripgrepFiles(QString rg, QString directory, QStringList globs,
                                                      qsizetype limit, QPointer<AbortSignal> abort);
    static QCoro::Task<Result<GrepResult>> ripgrepGrep(QString rg, QString pattern, QString path, QString include,
                                                       QPointer<AbortSignal> abort);
    static QCoro::Task<Result<FileList>> scanFiles(QString directory, QStringList globs, qsizetype limit,
                                                   QPointer<AbortSignal> abort);
    static QCoro::Task<Result<GrepResult>> scanGrep(QString pattern, QString path, QString include,
                                                    QPointer<AbortSignal> abort);
};

} // namespace qcode
