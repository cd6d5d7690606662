#include "DataPaths.h"

#include <QDir>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace qcode::DataPaths {

QString dataDirectory()
{
    const QString overridden = qEnvironmentVariable("QCODE_DATA_DIR");
    if (!overridden.isEmpty())
        return QDir::cleanPath(overridden);
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

QString databaseFile()
{
    return QDir(dataDirectory()).filePath(u"qcode.db"_s);
}

} // namespace qcode::DataPaths
