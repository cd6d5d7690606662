#pragma once

#include <QLoggingCategory>

namespace qcode {

// HTTP exchanges with providers: status lines, timeouts, transport
// failures. Never the request headers or body: they carry API keys.
Q_DECLARE_LOGGING_CATEGORY(lcHttp)

} // namespace qcode
