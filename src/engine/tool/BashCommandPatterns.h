#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace qcode {

// What the bash tool asks permission for (reference §8.5, §9): a command
// line split into its simple commands, the way OpenCode reads it with
// tree-sitter-bash, and OpenCode's arity table that names a command for
// an "always" answer ("git checkout main" → "git checkout *").
//
// The splitter understands what decides where a command starts and ends:
// quotes, escapes, ; & && || | |& and newlines, ( ) subshells, { } groups,
// $( ) and ` ` substitutions (their commands count too), <( ) and >( ),
// $(( )) and (( )) arithmetic, [[ ]] tests, if/while/until/for/select/case
// constructs, function definitions, comments, redirections and here-docs.
// Like tree-sitter, declarations (export, declare, local, readonly,
// typeset, unset) and bare assignments are not commands; an assignment
// before a command is part of its text but not one of its words.
class BashCommandPatterns
{
public:
    struct Command {
        QString text;       // as written, with its redirections and assignments
        QStringList tokens; // the command name and its argument words, quotes kept

        bool operator==(const Command &) const = default;
    };

    // The simple commands of `script`, in the order they start.
    static QList<Command> split(const QString &script);

    // The files the line's redirections read or write ("> out.txt",
    // "2>> log", "< in"; not here-docs, not "2>&1"), unquoted; targets with
    // $ or ` are left out. OpenCode does not look at these; qcode checks
    // them for paths outside the project too.
    static QStringList redirectTargets(const QString &script);

    // The words that name a command: the longest prefix of `tokens` found
    // in OpenCode's table decides how many; an unknown command is its first
    // word.
    static QStringList arityPrefix(const QStringList &tokens);

    // The "always" pattern of a command: its arity prefix and " *".
    static QString alwaysPattern(const QStringList &tokens);

    // The commands whose arguments OpenCode checks for paths outside the
    // project, and those arguments with quotes and escapes removed (flags,
    // chmod's +x modes and words with $ or ` left out).
    static bool touchesPaths(const Command &command);
    static QStringList pathArguments(const Command &command);
};

} // namespace qcode
