#include "PermissionLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcPermissionUi, "qcode.ui.permission", QtInfoMsg)

} // namespace qcode
