#pragma once

#include <QCoreApplication>
#include <QStringList>

#include <optional>

#include "CodeBlockFormats.h"
#include "FencedCode.h"
#include "FencedCodeWriter.h"

class QTextDocument;

namespace qcode {

// Keeps a QTextDocument equal to a list of Markdown blocks (MarkdownBlocks'
// output): closed blocks are rendered once and never touched again; the
// open block's rendering, always at the end of the document, is removed and
// rendered anew as it changes (a fenced code block grows in place instead).
// Code blocks get a header with a Copy link naming their index in code().
class MarkdownRenderer
{
    Q_DECLARE_TR_FUNCTIONS(MarkdownRenderer)

public:
    explicit MarkdownRenderer(QTextDocument *document);

    void setFormats(const CodeBlockFormats &formats);
    void clear();
    // `closed` follow the blocks closed so far and will not change; `open` is
    // everything after them (empty when nothing is open).
    void update(const QStringList &closed, const QString &open);

    // The code of the block whose Copy link carries `index`.
    std::optional<QString> code(int index) const;
    // How many times a block was rendered (or grown) since construction.
    int renderedBlockCount() const { return m_renderedBlocks; }
    // Whether the document holds words of qcode's own (a code block's
    // header, a note on what is left out), which another language words
    // differently.
    bool hasOwnWords() const { return !m_codes.isEmpty() || m_hasNotes; }

private:
    void closeBlock(const QString &source);
    void renderOpen(const QString &source);
    bool growOpenFence(const QString &source);
    FencedCode shownPart(const FencedCode &code) const;
    void removeOpen();
    void render(const QString &source);
    void renderMarkdown(const QString &source);
    void renderPlain(const QString &source);
    void appendNote(const QString &note);
    void decorateCode(QTextDocument &fragment);
    void commit();

    QTextDocument *m_document;
    CodeBlockFormats m_formats;
    QStringList m_codes;
    qsizetype m_committedCodes = 0;
    int m_openStart = 0;
    QString m_openSource;
    std::optional<FencedCodeWriter> m_openFence;
    int m_renderedBlocks = 0;
    bool m_hasNotes = false;
};

} // namespace qcode
