#include "NetworkBox.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include "AppSettings.h"
#include "InlineMessage.h"
#include "engine/network/EnvironmentProxyFactory.h"
#include "engine/network/NetworkSetup.h"
#include "ui/support/FormLabels.h"

using namespace Qt::StringLiterals;

namespace qcode {

NetworkBox::NetworkBox(AppSettings *settings, QWidget *parent)
    : QGroupBox(parent)
    , m_settings(settings)
{
    m_proxy = new QLineEdit(m_settings->proxy(), this);
    m_proxy->setObjectName(u"proxyEdit"_s);
    m_proxy->setClearButtonEnabled(true);
    m_certificateFile = new QLineEdit(m_settings->certificateFile(), this);
    m_certificateFile->setObjectName(u"certificateFileEdit"_s);
    m_certificateFile->setClearButtonEnabled(true);
    m_browse = new QPushButton(this);
    m_browse->setObjectName(u"certificateBrowseButton"_s);
    auto *certificateRow = new QWidget(this);
    auto *rowLayout = new QHBoxLayout(certificateRow);
    rowLayout->setContentsMargins(0, 0, 0, 0);
    rowLayout->addWidget(m_certificateFile, 1);
    rowLayout->addWidget(m_browse);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_message = new InlineMessage(this);
    m_message->setObjectName(u"networkMessage"_s);

    m_form = new QFormLayout(this);
    addFormRow(m_form, m_proxy);
    addFormRow(m_form, certificateRow);
    m_form->addRow(m_note);
    m_form->addRow(m_message);

    connect(m_proxy, &QLineEdit::editingFinished, this, &NetworkBox::saveProxy);
    connect(m_certificateFile, &QLineEdit::editingFinished, this, &NetworkBox::saveCertificateFile);
    connect(m_browse, &QPushButton::clicked, this, &NetworkBox::chooseCertificateFile);
    retranslateUi();
}

void NetworkBox::retranslateUi()
{
    setTitle(tr("Network"));
    m_proxy->setPlaceholderText(tr("From the environment or the system"));
    m_certificateFile->setPlaceholderText(tr("None (SSL_CERT_FILE and NODE_EXTRA_CA_CERTS still apply)"));
    m_browse->setText(tr("&Browse…"));
    setFormLabel(m_form, m_proxy, tr("&Proxy:"));
    setFormLabel(m_form, m_certificateFile->parentWidget(), tr("Extra &certificates:"));
    m_note->setText(tr("A proxy here (http://user:password@proxy.example.com:3128) is used for every request; "
                       "with none, https_proxy, http_proxy, all_proxy and no_proxy apply, then the system's "
                       "settings. Extra certificates are a PEM file of authorities added to the system's, for "
                       "networks that inspect TLS. A proxy applies from the next start."));
}

void NetworkBox::saveProxy()
{
    const QString text = m_proxy->text().trimmed();
    if (!text.isEmpty() && EnvironmentProxyFactory::proxyFromText(text).type() == QNetworkProxy::NoProxy) {
        m_message->showError(tr("\"%1\" is not a proxy address like http://proxy.example.com:3128.").arg(text));
        return;
    }
    m_settings->setProxy(text);
    m_message->showInfo(tr("The proxy applies from the next start."));
}

void NetworkBox::saveCertificateFile()
{
    const QString file = m_certificateFile->text().trimmed();
    if (file == m_settings->certificateFile())
        return;
    if (!file.isEmpty()) {
        QString problem;
        // Added now as well, so the file is checked while the person is here
        // to fix it, and new connections trust it at once.
        if (NetworkSetup::addCertificateAuthorities(file, &problem) == 0) {
            m_message->showError(tr("These certificates cannot be used: %1").arg(problem));
            return;
        }
    }
    m_settings->setCertificateFile(file);
    m_message->showInfo(tr("The certificates are trusted now and at every start."));
}

void NetworkBox::chooseCertificateFile()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Extra certificate authorities"),
                                                      m_certificateFile->text(),
                                                      tr("PEM certificates (*.pem *.crt *.cer);;All files (*)"));
    if (file.isEmpty())
        return;
    m_certificateFile->setText(file);
    saveCertificateFile();
}

} // namespace qcode
