#pragma once

#include <QLoggingCategory>

namespace qcode {

// The settings window: what it saved where, and what failed (never a key).
Q_DECLARE_LOGGING_CATEGORY(lcSettings)

} // namespace qcode
