#pragma once

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

class QWidget;

namespace qcode {

class ProxyCredentialsDialog;
class SecretStore;

// The window's answer when a proxy asks for credentials
// (ProxyCredentialRequests::credentialsWanted): the ones kept in the
// keychain for that proxy, the first time it asks in this run; else a
// ProxyCredentialsDialog, whose answer is kept in the keychain when the
// person ticks "Remember". Nothing waits: the engine's request resumes when
// the answer is given, and closing the window answers "no".
class ProxyCredentialsAsker : public QObject
{
    Q_OBJECT

public:
    // `window` parents the dialogs. `secrets` (the keychain, or the key file
    // where none runs) may be null: nothing is then looked up or kept.
    ProxyCredentialsAsker(QWidget *window, SecretStore *secrets);
    ~ProxyCredentialsAsker() override;

    void setSecretStore(SecretStore *secrets) { m_secrets = secrets; }

    // The entry the credentials of `proxy` ("host:port") are kept under.
    static QString secretId(const QString &proxy);

Q_SIGNALS:
    // A dialog was shown (for tests and the status line).
    void dialogShown(qcode::ProxyCredentialsDialog *dialog);

private:
    void onCredentialsWanted(const QString &proxy, const QString &triedUser);
    void askPerson(const QString &proxy, const QString &user);
    void keep(const QString &proxy, const QString &user, const QString &password, bool remember);

    QPointer<QWidget> m_window;
    SecretStore *m_secrets = nullptr;
    QSet<QString> m_lookedUp; // proxies whose keychain entry was tried in this run
};

} // namespace qcode
