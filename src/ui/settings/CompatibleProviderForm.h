#pragma once

#include <QGroupBox>
#include <QJsonObject>
#include <QStringList>

#include <optional>

#include "engine/config/LocalServer.h"
#include "engine/config/UserConfigWriter.h"

class QFormLayout;
class QLineEdit;
class QNetworkAccessManager;
class QPushButton;

namespace qcode {

class ConnectionTester;
class InlineMessage;
class SecretLineEdit;
class SecretStore;

// Any OpenAI-compatible server as a provider: id, name, base URL, key and
// model ids. "Test connection" asks the server for its models; "Save"
// writes the provider to qcode.json and the key to the keychain, and says
// exactly which of the two worked.
class CompatibleProviderForm : public QGroupBox
{
    Q_OBJECT

public:
    // `reservedIds` are the catalogue's providers, which this form must not
    // redefine. `secrets` may be null; it and `network` must outlive the form.
    CompatibleProviderForm(QString configDirectory, QStringList reservedIds, SecretStore *secrets,
                           QNetworkAccessManager *network, QWidget *parent = nullptr);

    // Fills the form from a provider.<id> entry, to change or remove it.
    void edit(const QString &providerID, const QJsonObject &entry);
    // Fills it from a detected server, as a starting point.
    void editServer(const LocalServer &server);
    void clearForm();

    // What the fields say now.
    CompatibleProvider provider() const;
    ConnectionTester *tester() const { return m_tester; }

Q_SIGNALS:
    void providerSaved(const QString &providerID, const QJsonObject &entry);
    void providerRemoved(const QString &providerID);
    void keyStored(const QString &providerID, bool stored);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void testConnection();
    void save();
    void storeKey(const QString &providerID, const QString &name, const QString &key, const QString &savedSentence);
    void remove();
    void setBusy(bool busy);
    // Looks up the key the keychain holds for the provider being edited,
    // so testing a saved server sends it; the field stays empty.
    void readStoredKey(const QString &providerID);
    void setStoredKey(const std::optional<QString> &key);

    QString m_configDirectory;
    QStringList m_reservedIds;
    SecretStore *m_secrets = nullptr;
    ConnectionTester *m_tester = nullptr;
    QStringList m_env;      // the entry's own key variables, when editing one
    QString m_savedID;      // the id qcode.json has, when editing one
    std::optional<QString> m_storedKey; // the keychain's key for m_savedID, once read
    int m_generation = 0;   // bumped whenever the form shows another provider
    bool m_busy = false;

    QFormLayout *m_form = nullptr;
    QLineEdit *m_id = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    SecretLineEdit *m_key = nullptr;
    QLineEdit *m_models = nullptr;
    QPushButton *m_test = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_new = nullptr;
    InlineMessage *m_message = nullptr;
};

} // namespace qcode
