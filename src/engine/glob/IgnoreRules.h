#pragma once

#include <QList>
#include <QRegularExpression>
#include <QString>

#include <memory>

namespace qcode {

// The ignore files ripgrep honours by default, for the in-process search
// (FileSearch) to skip what `rg` skips: `.rgignore`, `.ignore` everywhere,
// and inside a git repository also `.gitignore`, `.git/info/exclude` and
// the user's global git ignore file ($XDG_CONFIG_HOME/git/ignore).
//
// Patterns follow gitignore(5): `#` comments, `!` re-includes, a trailing
// `/` matches folders only, a pattern with a `/` before its end is anchored
// to its file's folder, otherwise it matches a name at any depth; `*` and
// `?` stay within a folder, `**` crosses folders, `[…]` is a class. A
// folder that is ignored is not entered, so nothing below it comes back.
//
// Precedence is ripgrep's: the deepest folder's files first, and in one
// folder `.rgignore` over `.ignore` over `.gitignore`; in one file the
// last matching pattern decides. Rules are immutable and shared, so
// entering a folder is cheap and a walk may hold many at once.
class IgnoreRules
{
public:
    // The rules in force at `root`, where a search starts: those of the
    // folders above it up to its repository's top (ripgrep reads parent
    // ignore files too) and root's own, plus the repository's exclude
    // file and the global one. `globalIgnoreFile` empty: none.
    static IgnoreRules forSearchRoot(const QString &root, const QString &globalIgnoreFile);
    // $XDG_CONFIG_HOME/git/ignore, else ~/.config/git/ignore.
    static QString defaultGlobalIgnoreFile();

    // These rules with `directory`'s own ignore files added (a folder
    // below the one these rules are for).
    IgnoreRules enter(const QString &directory) const;

    bool isIgnored(const QString &absolutePath, bool isDirectory) const;

    // One gitignore line, compiled; exposed for tests. `ok` false for
    // blank lines and comments.
    struct Pattern {
        QRegularExpression regex;
        bool negated = false;
        bool directoryOnly = false;
        bool ok = false;
    };
    static Pattern compile(const QString &line);

private:
    struct File {
        QList<Pattern> patterns;
    };
    struct Level {
        QString base; // the folder whose files these are, with a trailing '/'
        QList<File> files; // in precedence order
    };
    enum class Match { None, Ignore, Include };

    static Match matchFile(const File &file, const QString &relative, bool isDirectory);
    static std::shared_ptr<const Level> readLevel(const QString &directory, bool inRepository);

    QList<std::shared_ptr<const Level>> m_levels; // shallowest first
    QList<std::shared_ptr<const Level>> m_repositoryWide; // info/exclude, then global
    bool m_inRepository = false;
};

} // namespace qcode
