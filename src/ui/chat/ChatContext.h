#pragma once

#include <QString>

#include <functional>

namespace qcode {

class CodeHighlighter;

// What every widget of the chat shares: where the project is (paths under
// it are shown relative), the code highlighter, and the clock (elapsed
// times; tests pin it).
struct ChatContext {
    QString projectDirectory;
    CodeHighlighter *highlighter = nullptr; // null: code is shown plain
    std::function<qint64()> clock;          // ms since the epoch

    qint64 now() const;
};

} // namespace qcode
