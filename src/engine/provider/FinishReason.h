#pragma once

#include <QString>

namespace qcode {

// Why a step ended, normalized across protocols (wire formats §2). The raw
// provider value travels next to it for logs and replay.
enum class FinishReason {
    Stop,
    Length,
    ToolCalls,
    ContentFilter,
    Error,
    Other,
    Unknown,
};

// OpenCode's spelling ("tool-calls", "content-filter" …), as stored in
// message and step-finish records.
QString finishReasonName(FinishReason reason);

} // namespace qcode
