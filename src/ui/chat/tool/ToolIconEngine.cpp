#include "ToolIconEngine.h"

#include <QGuiApplication>
#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>


#include "ToolColors.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Every icon is drawn on a 16×16 grid, strokes on half units.
constexpr qreal Grid = 16.0;

QPainterPath polygon(std::initializer_list<QPointF> points, bool closed = true)
{
    QPainterPath path;
    bool first = true;
    for (const QPointF &point : points) {
        if (first)
            path.moveTo(point);
        else
            path.lineTo(point);
        first = false;
    }
    if (closed)
        path.closeSubpath();
    return path;
}

void file(QPainter &p)
{
    p.drawPath(polygon({{3.5, 1.5}, {9.5, 1.5}, {12.5, 4.5}, {12.5, 14.5}, {3.5, 14.5}}));
    p.drawPath(polygon({{9.5, 1.5}, {9.5, 4.5}, {12.5, 4.5}}, false));
}

void folder(QPainter &p)
{
    p.drawPath(polygon({{1.5, 3.5}, {6.0, 3.5}, {7.5, 5.0}, {14.5, 5.0}, {14.5, 13.5}, {1.5, 13.5}}));
}

void bash(QPainter &p)
{
    p.drawRoundedRect(QRectF(1.5, 2.5, 13, 11), 2, 2);
    p.drawPath(polygon({{4.5, 6.0}, {7.0, 8.0}, {4.5, 10.0}}, false));
    p.drawLine(QPointF(8.5, 10.5), QPointF(11.5, 10.5));
}

void read(QPainter &p)
{
    file(p);
    for (const qreal y : {7.5, 9.75, 12.0})
        p.drawLine(QPointF(5.5, y), QPointF(10.5, y));
}

void write(QPainter &p)
{
    file(p);
    p.drawLine(QPointF(8.0, 7.5), QPointF(8.0, 12.5));
    p.drawLine(QPointF(5.5, 10.0), QPointF(10.5, 10.0));
}

void edit(QPainter &p)
{
    p.drawPath(polygon({{10.5, 2.5}, {13.5, 5.5}, {5.5, 13.5}, {2.5, 13.5}, {2.5, 10.5}}));
    p.drawLine(QPointF(8.75, 4.25), QPointF(11.75, 7.25));
}

void patch(QPainter &p)
{
    file(p);
    p.drawLine(QPointF(8.0, 5.5), QPointF(8.0, 9.5));
    p.drawLine(QPointF(6.0, 7.5), QPointF(10.0, 7.5));
    p.drawLine(QPointF(6.0, 12.0), QPointF(10.0, 12.0));
}

void glob(QPainter &p)
{
    folder(p);
    const QPointF c(8.0, 9.25);
    p.drawLine(c + QPointF(0, -2.5), c + QPointF(0, 2.5));
    p.drawLine(c + QPointF(-2.2, -1.25), c + QPointF(2.2, 1.25));
    p.drawLine(c + QPointF(-2.2, 1.25), c + QPointF(2.2, -1.25));
}

void grep(QPainter &p)
{
    p.drawEllipse(QPointF(6.5, 6.5), 4.5, 4.5);
    QPen pen = p.pen();
    pen.setWidthF(pen.widthF() * 1.4);
    p.setPen(pen);
    p.drawLine(QPointF(9.9, 9.9), QPointF(14.0, 14.0));
}

void list(QPainter &p)
{
    folder(p);
    p.drawLine(QPointF(4.5, 8.5), QPointF(11.5, 8.5));
    p.drawLine(QPointF(4.5, 11.0), QPointF(9.5, 11.0));
}

void web(QPainter &p)
{
    p.drawEllipse(QPointF(8, 8), 6.5, 6.5);
    p.drawEllipse(QPointF(8, 8), 2.75, 6.5);
    p.drawLine(QPointF(1.5, 8), QPointF(14.5, 8));
}

void task(QPainter &p)
{
    p.drawEllipse(QPointF(4, 3.75), 1.9, 1.9);
    p.drawEllipse(QPointF(4, 12.25), 1.9, 1.9);
    p.drawEllipse(QPointF(12, 8), 1.9, 1.9);
    p.drawLine(QPointF(4, 5.65), QPointF(4, 10.35));
    QPainterPath branch;
    branch.moveTo(4, 5.65);
    branch.cubicTo(4, 8, 6.5, 8, 10.1, 8);
    p.drawPath(branch);
}

