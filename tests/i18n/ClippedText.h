#pragma once

#include <QStringList>

class QWidget;

namespace qcode::test {

// The texts a window shows cut off: every visible QLabel without word wrap,
// QAbstractButton and QGroupBox (its title) under `root` that is narrower
// than its minimumSizeHint, one line each naming the widget, its text and
// both widths. Empty when everything fits.
QStringList clippedTexts(const QWidget *root);

} // namespace qcode::test
