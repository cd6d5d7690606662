#pragma once

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace qcode {

class SecretLineEdit;

// Asks a person for the user name and password a proxy wants: the proxy's
// host:port, the two fields and whether to remember them.
class ProxyCredentialsDialog : public QDialog
{
    Q_OBJECT

public:
    // `rememberWhere` says where remembered credentials go (the keychain,
    // or the key file where none runs).
    ProxyCredentialsDialog(const QString &proxy, const QString &user, const QString &rememberWhere,
                           QWidget *parent = nullptr);

    QString proxy() const { return m_proxy; }
    QString user() const;
    QString password() const;
    bool remember() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateOk();

    QString m_proxy;
    QString m_rememberWhere;
    QLabel *m_intro = nullptr;
    QLabel *m_userLabel = nullptr;
    QLabel *m_passwordLabel = nullptr;
    QLineEdit *m_user = nullptr;
    SecretLineEdit *m_password = nullptr;
    QCheckBox *m_remember = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace qcode
