#pragma once

#include <QComboBox>
#include <QList>

#include "SettingsModelEntry.h"

namespace qcode {

// Picks a model for a config key: "Automatic" (the key unset), one of
// the known models, or any provider/model typed in. modelChosen() comes
// once per real change, whether picked or typed.
class ModelComboBox : public QComboBox
{
    Q_OBJECT

public:
    ModelComboBox(const QString &automaticLabel, QWidget *parent = nullptr);

    void setChoices(const QList<SettingsModelEntry> &choices);
    // "" is Automatic.
    void setModelRef(const QString &ref);
    QString modelRef() const;
    // Saving the choice failed: the text stays as typed, and choosing it
    // again tries again.
    void keepUnsaved(const QString &savedRef) { m_committed = savedRef; }
    // The words for "no model chosen" (another language); the choice stays.
    void setAutomaticLabel(const QString &label);

Q_SIGNALS:
    void modelChosen(const QString &ref);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void commit();
    int indexOfRef(const QString &ref) const;

    QString m_automaticLabel;
    QString m_committed;
};

} // namespace qcode
