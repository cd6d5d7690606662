#include "ProxyCredentialsDialog.h"

#include "ui/settings/SecretLineEdit.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace qcode {

ProxyCredentialsDialog::ProxyCredentialsDialog(const QString &proxy, const QString &user,
                                               const QString &rememberWhere, QWidget *parent)
    : QDialog(parent)
    , m_proxy(proxy)
    , m_rememberWhere(rememberWhere)
{
    setObjectName(u"proxyCredentialsDialog"_s);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_intro->setObjectName(u"proxyCredentialsIntro"_s);
    m_user = new QLineEdit(user, this);
    m_user->setObjectName(u"proxyUser"_s);
    m_password = new SecretLineEdit(this);
    m_password->setObjectName(u"proxyPassword"_s);
    m_remember = new QCheckBox(this);
    m_remember->setObjectName(u"proxyRemember"_s);
    m_remember->setChecked(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);

    m_userLabel = new QLabel(this);
    m_userLabel->setBuddy(m_user);
    m_passwordLabel = new QLabel(this);
    m_passwordLabel->setBuddy(m_password->lineEdit());
    auto *form = new QFormLayout;
    form->addRow(m_userLabel, m_user);
    form->addRow(m_passwordLabel, m_password);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(form);
    layout->addWidget(m_remember);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_user, &QLineEdit::textChanged, this, &ProxyCredentialsDialog::updateOk);
    if (!user.isEmpty())
        m_password->lineEdit()->setFocus();
    retranslateUi();
    updateOk();
}

QString ProxyCredentialsDialog::user() const
{
    return m_user->text().trimmed();
}

QString ProxyCredentialsDialog::password() const
{
    return m_password->text();
}

bool ProxyCredentialsDialog::remember() const
{
    return m_remember->isChecked();
}

void ProxyCredentialsDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void ProxyCredentialsDialog::retranslateUi()
{
    setWindowTitle(tr("Proxy sign-in"));
    m_intro->setText(tr("The proxy %1 asks for a user name and password before it lets qcode reach the "
                        "provider.")
                         .arg(m_proxy));
    m_userLabel->setText(tr("&User name:"));
    m_passwordLabel->setText(tr("&Password:"));
    m_remember->setText(m_rememberWhere.isEmpty() ? tr("Remember in the keychain") : m_rememberWhere);
}

void ProxyCredentialsDialog::updateOk()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_user->text().trimmed().isEmpty());
}

} // namespace qcode
