#include "AgentLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcAgents, "qcode.agents", QtInfoMsg)
Q_LOGGING_CATEGORY(lcInstructions, "qcode.instructions", QtInfoMsg)

} // namespace qcode
