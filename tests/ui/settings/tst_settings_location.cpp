#include <QDir>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "engine/config/ConfigLocations.h"
#include "engine/config/DataPaths.h"
#include "ui/settings/SettingsMigration.h"

using namespace Qt::StringLiterals;
using namespace qcode;

// Settings are stored under qcode's organisation; naming it moves nothing
// else: the database and qcode.json stay in the folders earlier versions
// used. Every path here is under temporary XDG folders.
class SettingsLocationTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

    QString configHome() const { return m_home.filePath(u"config"_s); }
    QString dataHome() const { return m_home.filePath(u"data"_s); }

    static QSettings unknownOrganization()
    {
        return QSettings(QSettings::NativeFormat, QSettings::UserScope, u"Unknown Organization"_s, u"qcode"_s);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(configHome()));
        qputenv("XDG_DATA_HOME", QFile::encodeName(dataHome()));
        qunsetenv("QCODE_DATA_DIR");
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, configHome());
        QCoreApplication::setApplicationName(u"qcode"_s);
        QCoreApplication::setOrganizationName(u"qcode"_s);
    }

    void init()
    {
        QSettings().clear();
        unknownOrganization().clear();
    }

    void settingsOfEarlierVersionsMoveOnceToTheApplicationsOwnPlace()
    {
        {
            QSettings old = unknownOrganization();
            old.setValue(u"appearance/theme"_s, u"dark"_s);
            old.setValue(u"projects/recent"_s, QStringList{u"/home/me/project"_s});
        }
        QCOMPARE(SettingsMigration::moveFromUnknownOrganization(), 2);
        QSettings settings;
        QCOMPARE(settings.value(u"appearance/theme"_s).toString(), u"dark"_s);
        QCOMPARE(settings.value(u"projects/recent"_s).toStringList(), QStringList{u"/home/me/project"_s});
        QVERIFY(settings.fileName().startsWith(QDir(configHome()).filePath(u"qcode/"_s)));
        QVERIFY(!settings.fileName().contains(u"Unknown Organization"_s));
        QVERIFY(unknownOrganization().allKeys().isEmpty());
        // Once: a second start finds nothing left to move.
        QCOMPARE(SettingsMigration::moveFromUnknownOrganization(), 0);
        QCOMPARE(QSettings().value(u"appearance/theme"_s).toString(), u"dark"_s);
    }

    void aMoveNeverOverwritesWhatIsAlreadyStored()
    {
        QSettings().setValue(u"appearance/theme"_s, u"light"_s);
        unknownOrganization().setValue(u"appearance/theme"_s, u"dark"_s);
        unknownOrganization().setValue(u"window/geometry"_s, QByteArray("geometry"));
        QCOMPARE(SettingsMigration::moveFromUnknownOrganization(), 1);
        QCOMPARE(QSettings().value(u"appearance/theme"_s).toString(), u"light"_s);
        QCOMPARE(QSettings().value(u"window/geometry"_s).toByteArray(), QByteArray("geometry"));
    }

    void theDatabaseStaysInTheDataFolderItWasIn()
    {
        QCOMPARE(DataPaths::dataDirectory(), QDir(dataHome()).filePath(u"qcode"_s));
        QCOMPARE(DataPaths::databaseFile(), QDir(dataHome()).filePath(u"qcode/qcode.db"_s));
    }

    void qcodeJsonStaysInTheConfigFolderItWasIn()
    {
        const ConfigLocations locations = ConfigLocations::forSystem(m_home.path(), {});
        QCOMPARE(locations.globalDirectories.constLast(), QDir(configHome()).filePath(u"qcode"_s));
    }
};

QTEST_GUILESS_MAIN(SettingsLocationTest)
#include "tst_settings_location.moc"
