#include "ContextMeter.h"

#include <QEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

namespace qcode {
namespace {

constexpr int BarWidth = 90;
constexpr int BarHeight = 6;
constexpr int Gap = 8;

QString compact(qint64 tokens)
{
    if (tokens >= 1000000)
        return QLocale().toString(double(tokens) / 1e6, 'f', 1) + QLatin1Char('M');
    if (tokens >= 1000)
        return QLocale().toString(double(tokens) / 1e3, 'f', 1) + QLatin1Char('k');
    return QLocale().toString(tokens);
}

} // namespace

ContextMeter::ContextMeter(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("contextMeter"));
    setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    setUsage(0, 0, 0);
}

void ContextMeter::setUsage(qint64 used, qint64 limit, double cost)
{
    m_used = std::max<qint64>(used, 0);
    m_limit = std::max<qint64>(limit, 0);
    m_cost = std::max(cost, 0.0);
    setToolTip(m_limit > 0 ? tr("Context: %1 of %2 tokens (%3%)\nSession cost: $%4")
                                 .arg(QLocale().toString(m_used), QLocale().toString(m_limit))
                                 .arg(qRound(fraction() * 100))
                                 .arg(QLocale().toString(m_cost, 'f', 4))
                           : tr("Context: %1 tokens\nSession cost: $%2")
                                 .arg(QLocale().toString(m_used), QLocale().toString(m_cost, 'f', 4)));
    setAccessibleName(text());
    updateGeometry();
    update();
}

QString ContextMeter::text() const
{
    const QString cost = QStringLiteral("$") + QLocale().toString(m_cost, 'f', 2);
    if (m_limit > 0)
        return tr("%1 / %2 · %3").arg(compact(m_used), compact(m_limit), cost);
    return tr("%1 tokens · %2").arg(compact(m_used), cost);
}

double ContextMeter::fraction() const
{
    return m_limit > 0 ? std::min(1.0, double(m_used) / double(m_limit)) : 0.0;
}

QSize ContextMeter::sizeHint() const
{
    const QFontMetrics metrics = fontMetrics();
    return QSize(BarWidth + Gap + metrics.horizontalAdvance(text()) + 2, std::max(metrics.height(), BarHeight) + 4);
}

QSize ContextMeter::minimumSizeHint() const
{
    return sizeHint();
}

void ContextMeter::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        setUsage(m_used, m_limit, m_cost); // the tooltip and the words, in the new language and locale
}

void ContextMeter::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF bar(0.5, (height() - BarHeight) / 2.0, BarWidth, BarHeight);
    QPainterPath track;
    track.addRoundedRect(bar, BarHeight / 2.0, BarHeight / 2.0);
    QColor trackColour = palette().color(QPalette::WindowText);
    trackColour.setAlphaF(0.18);
    painter.fillPath(track, trackColour);
    if (m_limit > 0 && m_used > 0) {
        const double f = fraction();
        const QColor fill = f > 0.9 ? QColor(0xd9, 0x3f, 0x3f) : f > 0.7 ? QColor(0xe0, 0x8a, 0x00)
                                                                          : palette().color(QPalette::Highlight);
        QPainterPath used;
        used.addRoundedRect(QRectF(bar.left(), bar.top(), std::max(BarHeight * 1.0, bar.width() * f), bar.height()),
                            BarHeight / 2.0, BarHeight / 2.0);
        painter.fillPath(used, fill);
    }
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(BarWidth + Gap, 0, width() - BarWidth - Gap, height()), Qt::AlignVCenter | Qt::AlignLeft,
                     text());
}

} // namespace qcode
