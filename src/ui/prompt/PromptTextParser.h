#pragma once

#include <QList>
#include <QSet>
#include <QString>

#include <optional>

#include "PromptSubmission.h"

namespace qcode {

// How the prompt box reads what was typed. Pure functions over the text,
// so the rules are tested without a widget.
class PromptTextParser
{
public:
    using Kind = PromptSubmission::Kind;

    struct Parsed {
        Kind kind = Kind::Prompt;
        QString command; // Command: its name without "/"
        QString text;    // Prompt: the text; Shell: the command line; Command: the arguments
    };

    // A piece of the text: [start, end) in UTF-16 units, and its content
    // without the leading "@" or "/".
    struct Token {
        qsizetype start = 0;
        qsizetype end = 0;
        QString text;
    };

    // "!cmd" is a shell command; "/name args" a command when `commands`
    // holds the name (anything else starting with "/" is an ordinary
    // prompt, so "/usr/bin is missing" still reaches the model). The text
    // is trimmed.
    static Parsed parse(const QString &text, const QSet<QString> &commands);

    // Every "@token" in the text as OpenCode finds them: an "@" not after a
    // word character or a backtick, then a path-like run that stops before
    // a space, a comma or a sentence's final full stop.
    static QList<Token> mentions(const QString &text);

    // The "@query" being typed at `cursor`: from an "@" that starts a token
    // up to the cursor, with no space between.
    static std::optional<Token> mentionAt(const QString &text, qsizetype cursor);
    // The "/query" being typed at `cursor`: the text starts with "/" and
    // no space comes between it and the cursor.
    static std::optional<Token> commandAt(const QString &text, qsizetype cursor);
};

} // namespace qcode
