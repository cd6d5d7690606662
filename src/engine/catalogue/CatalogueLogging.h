#pragma once

#include <QLoggingCategory>

namespace qcode {

// Catalogue entries that were rejected or overridden.
Q_DECLARE_LOGGING_CATEGORY(lcCatalogue)

} // namespace qcode
