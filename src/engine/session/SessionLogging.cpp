#include "SessionLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcProcessor, "qcode.session.processor", QtInfoMsg)

} // namespace qcode
