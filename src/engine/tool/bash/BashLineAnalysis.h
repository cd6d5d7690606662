#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace qcode {

// What a bash command line can run, read with bash's own grammar
// (tree-sitter-bash) for the bash tool's permission checks (reference
// §8.5, §9; issue 16).
//
// Every command the line can execute is reported: those of lists and
// pipelines, of command and process substitutions wherever they appear
// (arguments, strings, ${…} expansions, redirections, here-doc bodies that
// expand, case words, for lists, test expressions), of compound commands,
// and the inner command of wrappers that run one (env, xargs, nice, nohup,
// timeout, time, command, builtin, sudo, doas, stdbuf, ionice, setsid,
// find -exec).
//
// What the checker cannot account for makes the line opaque, with the
// reason: it is then judged as a whole, never by the commands it found.
// The walk knows a fixed set of node types; anything else, a parse error,
// text the grammar skipped or read differently from bash, code that bash
// evaluates from inside values (eval, source, sh -c, arithmetic or array
// subscripts that read variables, ${x@P}, ${!x}, subscripted names given
// to declare/read/printf -v/test -v …), functions and aliases defined on
// the line, and assignments to variables that change what later words run
// (PATH, IFS, BASH_ENV, PS4 …) are opaque.
class BashLineAnalysis
{
public:
    // One word of a command, as written and as bash passes it.
    struct Word {
        QString raw; // as written, quotes kept
        // After quote removal, when no parameter, command or arithmetic
        // expansion is in it.
        std::optional<QString> value;
        // Pathname, brace or tilde expansion may still change `value`.
        bool expands = false;
        // A double-quoted string without "$@"-like lists: one word at run
        // time whatever its value.
        bool single = false;
        uint32_t start = 0; // byte offsets in the line's UTF-8
        uint32_t end = 0;

        bool isFixed() const { return value.has_value() && !expands; }
        bool operator==(const Word &) const = default;
    };

    struct Command {
        QString text; // as written
        QList<Word> words; // the name, then the arguments
        // A bare assignment or a declaration (export, declare, unset …):
        // not a program, but it changes what later commands see.
        bool setsVariables = false;

        QString name() const { return words.isEmpty() ? QString() : words.first().value.value_or(QString()); }
        QStringList tokens() const;
        // Every word has a fixed value: the exact arguments bash passes.
        bool isStatic() const;
        bool operator==(const Command &) const = default;
    };

    static BashLineAnalysis analyze(const QString &line);

    bool isOpaque() const { return !m_opaqueReason.isEmpty(); }
    // In English, for the permission request's metadata and the logs.
    QString opaqueReason() const { return m_opaqueReason; }
    QList<Command> commands() const { return m_commands; }
    // The files the line's redirections read or write ("> out", "2>> log",
    // "< in"; not here-docs, not "2>&1"), where they have a fixed value.
    QStringList redirectTargets() const { return m_redirectTargets; }

    // The commands whose arguments name files qcode checks for paths
    // outside the project (as OpenCode does), and those arguments: fixed
    // values, and globs and ~ as written; not flags, not chmod's modes.
    static bool touchesPaths(const Command &command);
    static QStringList pathArguments(const Command &command);

private:
    friend class BashLineWalker;

    QString m_opaqueReason;
    QList<Command> m_commands;
    QStringList m_redirectTargets;
};

} // namespace qcode
