#pragma once

#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace qcode {

// The dialect of ripgrep's --glob (the globset crate), for the glob and grep
// tools' patterns when the search runs in process (FileSearch): `*` and `?`
// stay within a folder, `**` crosses folders, `[…]` (with `!` or `^`) is a
// class, `{a,b}` alternatives, `\` escapes. As in .gitignore, a glob with a
// "/" before its end is anchored at the search folder; without one it
// matches a name at any depth. A leading "!" excludes.
//
// Several globs combine as ripgrep combines them: a file is kept when no
// "!" glob matches it and, if there are others, one of them does; a folder
// is skipped whole when a "!" glob matches it.
class RipgrepGlobs
{
public:
    explicit RipgrepGlobs(const QStringList &globs);

    // What the globs say of a path before any ignore file is read, as
    // ripgrep's overrides: a "!" glob drops it, a plain glob that matches
    // keeps it even where an ignore file would not, and a file no plain
    // glob matches is dropped. Folders only ever fall to the ignore files.
    enum class Verdict { Keep, Drop, AskIgnoreFiles };
    Verdict verdict(const QString &relativePath, bool isDirectory) const;

    bool keepsFile(const QString &relativePath) const;

private:
    struct Compiled {
        bool nameOnly = false;
        QRegularExpression expression;
        bool matches(const QString &relativePath) const;
    };

    bool excluded(const QString &relativePath) const;

    QList<Compiled> m_included;
    QList<Compiled> m_excluded;
};

} // namespace qcode
