#include "DesktopIdentity.h"

#include <QGuiApplication>
#include <QIcon>

using namespace Qt::StringLiterals;

namespace qcode::DesktopIdentity {

void apply()
{
    QGuiApplication::setDesktopFileName(u"dev.qcode.QCode"_s);
    QIcon icon;
    for (const int size : {16, 24, 32, 48, 64, 128, 256})
        icon.addFile(u":/icons/%1x%1/dev.qcode.QCode.png"_s.arg(size), QSize(size, size));
    QGuiApplication::setWindowIcon(icon);
}

} // namespace qcode::DesktopIdentity
