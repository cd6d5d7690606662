#pragma once

#include <QColor>
#include <QPalette>

namespace qcode {

// The few colours the tool cards and the diff view need beyond the
// palette's own, derived from it so that they read in light and dark
// themes alike: tints are the palette's base mixed with a hue, never a
// fixed colour painted over whatever the theme chose.
class ToolColors
{
public:
    static bool isDark(const QPalette &palette);
    // `a` moved toward `b` by `amount` (0: a, 1: b).
    static QColor mix(const QColor &a, const QColor &b, qreal amount);

    static QColor error(const QPalette &palette);
    static QColor muted(const QPalette &palette);
    static QColor border(const QPalette &palette);
    static QColor cardBackground(const QPalette &palette);
    static QColor hover(const QPalette &palette);
    // A call waiting for the person: the sidebar's "waiting" amber.
    static QColor waiting(const QPalette &palette);

    static QColor addedText(const QPalette &palette);
    static QColor addedBackground(const QPalette &palette);
    static QColor addedEmphasis(const QPalette &palette);
    static QColor removedBackground(const QPalette &palette);
    static QColor removedEmphasis(const QPalette &palette);
    static QColor headerBackground(const QPalette &palette);
    static QColor fillerBackground(const QPalette &palette);
};

} // namespace qcode
