#pragma once

#include <QGroupBox>
#include <QList>
#include <QProcessEnvironment>
#include <QSet>

#include "ProviderStatus.h"
#include "engine/catalogue/ModelCatalogue.h"
#include "engine/config/Config.h"

class QLabel;
class QPushButton;
class QTreeWidget;

namespace qcode {

class InlineMessage;
class SecretLineEdit;
class SecretStore;

// The providers qcode knows and where each one's key comes from, with a
// field to keep a key in the system keychain. Keychain calls are
// asynchronous; the page stays usable while they run.
class ProviderKeysBox : public QGroupBox
{
    Q_OBJECT

public:
    // `secrets` may be null (no keychain); it must outlive the box.
    ProviderKeysBox(ModelCatalogue catalogue, Config config, QProcessEnvironment environment, SecretStore *secrets,
                    QWidget *parent = nullptr);

    void setConfig(const Config &config);
    // A key was stored in or removed from the keychain elsewhere.
    void setKeyStored(const QString &providerID, bool stored);
    const QList<ProviderStatus> &statuses() const { return m_statuses; }

Q_SIGNALS:
    // A provider defined in a config file was picked, to edit it.
    void customProviderSelected(const QString &providerID);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void readKeychain();
    void rebuild();
    void select();
    void saveKey();
    void removeKey();
    const ProviderStatus *current() const;
    void setBusy(bool busy);

    ModelCatalogue m_catalogue;
    Config m_config;
    QProcessEnvironment m_environment;
    SecretStore *m_secrets = nullptr;
    QSet<QString> m_keychainIds;
    QList<ProviderStatus> m_statuses;
    QString m_keychainProblem;
    bool m_keyFileSaid = false; // where keys go without a keychain, said once
    bool m_busy = false;

    QTreeWidget *m_tree = nullptr;
    InlineMessage *m_keychainMessage = nullptr;
    QLabel *m_keyLabel = nullptr;
    SecretLineEdit *m_key = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_remove = nullptr;
    InlineMessage *m_message = nullptr;
};

} // namespace qcode
