#include "McpLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcMcp, "qcode.mcp", QtInfoMsg)

} // namespace qcode
