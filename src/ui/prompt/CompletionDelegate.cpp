#include "CompletionDelegate.h"

#include <QApplication>
#include <QPainter>
#include <QTextLayout>

namespace qcode {

void CompletionDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    const QString text = opt.text;
    opt.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const bool selected = opt.state.testFlag(QStyle::State_Selected);
    const QPalette::ColorGroup group = opt.state.testFlag(QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    const QColor textColor = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    QColor detailColor = textColor;
    detailColor.setAlphaF(0.65f);

    QRect area = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    const int spacing = opt.fontMetrics.horizontalAdvance(QLatin1Char(' ')) * 2;
    const QString detail = index.data(DetailRole).toString();
    painter->save();
    painter->setClipRect(area);

    QTextLayout layout(text, opt.font);
    QList<QTextLayout::FormatRange> formats;
    QTextCharFormat bold;
    bold.setFontWeight(QFont::Bold);
    for (const QVariant &position : index.data(MatchedRole).toList())
        formats.append(QTextLayout::FormatRange{position.toInt(), 1, bold});
    layout.setFormats(formats);
    QTextOption noWrap;
    noWrap.setWrapMode(QTextOption::NoWrap);
    layout.setTextOption(noWrap);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    layout.endLayout();
    // A path too long for the row shows its end: the file's own name is
    // what tells two rows apart.
    const qreal overflow = std::max<qreal>(0, line.naturalTextWidth() - area.width());
    const qreal textWidth = std::min<qreal>(line.naturalTextWidth(), area.width());
    painter->setPen(textColor);
    layout.draw(painter, QPointF(area.left() - overflow, area.top() + (area.height() - line.height()) / 2));

    const int detailRoom = area.width() - int(textWidth) - spacing;
    if (!detail.isEmpty() && detailRoom > opt.fontMetrics.averageCharWidth() * 4) {
        painter->setPen(detailColor);
        const QString elided = opt.fontMetrics.elidedText(detail, Qt::ElideRight, detailRoom);
        painter->drawText(area.adjusted(int(textWidth) + spacing, 0, 0, 0), Qt::AlignRight | Qt::AlignVCenter,
                          elided);
    }
    painter->restore();
}

QSize CompletionDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setHeight(std::max(size.height(), option.fontMetrics.height() * 3 / 2));
    return size;
}

} // namespace qcode
