#include "SettingsMigration.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QSettings>

#include "SettingsLogging.h"

using namespace Qt::StringLiterals;

namespace qcode::SettingsMigration {

int moveFromUnknownOrganization()
{
    const QString organization = QCoreApplication::organizationName();
    if (organization.isEmpty())
        return 0; // nowhere else to move them
    QSettings old(QSettings::NativeFormat, QSettings::UserScope, u"Unknown Organization"_s,
                  QCoreApplication::applicationName());
    const QStringList keys = old.allKeys();
    if (keys.isEmpty())
        return 0;
    QSettings current;
    int moved = 0;
    for (const QString &key : keys) {
        // What the person set since the move wins over the old value.
        if (current.contains(key))
            continue;
        current.setValue(key, old.value(key));
        ++moved;
    }
    current.sync();
    if (current.status() != QSettings::NoError) {
        qCWarning(lcSettings) << "settings not moved from \"Unknown Organization\": the new file cannot be written";
        return 0;
    }
    old.clear();
    old.sync();
    qCInfo(lcSettings) << "moved" << moved << "settings from \"Unknown Organization\" to" << organization;
    return moved;
}

} // namespace qcode::SettingsMigration
