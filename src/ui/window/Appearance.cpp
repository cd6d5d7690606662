#include "Appearance.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

#include "ui/settings/AppSettings.h"

using namespace Qt::StringLiterals;

namespace qcode {

Appearance::Appearance(AppSettings *settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_systemStyle(QApplication::style()->name())
    , m_systemPalette(QApplication::palette())
    , m_systemFont(QApplication::font())
{
    connect(settings, &AppSettings::themeChanged, this, &Appearance::apply);
    connect(settings, &AppSettings::fontChanged, this, &Appearance::apply);
}

void Appearance::apply()
{
    switch (m_settings->theme()) {
    case AppSettings::Theme::System:
        QApplication::setStyle(QStyleFactory::create(m_systemStyle));
        QApplication::setPalette(m_systemPalette);
        break;
    case AppSettings::Theme::Light:
        QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
        QApplication::setPalette(lightPalette());
        break;
    case AppSettings::Theme::Dark:
        QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
        QApplication::setPalette(darkPalette());
        break;
    }
    QFont font = m_systemFont;
    if (const int points = m_settings->fontPointSize(); points > 0)
        font.setPointSize(points);
    QApplication::setFont(font);
}

QPalette Appearance::lightPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0xf3, 0xf3, 0xf3));
    p.setColor(QPalette::WindowText, QColor(0x1f, 0x1f, 0x1f));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf0, 0xf2, 0xf5));
    p.setColor(QPalette::ToolTipBase, QColor(0xff, 0xf8, 0xdc));
    p.setColor(QPalette::ToolTipText, QColor(0x1f, 0x1f, 0x1f));
    p.setColor(QPalette::Text, QColor(0x1f, 0x1f, 0x1f));
    p.setColor(QPalette::Button, QColor(0xf3, 0xf3, 0xf3));
    p.setColor(QPalette::ButtonText, QColor(0x1f, 0x1f, 0x1f));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xde));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x1a, 0x5f, 0xb4));
    p.setColor(QPalette::PlaceholderText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0xa0, 0xa0, 0xa0));
    return p;
}

QPalette Appearance::darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x25, 0x26, 0x29));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1b, 0x1c, 0x1f));
    p.setColor(QPalette::AlternateBase, QColor(0x2c, 0x2e, 0x33));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x36, 0x2a));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x30, 0x32, 0x36));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xe8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7a, 0xb4, 0xff));
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8a, 0x8a));
    p.setColor(QPalette::Mid, QColor(0x44, 0x46, 0x4b));
    p.setColor(QPalette::Dark, QColor(0x16, 0x17, 0x19));
    p.setColor(QPalette::Light, QColor(0x3c, 0x3e, 0x43));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x75, 0x75, 0x75));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x75, 0x75, 0x75));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x75, 0x75, 0x75));
    return p;
}

} // namespace qcode
