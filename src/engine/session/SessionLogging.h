#pragma once

#include <QLoggingCategory>

namespace qcode {

// The stream processor and the part writer: retries, aborts, doom loops,
// database writes that failed while a part streamed.
Q_DECLARE_LOGGING_CATEGORY(lcProcessor)
// The prompt loop and the engine: steps, compaction, queued prompts.
Q_DECLARE_LOGGING_CATEGORY(lcSession)

} // namespace qcode
