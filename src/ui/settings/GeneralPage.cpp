#include "GeneralPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include "AppSettings.h"
#include "InlineMessage.h"
#include "ModelComboBox.h"
#include "NetworkBox.h"
#include "ui/support/FormLabels.h"

using namespace Qt::StringLiterals;

namespace qcode {

GeneralPage::GeneralPage(const SettingsContext &context, QWidget *parent)
    : QWidget(parent)
    , m_writer(context.configDirectory)
    , m_app(context.app)
    , m_translationsDirectory(context.translationsDirectory)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(createModelBox(context));
    if (m_app) {
        layout->addWidget(createAppearanceBox());
        m_networkBox = new NetworkBox(m_app, this);
        m_networkBox->setObjectName(u"networkBox"_s);
        layout->addWidget(m_networkBox);
    }
    layout->addStretch();
    loadConfig(context);
    if (m_app)
        fillLanguages();
    retranslateUi();
}

void GeneralPage::retranslateUi()
{
    m_modelBox->setTitle(tr("Models and agent"));
    m_model->setAutomaticLabel(tr("Automatic (the best model of a provider with a key)"));
    m_smallModel->setAutomaticLabel(tr("Automatic (a small model of the same provider)"));
    m_smallModel->setToolTip(tr("Used for titles and summaries, where a fast, cheap model is enough."));
    m_agent->setItemText(0, tr("Automatic (%1)").arg(m_firstAgent));
    setFormLabel(m_modelForm, m_model, tr("Default &model:"));
    setFormLabel(m_modelForm, m_smallModel, tr("&Small model:"));
    setFormLabel(m_modelForm, m_agent, tr("Default &agent:"));
    showModelNote();
    if (!m_app)
        return;
    m_appearanceBox->setTitle(tr("Appearance and language"));
    m_theme->setItemText(m_theme->findData(int(AppSettings::Theme::System)), tr("Follow the system"));
    m_theme->setItemText(m_theme->findData(int(AppSettings::Theme::Light)), tr("Light"));
    m_theme->setItemText(m_theme->findData(int(AppSettings::Theme::Dark)), tr("Dark"));
    m_fontSize->setSpecialValueText(tr("System default"));
    m_fontSize->setSuffix(tr(" pt"));
    // The other languages are named in their own words, in every language.
    m_language->setItemText(m_language->findData(QString()), tr("Follow the system"));
    m_notifications->setText(tr("Notify me when a session finishes or needs an answer while qcode is in "
                                "the background"));
    setFormLabel(m_appearanceForm, m_theme, tr("&Theme:"));
    setFormLabel(m_appearanceForm, m_fontSize, tr("&Font size:"));
    setFormLabel(m_appearanceForm, m_language, tr("&Language:"));
    m_networkBox->retranslateUi();
}

void GeneralPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

QWidget *GeneralPage::createModelBox(const SettingsContext &context)
{
    auto *box = new QGroupBox(this);
    m_modelBox = box;
    m_model = new ModelComboBox(QString(), box);
    m_model->setObjectName(u"modelCombo"_s);
    m_smallModel = new ModelComboBox(QString(), box);
    m_smallModel->setObjectName(u"smallModelCombo"_s);
    m_agent = new QComboBox(box);
    m_agent->setObjectName(u"agentCombo"_s);
    const QStringList agents = context.agents.isEmpty() ? QStringList{u"build"_s, u"plan"_s} : context.agents;
    m_firstAgent = agents.constFirst();
    m_agent->addItem(QString(), QString());
    for (const QString &agent : agents)
        m_agent->addItem(agent, agent);
    m_modelNote = new QLabel(box);
    m_modelNote->setObjectName(u"modelNote"_s);
    m_modelNote->setWordWrap(true);
    m_modelNote->setVisible(false);
    m_configMessage = new InlineMessage(box);
    m_configMessage->setObjectName(u"generalMessage"_s);

    m_modelForm = new QFormLayout(box);
    addFormRow(m_modelForm, m_model);
    addFormRow(m_modelForm, m_smallModel);
    addFormRow(m_modelForm, m_agent);
    m_modelForm->addRow(m_modelNote);
    m_modelForm->addRow(m_configMessage);

    connect(m_model, &ModelComboBox::modelChosen, this,
            [this](const QString &ref) { saveModel(m_model, u"model"_s, ref); });
    connect(m_smallModel, &ModelComboBox::modelChosen, this,
            [this](const QString &ref) { saveModel(m_smallModel, u"small_model"_s, ref); });
    connect(m_agent, &QComboBox::activated, this, &GeneralPage::saveAgent);
    return box;
}

