#include "ModelPicker.h"

#include <QEvent>

#include "ModelPopup.h"

using namespace Qt::StringLiterals;

namespace qcode {

ModelPicker::ModelPicker(QWidget *parent) : QToolButton(parent)
{
    setObjectName(u"modelPicker"_s);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_popup = new ModelPopup(this);
    connect(this, &QToolButton::clicked, this, &ModelPicker::openPopup);
    connect(m_popup, &ModelPopup::chosen, this, [this](const ModelChoice &model) {
        const bool changed = !m_current || !m_current->isSameModel(model);
        setCurrentModel(model);
        if (changed)
            Q_EMIT modelChosen(model);
    });
    updateText();
}

QKeySequence ModelPicker::shortcut()
{
    return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M);
}

void ModelPicker::setModels(const QList<ModelChoice> &models)
{
    m_hasModels = !models.isEmpty();
    m_popup->setModels(models);
    updateText();
}

void ModelPicker::setCurrentModel(const std::optional<ModelChoice> &model)
{
    m_current = model;
    m_popup->setCurrent(model);
    updateText();
}

void ModelPicker::openPopup()
{
    if (m_hasModels)
        m_popup->popUp(this);
}

void ModelPicker::updateText()
{
    const QString name = !m_current ? tr("Choose a model")
        : m_current->label.isEmpty() ? m_current->modelID
                                     : m_current->label;
    // The button names the model, never pushing the Send button away.
    setText(fontMetrics().elidedText(name, Qt::ElideRight, fontMetrics().averageCharWidth() * 32));
    const QString keys = shortcut().toString(QKeySequence::NativeText);
    setToolTip(m_current ? tr("Model: %1 (%2/%3). Change it: %4")
                               .arg(name, m_current->providerID, m_current->modelID, keys)
                         : tr("Choose the model for the next prompt (%1)").arg(keys));
    setEnabled(m_hasModels);
}

void ModelPicker::changeEvent(QEvent *event)
{
    QToolButton::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        updateText();
}

} // namespace qcode
