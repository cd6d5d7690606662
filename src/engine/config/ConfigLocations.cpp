#include "ConfigLocations.h"
#include "DataPaths.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace qcode {

ConfigLocations ConfigLocations::forSystem(const QString &projectDirectory, const QString &worktreeRoot)
{
    ConfigLocations locations;
    locations.environment = QProcessEnvironment::systemEnvironment();
    locations.homeDirectory = QDir::homePath();
    // OpenCode uses the XDG layout on every platform (xdg-basedir), so an
    // existing OpenCode setup on macOS or Windows is found there too.
    QString xdgConfig = locations.environment.value(u"XDG_CONFIG_HOME"_s);
    if (xdgConfig.isEmpty())
        xdgConfig = QDir(locations.homeDirectory).filePath(u".config"_s);
    locations.globalDirectories.append(QDir(xdgConfig).filePath(u"opencode"_s));
    const QString own = DataPaths::applicationFolder(QStandardPaths::AppConfigLocation);
    if (!own.isEmpty() && !locations.globalDirectories.contains(own))
        locations.globalDirectories.append(own);
    locations.projectDirectory = projectDirectory;
    locations.worktreeRoot = worktreeRoot;
    return locations;
}

QStringList ConfigLocations::projectChain() const
{
    if (projectDirectory.isEmpty())
        return {};
    const QString project = QDir::cleanPath(QFileInfo(projectDirectory).absoluteFilePath());
    const QString root = worktreeRoot.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(worktreeRoot).absoluteFilePath());
    QStringList chain{project};
    if (root.isEmpty() || root == project || !project.startsWith(root + QLatin1Char('/')))
        return chain;
    QDir dir(project);
    while (dir.cdUp()) {
        chain.prepend(dir.absolutePath());
        if (dir.absolutePath() == root)
            break;
    }
    return chain;
}

} // namespace qcode
