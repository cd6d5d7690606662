#pragma once

#include <QLoggingCategory>

namespace qcode {

// Framing problems (oversized events, stray lines) in provider streams.
Q_DECLARE_LOGGING_CATEGORY(lcSse)
// Payloads a stream decoder had to skip or could not understand.
Q_DECLARE_LOGGING_CATEGORY(lcProviderStream)

} // namespace qcode
