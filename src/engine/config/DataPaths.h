#pragma once

#include <QStandardPaths>
#include <QString>

namespace qcode::DataPaths {

// Where qcode keeps its database and saved tool output. QCODE_DATA_DIR
// overrides the platform's application-data folder (tests and portable use).
QString dataDirectory();
QString databaseFile();

// The platform's folder for `location` (AppDataLocation, AppConfigLocation)
// as it was before qcode named its organisation: "<base>/qcode", not
// "<base>/<organisation>/qcode", so the database and qcode.json stay where
// earlier versions put them.
QString applicationFolder(QStandardPaths::StandardLocation location);

} // namespace qcode::DataPaths
