#pragma once

#include <QWidget>

namespace qcode {

// One line of header text that elides at its end when space runs out
// (the whole text then shows as a tooltip). A title's code span, the part
// between its first and last backtick ("Run `make -j2`"), is drawn in the
// fixed-width font without the backticks.
class ToolTitleLabel : public QWidget
{
    Q_OBJECT

public:
    explicit ToolTitleLabel(QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    // Subtitles: dimmer, and backticks are only backticks.
    void setMuted(bool muted);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct Span {
        QString text;
        bool code = false;
    };
    QList<Span> spans() const;
    QFont codeFont() const;
    int naturalWidth() const;

    QString m_text;
    bool m_muted = false;
};

} // namespace qcode
