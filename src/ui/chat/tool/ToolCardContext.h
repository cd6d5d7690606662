#pragma once

#include <QString>

#include <functional>

namespace qcode {

class CodeHighlighter;

// What every tool card of one chat shares.
struct ToolCardContext {
    QString projectDirectory;      // paths under it are shown relative
    std::function<qint64()> clock; // ms since the epoch; empty: the system clock
    CodeHighlighter *highlighter = nullptr; // the chat's, not owned; null: a file's lines are plain
};

} // namespace qcode
