#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QStyle>
#include <QTest>

#include "ui/settings/AppSettings.h"
#include "ui/window/Appearance.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class AppearanceTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void darkThemeAppliesAtOnceWithoutRestart();
    void systemThemeRestoresThePaletteTheAppStartedWith();
    void fontSizeFollowsSettingsAndZeroMeansTheSystemSize();
};

void AppearanceTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-appearance-tests"_s);
    QSettings().clear();
}

void AppearanceTest::darkThemeAppliesAtOnceWithoutRestart()
{
    AppSettings settings;
    Appearance appearance(&settings);
    settings.setTheme(AppSettings::Theme::Dark);
    QCOMPARE(QApplication::palette().color(QPalette::Window), Appearance::darkPalette().color(QPalette::Window));
    QCOMPARE(QApplication::style()->name().toLower(), u"fusion"_s);
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness()
            < QApplication::palette().color(QPalette::WindowText).lightness());
    settings.setTheme(AppSettings::Theme::Light);
    QCOMPARE(QApplication::palette().color(QPalette::Base), Appearance::lightPalette().color(QPalette::Base));
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness()
            > QApplication::palette().color(QPalette::WindowText).lightness());
}

void AppearanceTest::systemThemeRestoresThePaletteTheAppStartedWith()
{
    const QColor startWindow = QApplication::palette().color(QPalette::Window);
    AppSettings settings;
    settings.setTheme(AppSettings::Theme::System);
    Appearance appearance(&settings);
    settings.setTheme(AppSettings::Theme::Dark);
    QVERIFY(QApplication::palette().color(QPalette::Window) != startWindow
            || startWindow == Appearance::darkPalette().color(QPalette::Window));
    settings.setTheme(AppSettings::Theme::System);
    QCOMPARE(QApplication::palette().color(QPalette::Window), startWindow);
}

void AppearanceTest::fontSizeFollowsSettingsAndZeroMeansTheSystemSize()
{
    const int systemSize = QApplication::font().pointSize();
    AppSettings settings;
    settings.setFontPointSize(0);
    Appearance appearance(&settings);
    settings.setFontPointSize(systemSize + 5);
    QCOMPARE(QApplication::font().pointSize(), systemSize + 5);
    settings.setFontPointSize(0);
    QCOMPARE(QApplication::font().pointSize(), systemSize);
}

QTEST_MAIN(AppearanceTest)
#include "tst_appearance.moc"
