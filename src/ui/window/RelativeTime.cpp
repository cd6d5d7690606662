#include "RelativeTime.h"

#include <QDateTime>
#include <QLocale>

namespace qcode {

namespace {

qint64 daysBetween(qint64 thenMs, qint64 nowMs)
{
    return QDateTime::fromMSecsSinceEpoch(thenMs).date().daysTo(QDateTime::fromMSecsSinceEpoch(nowMs).date());
}

} // namespace

QString RelativeTime::describe(qint64 thenMs, qint64 nowMs)
{
    const qint64 seconds = std::max<qint64>(0, (nowMs - thenMs) / 1000);
    const qint64 days = daysBetween(thenMs, nowMs);
    if (seconds < 60)
        return tr("just now");
    if (seconds < 3600)
        return tr("%n min ago", nullptr, int(seconds / 60));
    if (days <= 0)
        return tr("%n h ago", nullptr, int(seconds / 3600));
    if (days == 1)
        return tr("yesterday");
    if (days < 7)
        return tr("%n days ago", nullptr, int(days));
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(thenMs).date(), QLocale::ShortFormat);
}

RelativeTime::Group RelativeTime::group(qint64 thenMs, qint64 nowMs)
{
    const qint64 days = daysBetween(thenMs, nowMs);
    return days <= 0 ? Group::Today : days == 1 ? Group::Yesterday : Group::Earlier;
}

QString RelativeTime::groupTitle(Group group)
{
    switch (group) {
    case Group::Today:
        return tr("Today");
    case Group::Yesterday:
        return tr("Yesterday");
    case Group::Earlier:
        break;
    }
    return tr("Earlier");
}

QString RelativeTime::exact(qint64 thenMs, qint64 nowMs)
{
    const QDateTime then = QDateTime::fromMSecsSinceEpoch(thenMs);
    if (daysBetween(thenMs, nowMs) <= 0)
        return QLocale().toString(then.time(), QLocale::ShortFormat);
    return QLocale().toString(then, QLocale::ShortFormat);
}

} // namespace qcode
