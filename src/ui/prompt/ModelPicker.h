#pragma once

#include <QToolButton>

#include <optional>

#include "PromptChoices.h"

namespace qcode {

class ModelPopup;

// The model the next prompt goes to: a button naming it that opens the
// searchable ModelPopup (also with ModelPicker::shortcut()).
class ModelPicker : public QToolButton
{
    Q_OBJECT

public:
    explicit ModelPicker(QWidget *parent = nullptr);

    static QKeySequence shortcut();

    void setModels(const QList<ModelChoice> &models);
    // Shows `model` without announcing it.
    void setCurrentModel(const std::optional<ModelChoice> &model);
    std::optional<ModelChoice> currentModel() const { return m_current; }
    ModelPopup *popup() const { return m_popup; }
    void openPopup();

Q_SIGNALS:
    void modelChosen(const qcode::ModelChoice &model);

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateText();

    ModelPopup *m_popup = nullptr;
    std::optional<ModelChoice> m_current;
    bool m_hasModels = false;
};

} // namespace qcode
