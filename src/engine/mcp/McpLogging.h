#pragma once

#include <QLoggingCategory>

namespace qcode {

// MCP servers: connects, their stderr, protocol errors.
Q_DECLARE_LOGGING_CATEGORY(lcMcp)

} // namespace qcode
