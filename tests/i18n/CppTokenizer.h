#pragma once

#include <QList>
#include <QSet>
#include <QString>

namespace qcode::test {

// One C++ token, as far as the translation checks need: identifiers,
// string literals (prefix and suffix kept; "a" "b" joined into one),
// punctuation ("::" and "->" whole), and everything else.
struct CppToken {
    enum class Kind { Identifier, Literal, Punctuation, Other };
    Kind kind;
    QString text; // empty for Other
    int line;     // where it starts, from 1
    int lastLine; // where it ends (a literal may span lines)
};

// A source file's tokens, without a compiler: comments, raw strings,
// character literals and digit separators (120'000) are understood, macros
// are not expanded. Comments are dropped; the lines that carry an
// `i18n: <why>` comment are kept in markedLines.
struct CppTokens {
    QList<CppToken> tokens;
    QSet<int> markedLines;

    static CppTokens of(const QString &text);
};

} // namespace qcode::test
