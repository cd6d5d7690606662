#include "AppSettings.h"

#include <QDir>
#include <QSettings>
#include <QVariant>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QString ThemeKey = u"appearance/theme"_s;
const QString FontKey = u"appearance/fontPointSize"_s;
const QString LanguageKey = u"general/language"_s;
const QString DataKey = u"data/directory"_s;
const QString NotificationsKey = u"general/notifications"_s;
const QString ProxyKey = u"network/proxy"_s;
const QString CertificatesKey = u"network/certificateFile"_s;

QString themeName(AppSettings::Theme theme)
{
    switch (theme) {
    case AppSettings::Theme::Light:
        return u"light"_s;
    case AppSettings::Theme::Dark:
        return u"dark"_s;
    case AppSettings::Theme::System:
        break;
    }
    return u"system"_s;
}

// Stores `value` under `key`; true when that changed what was stored.
bool store(const QString &key, const QVariant &value, const QVariant &current)
{
    if (value == current)
        return false;
    QSettings().setValue(key, value);
    return true;
}

} // namespace

AppSettings::AppSettings(QObject *parent) : QObject(parent) {}

AppSettings::Theme AppSettings::theme() const
{
    const QString name = QSettings().value(ThemeKey).toString();
    if (name == "light"_L1)
        return Theme::Light;
    if (name == "dark"_L1)
        return Theme::Dark;
    return Theme::System;
}

void AppSettings::setTheme(Theme theme)
{
    if (store(ThemeKey, themeName(theme), themeName(this->theme())))
        Q_EMIT themeChanged();
}

int AppSettings::fontPointSize() const
{
    const int points = QSettings().value(FontKey, 0).toInt();
    return points >= MinimumFontPointSize && points <= MaximumFontPointSize ? points : 0;
}

void AppSettings::setFontPointSize(int points)
{
    if (points != 0)
        points = std::clamp(points, MinimumFontPointSize, MaximumFontPointSize);
    if (store(FontKey, points, fontPointSize()))
        Q_EMIT fontChanged();
}

QString AppSettings::language() const
{
    return QSettings().value(LanguageKey).toString();
}

void AppSettings::setLanguage(const QString &language)
{
    if (store(LanguageKey, language, this->language()))
        Q_EMIT languageChanged();
}

QString AppSettings::dataDirectory() const
{
    return QSettings().value(DataKey).toString();
}

void AppSettings::setDataDirectory(const QString &directory)
{
    const QString cleaned = directory.isEmpty() ? QString() : QDir::cleanPath(directory);
    if (store(DataKey, cleaned, dataDirectory()))
        Q_EMIT dataDirectoryChanged();
}

bool AppSettings::notificationsEnabled() const
{
    return QSettings().value(NotificationsKey, true).toBool();
}

void AppSettings::setNotificationsEnabled(bool enabled)
{
    if (store(NotificationsKey, enabled, notificationsEnabled()))
        Q_EMIT notificationsChanged();
}

QString AppSettings::proxy() const
{
    return QSettings().value(ProxyKey).toString();
}

void AppSettings::setProxy(const QString &proxy)
{
    if (store(ProxyKey, proxy.trimmed(), this->proxy()))
        Q_EMIT networkChanged();
}

QString AppSettings::certificateFile() const
{
    return QSettings().value(CertificatesKey).toString();
}

void AppSettings::setCertificateFile(const QString &file)
{
    if (store(CertificatesKey, file.trimmed(), certificateFile()))
        Q_EMIT networkChanged();
}

} // namespace qcode
