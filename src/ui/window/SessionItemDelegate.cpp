#include "SessionItemDelegate.h"

#include <QPainter>

#include "model/SessionTreeModel.h"

namespace qcode {
namespace {

constexpr int MarkDiameter = 8;
constexpr int MarkMargin = 8;

} // namespace

void SessionItemDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const bool waiting = index.data(SessionTreeModel::WaitingRole).toBool();
    const bool busy = index.data(SessionTreeModel::BusyRole).toBool();
    QStyleOptionViewItem item = option;
    if (waiting || busy)
        item.rect.setRight(item.rect.right() - MarkDiameter - 2 * MarkMargin);
    QStyledItemDelegate::paint(painter, item, index);
    if (!waiting && !busy)
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect mark(option.rect.right() - MarkMargin - MarkDiameter,
                     option.rect.center().y() - MarkDiameter / 2, MarkDiameter, MarkDiameter);
    // Waiting outranks busy: the person has something to do.
    const QColor colour = waiting ? QColor(0xe0, 0x8a, 0x00) : option.palette.color(QPalette::Highlight);
    painter->setPen(Qt::NoPen);
    painter->setBrush(colour);
    if (waiting) {
        painter->drawEllipse(mark);
    } else {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(colour, 2));
        painter->drawEllipse(mark.adjusted(1, 1, -1, -1));
    }
    painter->restore();
}

QSize SessionItemDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setHeight(std::max(size.height(), option.fontMetrics.height() + 10));
    return size;
}

} // namespace qcode
