#include "ToolFonts.h"

#include <QApplication>
#include <QFontDatabase>
#include <QWidget>

namespace qcode {

QFont ToolFonts::fixed()
{
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
}

void ToolFonts::keepInterfaceFont(QWidget *widget)
{
    // A font whose every property counts as set is not merged with the
    // parent's.
    QFont font = QApplication::font(widget);
    font.setResolveMask(QFont::AllPropertiesResolved);
    widget->setFont(font);
}

} // namespace qcode
