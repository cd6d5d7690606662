#pragma once

#include <QFont>

class QWidget;

namespace qcode {

// Commands, output and diffs read in the system's fixed-width font; the
// buttons that sit over them keep the interface font.
class ToolFonts
{
public:
    static QFont fixed();
    // Gives `widget` the application's font for good, so that it does not
    // inherit the fixed-width font of the text view it is placed on.
    static void keepInterfaceFont(QWidget *widget);
};

} // namespace qcode
