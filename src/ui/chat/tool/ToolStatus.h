#pragma once

#include <QCoreApplication>
#include <QString>

#include "model/Part.h"

namespace qcode {

// Where a tool call stands, in the words its card shows: "Pending",
// "Running 3s", "Done in 1.2s", "Failed", "Stopped" for a call the
// person aborted rather than one that went wrong, and "Waiting for you"
// while the call's permission or question waits for the person.
struct ToolStatus {
    Q_DECLARE_TR_FUNCTIONS(ToolStatus)

public:
    enum class Kind { Pending, Running, Done, Failed, Rejected, Stopped, Waiting };
    Kind kind = Kind::Pending;
    QString text;

    // waitedMs: how long the call waited for the person, left out of its
    // time (the time is the tool's, not the person's).
    static ToolStatus of(const ToolState &state, qint64 now, qint64 waitedMs = 0);
    static ToolStatus waiting();
    // "350 ms", "1.2s", "12s", "2m 5s", "1h 4m".
    static QString duration(qint64 milliseconds);
    // Whole seconds only, for a clock that ticks: "3s", "2m 5s".
    static QString elapsed(qint64 milliseconds);

    static bool isAborted(const QString &error);
    static bool isRejected(const QString &error);
};

} // namespace qcode
