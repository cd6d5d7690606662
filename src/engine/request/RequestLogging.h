#pragma once

#include <QLoggingCategory>

namespace qcode {

// What the request builders dropped or adjusted on the way to the wire
// (reasoning another model cannot replay, sampling settings an API
// rejects). Never headers or keys.
Q_DECLARE_LOGGING_CATEGORY(lcProviderRequest)

} // namespace qcode
