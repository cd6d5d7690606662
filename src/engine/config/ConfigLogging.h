#pragma once

#include <QLoggingCategory>

namespace qcode {

// Config files found, merged and rejected.
Q_DECLARE_LOGGING_CATEGORY(lcConfig)
// Provider resolution and key sources (never the keys themselves).
Q_DECLARE_LOGGING_CATEGORY(lcProviders)
// Local model servers probed on this machine.
Q_DECLARE_LOGGING_CATEGORY(lcLocalServers)

} // namespace qcode
