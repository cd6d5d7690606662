#pragma once

#include <QLoggingCategory>

namespace qcode {

// The tool registry and the tools the model calls.
Q_DECLARE_LOGGING_CATEGORY(lcTool)

} // namespace qcode
