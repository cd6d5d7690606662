#include "ToolSpinner.h"

#include <QPainter>

#include "ToolColors.h"

namespace qcode {

ToolSpinner::ToolSpinner(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("toolSpinner"));
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_timer.setInterval(FrameMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        m_angle = (m_angle + 30) % 360;
        update();
        Q_EMIT frameAdvanced();
    });
}

void ToolSpinner::setSpinning(bool spinning)
{
    if (m_spinning == spinning)
        return;
    m_spinning = spinning;
    setVisible(spinning);
    updateTimer();
}

QSize ToolSpinner::sizeHint() const
{
    const int side = fontMetrics().height() * 3 / 4;
    return {side, side};
}

void ToolSpinner::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const qreal pen = std::max(1.5, width() / 8.0);
    const QRectF box = QRectF(rect()).adjusted(pen, pen, -pen, -pen);
    painter.setPen(QPen(ToolColors::border(palette()), pen));
    painter.drawEllipse(box);
    painter.setPen(QPen(palette().color(QPalette::Highlight), pen, Qt::SolidLine, Qt::RoundCap));
    // drawArc counts sixteenths of a degree, counter-clockwise.
    painter.drawArc(box, -m_angle * 16, 100 * 16);
}

void ToolSpinner::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    updateTimer();
}

void ToolSpinner::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    updateTimer();
}

void ToolSpinner::updateTimer()
{
    if (m_spinning && isVisible())
        m_timer.start();
    else
        m_timer.stop();
}

} // namespace qcode
