#include "ChatColors.h"

namespace qcode::ChatColors {

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor error(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xff, 0x7b, 0x72) : QColor(0xb3, 0x26, 0x1e);
}

QColor errorBackground(const QPalette &palette)
{
    const QColor tint = error(palette);
    const QColor base = palette.color(QPalette::Base);
    const auto mix = [](int a, int b) { return (a * 15 + b * 85) / 100; };
    return QColor(mix(tint.red(), base.red()), mix(tint.green(), base.green()), mix(tint.blue(), base.blue()));
}

QColor muted(const QPalette &palette)
{
    QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    // Halfway to the background: quiet, but still well above contrast
    // for secondary text on both themes.
    return QColor((text.red() * 3 + base.red() * 2) / 5, (text.green() * 3 + base.green() * 2) / 5,
                  (text.blue() * 3 + base.blue() * 2) / 5);
}

QColor bubble(const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    return isDark(palette) ? base.lighter(135) : base.darker(106);
}

} // namespace qcode::ChatColors
