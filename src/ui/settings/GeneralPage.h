#pragma once

#include <QList>
#include <QWidget>

#include "SettingsModelEntry.h"
#include "SettingsContext.h"
#include "engine/config/UserConfigWriter.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace qcode {

class InlineMessage;
class ModelComboBox;

// Settings › General: default model and agent (qcode.json), and the app's
// own look and language (AppSettings). Every change is saved at once.
class GeneralPage : public QWidget
{
    Q_OBJECT

public:
    GeneralPage(const SettingsContext &context, QWidget *parent = nullptr);

    void setModelEntries(const QList<SettingsModelEntry> &choices);

private:
    QWidget *createModelBox(const SettingsContext &context);
    QWidget *createAppearanceBox();
    void loadConfig(const SettingsContext &context);
    void saveModel(ModelComboBox *combo, const QString &key, const QString &ref);
    void saveAgent();
    void fillLanguages();
    void saveLanguage();

    UserConfigWriter m_writer;
    AppSettings *m_app = nullptr;
    QString m_translationsDirectory;
    QString m_savedModel;
    QString m_savedSmallModel;
    QString m_savedAgent;

    ModelComboBox *m_model = nullptr;
    ModelComboBox *m_smallModel = nullptr;
    QComboBox *m_agent = nullptr;
    QLabel *m_modelNote = nullptr;
    InlineMessage *m_configMessage = nullptr;
    QComboBox *m_theme = nullptr;
    QSpinBox *m_fontSize = nullptr;
    QComboBox *m_language = nullptr;
    QCheckBox *m_notifications = nullptr;
    InlineMessage *m_appMessage = nullptr;
};

} // namespace qcode
