#include "MessageLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcMessage, "qcode.message", QtInfoMsg)

} // namespace qcode
