#pragma once

#include <QCoreApplication>
#include <QString>

namespace qcode {

// Times as the session list says them: "just now", "2 min ago", "3 h ago",
// "yesterday", "4 days ago", then the date; and the group a time falls in.
class RelativeTime
{
    Q_DECLARE_TR_FUNCTIONS(RelativeTime)

public:
    enum class Group { Today, Yesterday, Earlier };

    // Both in ms since the epoch, compared in local time.
    static QString describe(qint64 thenMs, qint64 nowMs);
    static Group group(qint64 thenMs, qint64 nowMs);
    static QString groupTitle(Group group);
    // The clock time (today) or the date with the time, for telling apart
    // two sessions with the same title.
    static QString exact(qint64 thenMs, qint64 nowMs);
};

} // namespace qcode
