#include "ToolStatus.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// The engine's words for a call it did not finish (SessionProcessor):
// English by design, since the model reads them too.
const QString AbortedText = u"Tool execution aborted"_s;
const QString RejectedPrefix = u"The user rejected permission to use this specific tool call"_s;

QString minutesAndSeconds(qint64 seconds)
{
    if (seconds < 3600)
        return ToolStatus::tr("%1m %2s").arg(seconds / 60).arg(seconds % 60);
    return ToolStatus::tr("%1h %2m").arg(seconds / 3600).arg(seconds % 3600 / 60);
}

} // namespace

ToolStatus ToolStatus::waiting()
{
    return {Kind::Waiting, tr("Waiting for you")};
}

ToolStatus ToolStatus::of(const ToolState &state, qint64 now, qint64 waitedMs)
{
    waitedMs = std::max<qint64>(waitedMs, 0);
    if (std::holds_alternative<ToolPending>(state))
        return {Kind::Pending, tr("Pending")};
    if (const auto *running = std::get_if<ToolRunning>(&state)) {
        if (running->start <= 0)
            return {Kind::Running, tr("Running")};
        return {Kind::Running, tr("Running %1").arg(elapsed(std::max<qint64>(now - running->start - waitedMs, 0)))};
    }
    if (const auto *done = std::get_if<ToolCompleted>(&state)) {
        if (done->start <= 0 || done->end < done->start)
            return {Kind::Done, tr("Done")};
        return {Kind::Done, tr("Done in %1").arg(duration(std::max<qint64>(done->end - done->start - waitedMs, 0)))};
    }
    const auto &error = std::get<ToolError>(state);
    if (isAborted(error.error))
        return {Kind::Stopped, tr("Stopped")};
    if (isRejected(error.error))
        return {Kind::Rejected, tr("Rejected")};
    return {Kind::Failed, tr("Failed")};
}

QString ToolStatus::duration(qint64 milliseconds)
{
    if (milliseconds < 1000)
        return tr("%1 ms").arg(std::max<qint64>(milliseconds, 0));
    if (milliseconds < 10000)
        return tr("%1s").arg(QLocale().toString(double(milliseconds) / 1000.0, 'f', 1));
    return elapsed(milliseconds);
}

QString ToolStatus::elapsed(qint64 milliseconds)
{
    const qint64 seconds = milliseconds / 1000;
    if (seconds < 60)
        return tr("%1s").arg(seconds);
    return minutesAndSeconds(seconds);
}

bool ToolStatus::isAborted(const QString &error)
{
    return error.trimmed() == AbortedText;
}

bool ToolStatus::isRejected(const QString &error)
{
    return error.startsWith(RejectedPrefix);
}

} // namespace qcode
