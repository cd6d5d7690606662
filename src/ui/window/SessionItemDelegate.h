#pragma once

#include <QStyledItemDelegate>

namespace qcode {

// A session in the sidebar: its title, and on the right a mark for a
// running session and a stronger one for a session that waits for the
// person (a permission or a question).
class SessionItemDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace qcode
