#pragma once

#include <QObject>
#include <QString>

namespace qcode {

// Settings that belong to this app rather than to OpenCode's config, kept
// in QSettings. Setters store at once and signal only a real change; the
// window applies theme, font and language when they change (Appearance,
// LanguageSwitcher), the data folder at the next start.
class AppSettings : public QObject
{
    Q_OBJECT

public:
    explicit AppSettings(QObject *parent = nullptr);

    enum class Theme { System, Light, Dark };

    Theme theme() const;
    void setTheme(Theme theme);
    // 0: the system's default size.
    int fontPointSize() const;
    void setFontPointSize(int points);
    // "": follow the system; else a translation's locale name ("zh_CN", "de").
    QString language() const;
    void setLanguage(const QString &language);
    // "": the default (DataPaths); used from the next start.
    QString dataDirectory() const;
    void setDataDirectory(const QString &directory);
    bool notificationsEnabled() const;
    void setNotificationsEnabled(bool enabled);
    // "": the environment's proxy variables, then the system's settings;
    // else a proxy address for every request (NetworkSetup). From the next start.
    QString proxy() const;
    void setProxy(const QString &proxy);
    // A PEM file of extra certificate authorities, or "". From the next start.
    QString certificateFile() const;
    void setCertificateFile(const QString &file);

    static constexpr int MinimumFontPointSize = 6;
    static constexpr int MaximumFontPointSize = 32;

Q_SIGNALS:
    void themeChanged();
    void fontChanged();
    void languageChanged();
    void dataDirectoryChanged();
    void notificationsChanged();
    void networkChanged();
};

} // namespace qcode
