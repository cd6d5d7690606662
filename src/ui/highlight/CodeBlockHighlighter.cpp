#include "CodeBlockHighlighter.h"

#include <QTextBlock>

#include "CodeHighlighter.h"

namespace qcode {
namespace {

// QTextBlock::userState()'s value for "not code": the next code block starts afresh.
constexpr int NotCode = -1;

} // namespace

CodeBlockHighlighter::CodeBlockHighlighter(CodeHighlighter *highlighter, QTextDocument *document)
    : QSyntaxHighlighter(document), m_highlighter(highlighter)
{
}

CodeBlockHighlighter::CodeBlockHighlighter(CodeHighlighter *highlighter, const QString &language,
                                           QTextDocument *document)
    : QSyntaxHighlighter(document), m_highlighter(highlighter), m_fixedLanguage(language)
{
}

std::optional<QString> CodeBlockHighlighter::codeLanguage(const QTextBlock &block)
{
    const QTextBlockFormat format = block.blockFormat();
    if (!format.hasProperty(QTextFormat::BlockCodeLanguage))
        return std::nullopt;
    return format.stringProperty(QTextFormat::BlockCodeLanguage);
}

void CodeBlockHighlighter::highlightBlock(const QString &text)
{
    const std::optional<QString> language = m_fixedLanguage ? m_fixedLanguage : codeLanguage(currentBlock());
    if (!language || !m_highlighter) {
        setCurrentBlockState(NotCode);
        return;
    }
    // Two fences can touch; the second one's first line starts afresh.
    const bool continues = m_fixedLanguage || codeLanguage(currentBlock().previous()) == language;
    const int previous = continues ? qMax(previousBlockState(), 0) : 0;
    QList<HighlightSpan> spans;
    const int state = m_highlighter->highlightLine(*language, text, previous, spans);
    for (const HighlightSpan &span : std::as_const(spans))
        setFormat(span.start, span.length, span.format);
    setCurrentBlockState(state);
}

} // namespace qcode
