#pragma once

#include <QColor>
#include <QPalette>

namespace qcode::ChatColors {

// Colours the chat needs beyond the palette's roles, chosen to stay
// readable on the palette's base in light and dark themes alike.
bool isDark(const QPalette &palette);
QColor error(const QPalette &palette);
// Behind an error: the error colour, faint over the base.
QColor errorBackground(const QPalette &palette);
QColor muted(const QPalette &palette);
QColor bubble(const QPalette &palette);

} // namespace qcode::ChatColors
