#include "ModelComboBox.h"

#include <QCompleter>
#include <QEvent>
#include <QLineEdit>

namespace qcode {

ModelComboBox::ModelComboBox(const QString &automaticLabel, QWidget *parent)
    : QComboBox(parent), m_automaticLabel(automaticLabel)
{
    setEditable(true);
    setInsertPolicy(QComboBox::NoInsert);
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(32);
    // Dozens of models: typing any part of a name finds it.
    completer()->setFilterMode(Qt::MatchContains);
    completer()->setCompletionMode(QCompleter::PopupCompletion);
    retranslateUi();
    addItem(m_automaticLabel, QString());

    connect(this, &QComboBox::activated, this, &ModelComboBox::commit);
    connect(lineEdit(), &QLineEdit::editingFinished, this, &ModelComboBox::commit);
}

void ModelComboBox::setChoices(const QList<SettingsModelEntry> &choices)
{
    const QString kept = modelRef();
    const QSignalBlocker blocker(this);
    clear();
    addItem(m_automaticLabel, QString());
    for (const SettingsModelEntry &choice : choices) {
        addItem(choice.label, choice.ref);
        setItemData(count() - 1, choice.ref, Qt::ToolTipRole);
    }
    setModelRef(kept);
}

void ModelComboBox::setAutomaticLabel(const QString &label)
{
    const QSignalBlocker blocker(this);
    const bool shown = currentIndex() == 0 && currentText() == m_automaticLabel;
    m_automaticLabel = label;
    setItemText(0, label);
    if (shown)
        setEditText(label);
}

void ModelComboBox::changeEvent(QEvent *event)
{
    QComboBox::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void ModelComboBox::retranslateUi()
{
    lineEdit()->setPlaceholderText(tr("provider/model"));
}

int ModelComboBox::indexOfRef(const QString &ref) const
{
    for (int i = 0; i < count(); ++i) {
        if (itemData(i).toString() == ref)
            return i;
    }
    return -1;
}

void ModelComboBox::setModelRef(const QString &ref)
{
    const QSignalBlocker blocker(this);
    m_committed = ref;
    const int index = indexOfRef(ref);
    if (index >= 0) {
        setCurrentIndex(index);
        setEditText(itemText(index));
    } else {
        setCurrentIndex(-1);
        setEditText(ref); // a model the catalogue does not know, kept as written
    }
}

QString ModelComboBox::modelRef() const
{
    const QString text = currentText().trimmed();
    for (int i = 0; i < count(); ++i) {
        if (itemText(i) == text)
            return itemData(i).toString();
    }
    return text;
}

void ModelComboBox::commit()
{
    const QString ref = modelRef();
    if (ref == m_committed)
        return;
    m_committed = ref;
    Q_EMIT modelChosen(ref);
}

} // namespace qcode
