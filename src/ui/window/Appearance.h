#pragma once

#include <QFont>
#include <QObject>
#include <QPalette>

namespace qcode {

class AppSettings;

// Applies the person's theme and font size to the whole application, at
// start and whenever they change them in Settings — no restart. "System"
// is the platform's own style and palette as the app started with them;
// Light and Dark are Fusion with a palette of qcode's, the same on every
// platform.
class Appearance : public QObject
{
    Q_OBJECT

public:
    explicit Appearance(AppSettings *settings, QObject *parent = nullptr);

    void apply();
    static QPalette lightPalette();
    static QPalette darkPalette();

private:
    AppSettings *m_settings;
    QString m_systemStyle;
    QPalette m_systemPalette;
    QFont m_systemFont;
};

} // namespace qcode
