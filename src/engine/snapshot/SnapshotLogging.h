#pragma once

#include <QLoggingCategory>

namespace qcode {

// The snapshot store: git commands that failed, files left out, pruning.
Q_DECLARE_LOGGING_CATEGORY(lcSnapshot)

} // namespace qcode
