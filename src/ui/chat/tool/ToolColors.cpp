#include "ToolColors.h"

namespace qcode {

namespace {

// GitHub's diff hues; on a dark base the lighter variants keep their
// contrast with the light text drawn over them.
QColor green(bool dark) { return dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x2d, 0xa4, 0x4e); }
QColor red(bool dark) { return dark ? QColor(0xf8, 0x51, 0x49) : QColor(0xcf, 0x22, 0x2e); }

// The base colour with some of a hue: more of it on a dark base, where a
// faint tint would not show.
QColor tint(const QPalette &palette, QColor (*hue)(bool), qreal onDark, qreal onLight)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return ToolColors::mix(palette.color(QPalette::Base), hue(dark), dark ? onDark : onLight);
}

} // namespace

bool ToolColors::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor ToolColors::mix(const QColor &a, const QColor &b, qreal amount)
{
    const qreal keep = 1.0 - amount;
    return QColor::fromRgbF(float(a.redF() * keep + b.redF() * amount), float(a.greenF() * keep + b.greenF() * amount),
                            float(a.blueF() * keep + b.blueF() * amount));
}

QColor ToolColors::error(const QPalette &palette)
{
    // Text-strength red: brighter on dark backgrounds, deeper on light ones.
    return isDark(palette) ? QColor(0xff, 0x7b, 0x72) : QColor(0xc0, 0x1c, 0x28);
}

QColor ToolColors::muted(const QPalette &palette)
{
    return mix(palette.color(QPalette::WindowText), palette.color(QPalette::Window), 0.4);
}

QColor ToolColors::border(const QPalette &palette)
{
    return mix(palette.color(QPalette::Window), palette.color(QPalette::WindowText), 0.18);
}

QColor ToolColors::cardBackground(const QPalette &palette)
{
    return mix(palette.color(QPalette::Window), palette.color(QPalette::Base), 0.5);
}

QColor ToolColors::hover(const QPalette &palette)
{
    return mix(cardBackground(palette), palette.color(QPalette::Highlight), 0.08);
}

QColor ToolColors::addedText(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x56, 0xd3, 0x64) : QColor(0x1a, 0x7f, 0x37);
}

QColor ToolColors::addedBackground(const QPalette &palette)
{
    return tint(palette, green, 0.22, 0.16);
}

QColor ToolColors::addedEmphasis(const QPalette &palette)
{
    return tint(palette, green, 0.45, 0.38);
}

QColor ToolColors::removedBackground(const QPalette &palette)
{
    return tint(palette, red, 0.22, 0.14);
}

QColor ToolColors::removedEmphasis(const QPalette &palette)
{
    return tint(palette, red, 0.45, 0.34);
}

QColor ToolColors::headerBackground(const QPalette &palette)
{
    return mix(palette.color(QPalette::Base), palette.color(QPalette::Highlight), 0.12);
}

QColor ToolColors::fillerBackground(const QPalette &palette)
{
    return mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.05);
}

QColor ToolColors::waiting(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xf0, 0xa0, 0x30) : QColor(0xb0, 0x60, 0x00);
}

} // namespace qcode
