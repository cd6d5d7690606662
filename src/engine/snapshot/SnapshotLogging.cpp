#include "SnapshotLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcSnapshot, "qcode.snapshot", QtInfoMsg)

} // namespace qcode
