#include "ConfigLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcConfig, "qcode.config", QtInfoMsg)
Q_LOGGING_CATEGORY(lcProviders, "qcode.config.providers", QtInfoMsg)
Q_LOGGING_CATEGORY(lcLocalServers, "qcode.config.localservers", QtInfoMsg)

} // namespace qcode
