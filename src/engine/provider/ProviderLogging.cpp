#include "ProviderLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcSse, "qcode.provider.sse", QtInfoMsg)
Q_LOGGING_CATEGORY(lcProviderStream, "qcode.provider.stream", QtInfoMsg)

} // namespace qcode
