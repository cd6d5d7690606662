#include "ToolTitleLabel.h"

#include <QEvent>
#include <QPainter>

#include "ToolColors.h"
#include "ToolFonts.h"

namespace qcode {

ToolTitleLabel::ToolTitleLabel(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void ToolTitleLabel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    setAccessibleName(text);
    updateGeometry();
    update();
}

void ToolTitleLabel::setMuted(bool muted)
{
    m_muted = muted;
    update();
}

QList<ToolTitleLabel::Span> ToolTitleLabel::spans() const
{
    const qsizetype open = m_text.indexOf(u'`');
    const qsizetype close = m_text.lastIndexOf(u'`');
    if (m_muted || open < 0 || close <= open)
        return {{m_text, false}};
    return {{m_text.left(open), false}, {m_text.mid(open + 1, close - open - 1), true}, {m_text.mid(close + 1), false}};
}

QFont ToolTitleLabel::codeFont() const
{
    QFont code = ToolFonts::fixed();
    if (font().pointSizeF() > 0)
        code.setPointSizeF(font().pointSizeF() * 0.95);
    return code;
}

int ToolTitleLabel::naturalWidth() const
{
    int width = 0;
    for (const Span &span : spans())
        width += QFontMetrics(span.code ? codeFont() : font()).horizontalAdvance(span.text);
    return width;
}

QSize ToolTitleLabel::sizeHint() const
{
    const int height = std::max(fontMetrics().height(), QFontMetrics(codeFont()).height());
    return {naturalWidth() + 2, height};
}

QSize ToolTitleLabel::minimumSizeHint() const
{
    return {fontMetrics().horizontalAdvance(QStringLiteral("W\u2026")), sizeHint().height()};
}

void ToolTitleLabel::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    painter.setPen(m_muted ? ToolColors::muted(palette()) : palette().color(QPalette::WindowText));
    const int baseline = (height() + fontMetrics().ascent() - fontMetrics().descent()) / 2;
    int x = 0;
    bool elided = false;
    for (const Span &span : spans()) {
        const QFont spanFont = span.code ? codeFont() : font();
        const QFontMetrics metrics(spanFont);
        painter.setFont(spanFont);
        const int room = width() - x;
        QString shown = span.text;
        if (metrics.horizontalAdvance(shown) > room) {
            shown = metrics.elidedText(shown, Qt::ElideRight, room);
            elided = true;
        }
        painter.drawText(x, baseline, shown);
        x += metrics.horizontalAdvance(shown);
        if (elided)
            break;
    }
    // A tooltip only where the text did not fit.
    const QString tip = elided ? m_text : QString();
    if (toolTip() != tip)
        setToolTip(tip);
}

void ToolTitleLabel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateGeometry();
}

} // namespace qcode
