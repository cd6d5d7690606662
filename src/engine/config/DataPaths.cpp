#include "DataPaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace qcode::DataPaths {

QString dataDirectory()
{
    const QString overridden = qEnvironmentVariable("QCODE_DATA_DIR");
    if (!overridden.isEmpty())
        return QDir::cleanPath(overridden);
    return applicationFolder(QStandardPaths::AppDataLocation);
}

QString applicationFolder(QStandardPaths::StandardLocation location)
{
    const QString path = QStandardPaths::writableLocation(location);
    const QString organization = QCoreApplication::organizationName();
    const QString application = QCoreApplication::applicationName();
    // Qt appends "/<organisation>/<application>" when both are set.
    const QString qualified = u'/' + organization + u'/' + application;
    if (path.isEmpty() || organization.isEmpty() || application.isEmpty() || !path.endsWith(qualified))
        return path;
    return path.left(path.size() - qualified.size()) + u'/' + application;
}

QString databaseFile()
{
    return QDir(dataDirectory()).filePath(u"qcode.db"_s);
}

} // namespace qcode::DataPaths
