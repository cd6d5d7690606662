#include "HighlightLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcHighlight, "qcode.ui.highlight", QtInfoMsg)

} // namespace qcode
