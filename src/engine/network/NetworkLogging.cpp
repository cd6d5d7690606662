#include "NetworkLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcHttp, "qcode.network.http", QtInfoMsg)

} // namespace qcode
