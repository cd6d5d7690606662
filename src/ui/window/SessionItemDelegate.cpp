#include "SessionItemDelegate.h"

#include <QApplication>
#include <QDateTime>
#include <QPainter>

#include "model/SessionTreeModel.h"
#include "ui/chat/ChatColors.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

constexpr int MarkDiameter = 8;
constexpr int MarkMargin = 8;
constexpr int TimeMargin = 6;

qint64 createdOf(const QModelIndex &index)
{
    return index.data(SessionTreeModel::CreatedRole).toLongLong();
}

} // namespace

SessionItemDelegate::SessionItemDelegate(QObject *parent) : QStyledItemDelegate(parent)
{
    m_clock = [] { return QDateTime::currentMSecsSinceEpoch(); };
}

std::optional<RelativeTime::Group> SessionItemDelegate::groupStartingAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.parent().isValid())
        return std::nullopt; // subagent sessions sit under their parent
    const qint64 now = m_clock();
    const RelativeTime::Group group = RelativeTime::group(createdOf(index), now);
    if (index.row() == 0)
        return group;
    const QModelIndex previous = index.sibling(index.row() - 1, 0);
    if (RelativeTime::group(createdOf(previous), now) == group)
        return std::nullopt;
    return group;
}

QString SessionItemDelegate::titleText(const QModelIndex &index) const
{
    const QString title = index.data(Qt::DisplayRole).toString();
    const QAbstractItemModel *model = index.model();
    for (int row = 0; model && row < model->rowCount(index.parent()); ++row) {
        if (row != index.row() && model->index(row, 0, index.parent()).data(Qt::DisplayRole).toString() == title)
            return tr("%1 · %2", "a session's title and the time it began").arg(title, RelativeTime::exact(createdOf(index), m_clock()));
    }
    return title;
}

QString SessionItemDelegate::timeText(const QModelIndex &index) const
{
    return RelativeTime::describe(createdOf(index), m_clock());
}

int SessionItemDelegate::headingHeight(const QStyleOptionViewItem &option) const
{
    return option.fontMetrics.height() + 10;
}

void SessionItemDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    const QColor muted = ChatColors::muted(option.palette);
    if (const std::optional<RelativeTime::Group> group = groupStartingAt(index)) {
        const int height = headingHeight(option);
        QRect heading = option.rect;
        heading.setHeight(height);
        painter->save();
        QFont font = option.font;
        font.setBold(true);
        font.setPointSizeF(font.pointSizeF() * 0.85);
        painter->setFont(font);
        painter->setPen(muted);
        painter->drawText(heading.adjusted(4, 4, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                          RelativeTime::groupTitle(*group));
        painter->restore();
        item.rect.setTop(item.rect.top() + height);
    }

    const bool waiting = index.data(SessionTreeModel::WaitingRole).toBool();
    const bool busy = index.data(SessionTreeModel::BusyRole).toBool();
    const QString time = timeText(index);
    const int timeWidth = option.fontMetrics.horizontalAdvance(time) + TimeMargin;
    const int markWidth = (waiting || busy) ? MarkDiameter + 2 * MarkMargin : TimeMargin;
    const QRect full = item.rect;
    item.rect.setRight(item.rect.right() - markWidth - timeWidth);
    item.text = titleText(index);
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    // The selection reaches under the time too.
    QStyleOptionViewItem background = item;
    background.rect = full;
    background.text.clear();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &background, painter, widget);
    style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);

    painter->save();
    const bool selected = option.state.testFlag(QStyle::State_Selected);
    painter->setPen(selected ? option.palette.color(QPalette::HighlightedText) : muted);
    const QRect timeRect(item.rect.right() + TimeMargin, full.top(), timeWidth - TimeMargin, full.height());
    painter->drawText(timeRect, Qt::AlignRight | Qt::AlignVCenter, time);
    painter->restore();
    if (!waiting && !busy)
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect mark(full.right() - MarkMargin - MarkDiameter, full.center().y() - MarkDiameter / 2, MarkDiameter,
                     MarkDiameter);
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
    if (groupStartingAt(index))
        size.rheight() += headingHeight(option);
    return size;
}

} // namespace qcode