void todos(QPainter &p)
{
    p.drawRoundedRect(QRectF(1.5, 2.5, 4.5, 4.5), 1, 1);
    p.drawPath(polygon({{2.6, 4.8}, {3.5, 5.8}, {5.2, 3.6}}, false));
    p.drawRoundedRect(QRectF(1.5, 9.5, 4.5, 4.5), 1, 1);
    p.drawLine(QPointF(8.5, 4.75), QPointF(14.5, 4.75));
    p.drawLine(QPointF(8.5, 11.75), QPointF(14.5, 11.75));
}

void question(QPainter &p)
{
    p.drawEllipse(QPointF(8, 8), 6.5, 6.5);
    QPainterPath mark;
    mark.moveTo(5.9, 6.3);
    mark.cubicTo(5.9, 3.5, 10.2, 3.5, 10.2, 6.1);
    mark.cubicTo(10.2, 7.7, 8.0, 7.8, 8.0, 9.5);
    p.drawPath(mark);
    p.setBrush(p.pen().color());
    p.drawEllipse(QPointF(8.0, 11.7), 0.5, 0.5);
}

void invalid(QPainter &p)
{
    p.drawPath(polygon({{8.0, 1.75}, {14.75, 13.75}, {1.25, 13.75}}));
    p.drawLine(QPointF(8.0, 6.0), QPointF(8.0, 9.25));
    p.setBrush(p.pen().color());
    p.drawEllipse(QPointF(8.0, 11.5), 0.45, 0.45);
}

void generic(QPainter &p)
{
    p.drawPath(polygon({{8.0, 1.5}, {14.0, 4.75}, {14.0, 11.25}, {8.0, 14.5}, {2.0, 11.25}, {2.0, 4.75}}));
    p.drawPath(polygon({{2.0, 4.75}, {8.0, 8.0}, {14.0, 4.75}}, false));
    p.drawLine(QPointF(8.0, 8.0), QPointF(8.0, 14.5));
}

using Drawing = void (*)(QPainter &);

Drawing drawingFor(const QString &name)
{
    static const QHash<QString, Drawing> drawings{
        {u"bash"_s, bash},         {u"read"_s, read},   {u"write"_s, write},       {u"edit"_s, edit},
        {u"apply_patch"_s, patch}, {u"glob"_s, glob},   {u"grep"_s, grep},         {u"list"_s, list},
        {u"webfetch"_s, web},      {u"task"_s, task},   {u"todowrite"_s, todos},   {u"todoread"_s, todos},
        {u"question"_s, question}, {u"invalid"_s, invalid},
    };
    return drawings.value(name, generic);
}

QColor colorFor(const QString &name, QIcon::Mode mode)
{
    const QPalette palette = QGuiApplication::palette();
    if (mode == QIcon::Disabled)
        return palette.color(QPalette::Disabled, QPalette::WindowText);
    if (mode == QIcon::Selected)
        return palette.color(QPalette::HighlightedText);
    if (name == "invalid"_L1)
        return ToolColors::error(palette);
    return ToolColors::mix(palette.color(QPalette::WindowText), palette.color(QPalette::Window), 0.2);
}

} // namespace

ToolIconEngine::ToolIconEngine(QString name)
    : m_name(std::move(name))
{
}

QIcon ToolIconEngine::icon(const QString &name)
{
    return QIcon(new ToolIconEngine(name));
}

void ToolIconEngine::paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state)
{
    Q_UNUSED(state);
    const qreal side = std::min(rect.width(), rect.height());
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->translate(rect.x() + (rect.width() - side) / 2.0, rect.y() + (rect.height() - side) / 2.0);
    painter->scale(side / Grid, side / Grid);
    QPen pen(colorFor(m_name, mode), 1.25, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    drawingFor(m_name)(*painter);
    painter->restore();
}

QPixmap ToolIconEngine::pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state)
{
    return scaledPixmap(size, mode, state, 1.0);
}

QPixmap ToolIconEngine::scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state, qreal scale)
{
    Q_UNUSED(scale); // `size` is in device pixels already
    QPixmap image(size);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    paint(&painter, QRect(QPoint(), size), mode, state);
    return image;
}

QIconEngine *ToolIconEngine::clone() const
{
    return new ToolIconEngine(m_name);
}

QString ToolIconEngine::key() const
{
    return u"qcode-tool"_s;
}

QString ToolIconEngine::iconName()
{
    return m_name;
}

} // namespace qcode
