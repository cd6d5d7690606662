#include "CommandLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcCommands, "qcode.command", QtInfoMsg)

} // namespace qcode
