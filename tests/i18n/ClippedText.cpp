#include "ClippedText.h"

#include <QAbstractButton>
#include <QGroupBox>
#include <QLabel>

using namespace Qt::StringLiterals;

namespace qcode::test {

namespace {

QString describe(const QWidget *widget, const QString &text)
{
    const QString name = widget->objectName().isEmpty() ? QString() : u" \""_s + widget->objectName() + u'"';
    return u"%1%2 \"%3\": %4 px wide, needs %5"_s.arg(QString::fromLatin1(widget->metaObject()->className()), name,
                                                      text.left(80))
        .arg(widget->width())
        .arg(widget->minimumSizeHint().width());
}

bool narrower(const QWidget *widget)
{
    return widget->width() < widget->minimumSizeHint().width();
}

} // namespace

QStringList clippedTexts(const QWidget *root)
{
    QStringList clipped;
    for (const QWidget *widget : root->findChildren<QWidget *>()) {
        if (!widget->isVisibleTo(root))
            continue;
        if (const auto *label = qobject_cast<const QLabel *>(widget)) {
            if (!label->wordWrap() && !label->text().isEmpty() && narrower(label))
                clipped.append(describe(label, label->text()));
        } else if (const auto *button = qobject_cast<const QAbstractButton *>(widget)) {
            if (!button->text().isEmpty() && narrower(button))
                clipped.append(describe(button, button->text()));
        } else if (const auto *box = qobject_cast<const QGroupBox *>(widget)) {
            if (!box->title().isEmpty() && narrower(box))
                clipped.append(describe(box, box->title()));
        }
    }
    return clipped;
}

} // namespace qcode::test
