#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QToolButton;
class QVBoxLayout;

namespace qcode {

class CodeBlockHighlighter;
class CodeHighlighter;
class OutputText;

// A tool's output: monospace, selectable, copyable; a file's lines with
// their numbers in a gutter and coloured as its language. Collapsed it shows
// PreviewLines lines (the first, or for a command's output the last) and a
// "+N lines" button; expanded, up to MaxVisibleLines with a scroll bar.
// It keeps at most MaxKeptLines lines and says how many it left out.
//
// setText() may be called on every streamed update: text that extends
// the previous text is appended, never re-laid whole.
class OutputView : public QWidget
{
    Q_OBJECT

public:
    static constexpr int PreviewLines = 10;
    static constexpr int MaxKeptLines = 2000;
    static constexpr int MaxVisibleLines = 40;
    enum class End { Head, Tail };

    explicit OutputView(QWidget *parent = nullptr);

    // Which lines matter when there are too many: the first or the last.
    void setEnd(End end);
    void setText(const QString &text);
    QString text() const { return m_text; }
    // The number of the first line, for a gutter; 0: no gutter.
    void setFirstLineNumber(int first);
    // Colours the text as `fileName`'s language when `highlighter` knows
    // it (not owned; it must outlive this view); else the text is plain.
    void setLanguage(CodeHighlighter *highlighter, const QString &fileName);
    bool isHighlighted() const { return m_blockHighlighter != nullptr; }

    int totalLines() const;
    int shownLines() const;
    int omittedLines() const { return std::max(0, totalLines() - shownLines()); }
    bool isExpanded() const { return m_expanded; }
    void setExpanded(bool expanded);
    QPlainTextEdit *textView() const;
    OutputText *numberedText() const { return m_view; }

    // The height `view` needs to show `lines` whole lines.
    static int heightForLines(const QPlainTextEdit *view, int lines);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void reset(QStringView text);
    void append(QStringView added);
    void refresh();
    void updateHeight();
    void keepEndInView();

    End m_end = End::Head;
    QString m_text;
    qsizetype m_shownLength = 0; // of m_text, without a final line break
    qsizetype m_lineBreaks = 0;  // in those characters
    bool m_expanded = false;
    bool m_following = true; // the tail stays in view while it grows
    QVBoxLayout *m_layout = nullptr;
    QLabel *m_omitted = nullptr;
    OutputText *m_view = nullptr;
    CodeHighlighter *m_highlighter = nullptr;
    QString m_language;
    CodeBlockHighlighter *m_blockHighlighter = nullptr;
    QPushButton *m_more = nullptr;
    QToolButton *m_copy = nullptr;
};

} // namespace qcode