QWidget *GeneralPage::createAppearanceBox()
{
    auto *box = new QGroupBox(this);
    m_appearanceBox = box;
    m_theme = new QComboBox(box);
    m_theme->setObjectName(u"themeCombo"_s);
    for (const auto theme : {AppSettings::Theme::System, AppSettings::Theme::Light, AppSettings::Theme::Dark})
        m_theme->addItem(QString(), int(theme));
    m_theme->setCurrentIndex(m_theme->findData(int(m_app->theme())));

    m_fontSize = new QSpinBox(box);
    m_fontSize->setObjectName(u"fontSizeSpin"_s);
    // One below the smallest size stands for "the system's size".
    m_fontSize->setRange(AppSettings::MinimumFontPointSize - 1, AppSettings::MaximumFontPointSize);
    m_fontSize->setValue(m_app->fontPointSize() == 0 ? m_fontSize->minimum() : m_app->fontPointSize());

    m_language = new QComboBox(box);
    m_language->setObjectName(u"languageCombo"_s);
    m_notifications = new QCheckBox(box);
    m_notifications->setObjectName(u"notificationsCheck"_s);
    m_notifications->setChecked(m_app->notificationsEnabled());
    m_appMessage = new InlineMessage(box);
    m_appMessage->setObjectName(u"appearanceMessage"_s);

    m_appearanceForm = new QFormLayout(box);
    addFormRow(m_appearanceForm, m_theme);
    addFormRow(m_appearanceForm, m_fontSize);
    addFormRow(m_appearanceForm, m_language);
    m_appearanceForm->addRow(m_notifications);
    m_appearanceForm->addRow(m_appMessage);

    connect(m_theme, &QComboBox::activated, this,
            [this] { m_app->setTheme(AppSettings::Theme(m_theme->currentData().toInt())); });
    connect(m_fontSize, &QSpinBox::valueChanged, this, [this](int points) {
        m_app->setFontPointSize(points < AppSettings::MinimumFontPointSize ? 0 : points);
    });
    connect(m_language, &QComboBox::activated, this, &GeneralPage::saveLanguage);
    connect(m_notifications, &QCheckBox::toggled, m_app, &AppSettings::setNotificationsEnabled);
    return box;
}

void GeneralPage::fillLanguages()
{
    // Each in its own language, so a person who cannot read the current
    // one still finds theirs.
    m_language->addItem(QString(), QString());
    m_language->addItem(u"English"_s, u"en"_s); // i18n: the language's own name
    m_language->addItem(u"简体中文"_s, u"zh_CN"_s); // i18n: the language's own name
    m_language->addItem(u"Deutsch"_s, u"de"_s); // i18n: the language's own name
    showLanguage();
    connect(m_app, &AppSettings::languageChanged, this, &GeneralPage::showLanguage);
}

void GeneralPage::showLanguage()
{
    const QString saved = m_app->language();
    if (m_language->findData(saved) < 0)
        m_language->addItem(saved, saved); // set by a newer qcode, or by hand: kept as it is
    m_language->setCurrentIndex(m_language->findData(saved));
}

void GeneralPage::saveLanguage()
{
    const QString before = m_app->language();
    const QString chosen = m_language->currentData().toString();
    m_app->setLanguage(chosen);
    if (chosen == before)
        return;
    // English is the source language; the others need their compiled
    // translation. The window has switched already.
    const bool translated = chosen.isEmpty() || chosen == "en"_L1
                            || QFile::exists(QDir(m_translationsDirectory).filePath(u"qcode_%1.qm"_s.arg(chosen)));
    if (translated)
        m_appMessage->dismiss();
    else
        m_appMessage->showInfo(tr("This qcode has no %1 translation yet, so it stays in English; the choice is kept "
                                  "for a version that has one.")
                                   .arg(m_language->currentText()));
}

void GeneralPage::loadConfig(const SettingsContext &context)
{
    const Result<QJsonObject> json = m_writer.read();
    if (!json) {
        m_configMessage->showError(json.errorMessage());
    } else {
        m_savedModel = json->value("model"_L1).toString();
        m_savedSmallModel = json->value("small_model"_L1).toString();
        m_savedAgent = json->value("default_agent"_L1).toString();
    }
    m_model->setModelRef(m_savedModel);
    m_smallModel->setModelRef(m_savedSmallModel);
    int agent = m_agent->findData(m_savedAgent);
    if (agent < 0) {
        m_agent->addItem(m_savedAgent, m_savedAgent); // an agent this project does not define, kept as written
        agent = m_agent->count() - 1;
    }
    m_agent->setCurrentIndex(agent);

    const QString effective = context.config.model().value_or(QString());
    if (json && !effective.isEmpty() && effective != m_savedModel)
        m_effectiveModel = effective;
}

void GeneralPage::showModelNote()
{
    m_modelNote->setVisible(!m_effectiveModel.isEmpty());
    if (!m_effectiveModel.isEmpty())
        m_modelNote->setText(tr("Another config file sets the model to %1. A choice here wins over your global "
                                "opencode.json, not over a project's own config.")
                                 .arg(m_effectiveModel));
}

void GeneralPage::setModelEntries(const QList<SettingsModelEntry> &choices)
{
    m_model->setChoices(choices);
    m_smallModel->setChoices(choices);
}

void GeneralPage::saveModel(ModelComboBox *combo, const QString &key, const QString &ref)
{
    QString &saved = key == "model"_L1 ? m_savedModel : m_savedSmallModel;
    const std::optional<QString> value = ref.isEmpty() ? std::nullopt : std::optional<QString>(ref);
    const Result<void> written = key == "model"_L1 ? m_writer.setModel(value) : m_writer.setSmallModel(value);
    if (!written) {
        combo->keepUnsaved(saved);
        m_configMessage->showError(tr("Not saved: %1").arg(written.errorMessage()));
        return;
    }
    saved = ref;
    m_configMessage->showSuccess(ref.isEmpty() ? tr("Saved: qcode picks the model.")
                                               : tr("Saved: %1 is the default.").arg(ref));
}

void GeneralPage::saveAgent()
{
    const QString agent = m_agent->currentData().toString();
    if (agent == m_savedAgent)
        return;
    const Result<void> written =
        m_writer.setDefaultAgent(agent.isEmpty() ? std::nullopt : std::optional<QString>(agent));
    if (!written) {
        m_configMessage->showError(tr("Not saved: %1").arg(written.errorMessage()));
        return;
    }
    m_savedAgent = agent;
    m_configMessage->showSuccess(agent.isEmpty() ? tr("Saved: the first agent is the default.")
                                                 : tr("Saved: %1 is the default agent.").arg(agent));
}

} // namespace qcode
