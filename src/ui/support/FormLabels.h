#pragma once

#include <QFormLayout>
#include <QLabel>

namespace qcode {

// Form rows whose labels are worded after the row is made, and again in
// another language. The label is the field's buddy, so its mnemonic
// ("&Theme:") still moves to the field.
inline QLabel *addFormRow(QFormLayout *form, QWidget *field)
{
    auto *label = new QLabel(form->parentWidget());
    label->setBuddy(field);
    form->addRow(label, field);
    return label;
}

inline void setFormLabel(QFormLayout *form, QWidget *field, const QString &text)
{
    if (auto *label = qobject_cast<QLabel *>(form->labelForField(field)))
        label->setText(text);
}

} // namespace qcode
