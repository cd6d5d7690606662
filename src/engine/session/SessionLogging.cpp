#include "SessionLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcProcessor, "qcode.session.processor", QtInfoMsg)
Q_LOGGING_CATEGORY(lcSession, "qcode.session", QtInfoMsg)

} // namespace qcode
