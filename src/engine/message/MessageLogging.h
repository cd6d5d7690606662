#pragma once

#include <QLoggingCategory>

namespace qcode {

// Files read for a prompt or the read tool, and user messages built.
Q_DECLARE_LOGGING_CATEGORY(lcMessage)

} // namespace qcode
