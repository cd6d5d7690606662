#pragma once

#include <QStyledItemDelegate>

#include <functional>
#include <optional>

#include "RelativeTime.h"

namespace qcode {

// A session in the sidebar: its title, when it began ("2 min ago") on the
// right, and there too a mark for a running session and a stronger one for
// a session that waits for the person (a permission or a question). The
// first session of a day group (Today, Yesterday, Earlier) carries the
// group's heading above it; two sessions with the same title are told
// apart by their clock time or date.
class SessionItemDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    explicit SessionItemDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The clock (ms since the epoch) the times are measured against; tests pin it.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }
    // What a row shows: its title (with the time that tells it from a
    // namesake), its time, and the heading above it, if any.
    QString titleText(const QModelIndex &index) const;
    QString timeText(const QModelIndex &index) const;
    std::optional<RelativeTime::Group> groupStartingAt(const QModelIndex &index) const;

private:
    int headingHeight(const QStyleOptionViewItem &option) const;

    std::function<qint64()> m_clock;
};

} // namespace qcode
