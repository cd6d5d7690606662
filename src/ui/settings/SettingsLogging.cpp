#include "SettingsLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcSettings, "qcode.ui.settings")

} // namespace qcode
