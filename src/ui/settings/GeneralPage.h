#pragma once

#include <QList>
#include <QWidget>

#include "SettingsModelEntry.h"
#include "SettingsContext.h"
#include "engine/config/UserConfigWriter.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QSpinBox;

namespace qcode {

class InlineMessage;
class ModelComboBox;
class NetworkBox;

// Settings › General: default model and agent (qcode.json), and the app's
// own look and language, proxy and certificates (AppSettings). Every change
// is saved at once.
class GeneralPage : public QWidget
{
    Q_OBJECT

public:
    GeneralPage(const SettingsContext &context, QWidget *parent = nullptr);

    void setModelEntries(const QList<SettingsModelEntry> &choices);

protected:
    void changeEvent(QEvent *event) override;

private:
    QWidget *createModelBox(const SettingsContext &context);
    QWidget *createAppearanceBox();
    void retranslateUi();
    void showModelNote();
    void loadConfig(const SettingsContext &context);
    void saveModel(ModelComboBox *combo, const QString &key, const QString &ref);
    void saveAgent();
    void fillLanguages();
    // The language in use, chosen here or elsewhere.
    void showLanguage();
    void saveLanguage();

    UserConfigWriter m_writer;
    AppSettings *m_app = nullptr;
    QString m_translationsDirectory;
    QString m_savedModel;
    QString m_savedSmallModel;
    QString m_savedAgent;
    QString m_firstAgent;     // what "Automatic" picks
    QString m_effectiveModel; // the model the merged config sets, when another file sets it

    NetworkBox *m_networkBox = nullptr;
    QGroupBox *m_modelBox = nullptr;
    QFormLayout *m_modelForm = nullptr;
    ModelComboBox *m_model = nullptr;
    ModelComboBox *m_smallModel = nullptr;
    QComboBox *m_agent = nullptr;
    QLabel *m_modelNote = nullptr;
    InlineMessage *m_configMessage = nullptr;
    QGroupBox *m_appearanceBox = nullptr;
    QFormLayout *m_appearanceForm = nullptr;
    QComboBox *m_theme = nullptr;
    QSpinBox *m_fontSize = nullptr;
    QComboBox *m_language = nullptr;
    QCheckBox *m_notifications = nullptr;
    InlineMessage *m_appMessage = nullptr;
};

} // namespace qcode
