#pragma once

#include <QLoggingCategory>

namespace qcode {

// Highlighting backends: which one was chosen, languages that failed to load.
Q_DECLARE_LOGGING_CATEGORY(lcHighlight)

} // namespace qcode
