#include "RequestLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcProviderRequest, "qcode.provider.request", QtInfoMsg)

} // namespace qcode
