#pragma once

#include <QTextCharFormat>

namespace qcode {

// The kinds of code text a backend without its own themes can tell apart.
enum class HighlightStyle {
    Normal,
    Keyword,
    Type,
    String,
    Escape,
    Comment,
    Number,
    Preprocessor,
    Function,
    Variable,
    Key,
    Symbol,
    Todo,
    Url,
    Added,
    Removed,
    DiffHeader,
};

// Colours for those kinds, in a light and a dark variant (GitHub-like, so
// code reads the same as on the web pages people copy it from).
QTextCharFormat highlightFormat(HighlightStyle style, bool dark);

} // namespace qcode
