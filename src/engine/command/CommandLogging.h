#pragma once

#include <QLoggingCategory>

namespace qcode {

// Slash commands loaded, rejected and run (their !`cmd` segments included).
Q_DECLARE_LOGGING_CATEGORY(lcCommands)

} // namespace qcode
