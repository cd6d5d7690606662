#include "CatalogueLogging.h"

namespace qcode {

Q_LOGGING_CATEGORY(lcCatalogue, "qcode.catalogue", QtInfoMsg)

} // namespace qcode
