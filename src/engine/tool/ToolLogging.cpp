#include "ToolLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcTool, "qcode.tool", QtInfoMsg)

} // namespace qcode
