#pragma once

#include <QSyntaxHighlighter>

#include <optional>

namespace qcode {

class CodeHighlighter;

// Colours a QTextDocument through a CodeHighlighter, carrying the backend's
// state from block to block. Either a Markdown document, where only the
// blocks Qt's importer marks as code (QTextFormat::BlockCodeLanguage) are
// coloured, each in its fence's language; or a whole document in one fixed
// language, for code previews.
class CodeBlockHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT

public:
    // Markdown: colours the code blocks only. `highlighter` is not owned and must outlive this.
    CodeBlockHighlighter(CodeHighlighter *highlighter, QTextDocument *document);
    // Code: every block is `language` (a fence info string or a file name).
    CodeBlockHighlighter(CodeHighlighter *highlighter, const QString &language, QTextDocument *document);

    // The language of a Markdown code block, or nullopt when `block` is not code.
    static std::optional<QString> codeLanguage(const QTextBlock &block);

protected:
    void highlightBlock(const QString &text) override;

private:
    CodeHighlighter *m_highlighter = nullptr;
    std::optional<QString> m_fixedLanguage;
};

} // namespace qcode
