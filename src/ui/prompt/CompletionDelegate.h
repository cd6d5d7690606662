#pragma once

#include <QStyledItemDelegate>

namespace qcode {

// A popup row: the name with the characters the query matched in bold, and
// a dimmed detail ("agent", a command's description) on the right, which
// gives way first when space runs short.
class CompletionDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    enum Role {
        DetailRole = Qt::UserRole + 1,
        MatchedRole, // QList<int>: bold character positions of the display text
    };

    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace qcode
