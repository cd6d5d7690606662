#pragma once

#include <QTextBrowser>
#include <QTimer>

#include <memory>

#include "MarkdownBlocks.h"
#include "MarkdownRenderer.h"

namespace qcode {

class CodeBlockHighlighter;
class CodeHighlighter;

// The assistant's text as it streams: Markdown rendered through
// QTextDocument, read-only and selectable, as tall as its content (no
// scrollbars; it wraps to the width it is given). Finished blocks are
// rendered once; a delta re-renders only the last, open block. Code blocks
// are coloured by the CodeHighlighter and have a Copy link. Links open in
// the browser for http, https and mailto only.
//
// setMarkdown() hides QTextEdit's function of that name: the text given
// here is the view's source, split and rendered block by block.
class MarkdownView : public QTextBrowser
{
    Q_OBJECT

public:
    // `highlighter` may be null (code is then plain monospace); it is not owned.
    explicit MarkdownView(CodeHighlighter *highlighter, QWidget *parent = nullptr);
    ~MarkdownView() override;

    // Replaces everything.
    void setMarkdown(const QString &text);
    // Streaming: appends `delta` to the source text.
    void appendMarkdown(const QString &delta);
    // A later state of the text: appended when it extends the source, else replaces it.
    void showMarkdown(const QString &text);
    // The whole source, exactly as given.
    QString markdown() const { return m_source; }

    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // How many source blocks were rendered (or re-rendered) since construction.
    int renderedBlockCount() const { return m_renderer.renderedBlockCount(); }

Q_SIGNALS:
    // After a code block's Copy was clicked; the code is on the clipboard too.
    void codeCopied(const QString &code);

protected:
    void changeEvent(QEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    QVariant loadResource(int type, const QUrl &name) override;

private:
    void renderPending();
    void activateLink(const QUrl &url);
    void applyPalette();
    void contentHeightMayHaveChanged();
    int documentHeightAt(int textWidth) const;
    int overflowBarHeight(int textWidth) const;

    CodeHighlighter *m_highlighter = nullptr;
    CodeBlockHighlighter *m_blockHighlighter = nullptr;
    QString m_source;
    MarkdownBlocks m_blocks;
    MarkdownRenderer m_renderer;
    QStringList m_pendingClosed;
    QTimer m_renderTimer;
    int m_reportedHeight = -1;
    mutable int m_measuredWidth = -1;
    mutable int m_measuredHeight = -1;
    mutable bool m_measuredOverflow = false;
};

} // namespace qcode
