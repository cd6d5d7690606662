#pragma once

#include <QList>
#include <QString>
#include <QTextCharFormat>

#include <memory>

namespace qcode {

// One coloured range of a line, in UTF-16 code units of that line.
struct HighlightSpan {
    int start = 0;
    int length = 0;
    QTextCharFormat format;
};

// Colours code one line at a time, carrying state across lines (multi-line
// comments and strings). Backends: KSyntaxHighlighting where the system has
// it, else GNU Source-highlight, else plain (DESIGN.md §6).
class CodeHighlighter
{
public:
    virtual ~CodeHighlighter();

    // "KSyntaxHighlighting", "GNU Source-highlight" or "plain".
    virtual QString backendName() const = 0;

    // `language` is a Markdown fence's info string ("cpp", "c++", "py", "ts",
    // "sh", "json", "diff" …) or a file name ("main.cpp", "CMakeLists.txt"),
    // matched case-insensitively with the common aliases.
    virtual bool knowsLanguage(const QString &language) const = 0;

    // Appends the spans of `line` to `spans`. `state` is what the previous line
    // returned (0 for the first line); returns the state after this line.
    // An unknown language, or a line too long to colour quickly, gets no spans.
    virtual int highlightLine(const QString &language, const QString &line, int state, QList<HighlightSpan> &spans) = 0;

    // Chooses the palette for light or dark themes.
    virtual void setDark(bool dark) = 0;

    // The best backend compiled in: KSyntaxHighlighting, else Source-highlight, else plain.
    static std::unique_ptr<CodeHighlighter> create();
    static std::unique_ptr<CodeHighlighter> createPlain();
};

} // namespace qcode
