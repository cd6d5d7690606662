#pragma once

#include <QChar>
#include <QCoreApplication>
#include <QString>

class QTextDocument;

namespace qcode {

struct CodeBlockFormats;
struct FencedCode;

// Writes a fenced code block at the end of a document: a header line with
// the language and a Copy link, then one block per line of code (marked
// with QTextFormat::BlockCodeLanguage, so CodeBlockHighlighter colours it).
// While the block streams it grows in place: lines already complete are
// never written again, so a long block costs its length once.
class FencedCodeWriter
{
    Q_DECLARE_TR_FUNCTIONS(FencedCodeWriter)

public:
    FencedCodeWriter(QTextDocument *document, const CodeBlockFormats *formats, int codeIndex);

    // Appends `code` after the document's last block.
    void write(const FencedCode &code);
    // `code` is what write() or grow() last wrote with more text after it:
    // rewrites the last line (it may have been partial) and adds the rest.
    void grow(const FencedCode &code);

    int codeIndex() const { return m_codeIndex; }

private:
    void removeLinesAfter(qsizetype keep);
    void appendLines(const FencedCode &code, qsizetype from);

    QTextDocument *m_document;
    const CodeBlockFormats *m_formats;
    int m_codeIndex;
    qsizetype m_lineCount = 0; // code lines written, the document's last blocks
};

} // namespace qcode
