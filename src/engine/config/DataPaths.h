#pragma once

#include <QString>

namespace qcode::DataPaths {

// Where qcode keeps its database and saved tool output. QCODE_DATA_DIR
// overrides the platform's application-data folder (tests and portable use).
QString dataDirectory();
QString databaseFile();

} // namespace qcode::DataPaths
