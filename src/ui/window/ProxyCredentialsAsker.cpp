#include "ProxyCredentialsAsker.h"

#include "ProxyCredentialsDialog.h"
#include "engine/config/FallbackSecretStore.h"
#include "engine/config/SecretStore.h"
#include "engine/network/ProxyCredentialRequests.h"

#include <QCoro/QCoroTask>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QWidget>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

Q_LOGGING_CATEGORY(lcProxyAsker, "qcode.ui.proxy")

} // namespace

ProxyCredentialsAsker::ProxyCredentialsAsker(QWidget *window, SecretStore *secrets)
    : QObject(window)
    , m_window(window)
    , m_secrets(secrets)
{
    ProxyCredentialRequests *requests = ProxyCredentialRequests::instance();
    // Queued: the question is emitted in the engine's thread; it is answered
    // here, in the window's, later.
    connect(requests, &ProxyCredentialRequests::credentialsWanted, this, &ProxyCredentialsAsker::onCredentialsWanted,
            Qt::QueuedConnection);
    requests->addAnswerer();
}

ProxyCredentialsAsker::~ProxyCredentialsAsker()
{
    // Requests still waiting fail now, with "none was given".
    ProxyCredentialRequests::instance()->removeAnswerer();
}

QString ProxyCredentialsAsker::secretId(const QString &proxy)
{
    return u"proxy:"_s + proxy.toLower();
}

void ProxyCredentialsAsker::onCredentialsWanted(const QString &proxy, const QString &triedUser)
{
    // Kept credentials are tried once per run: if the proxy refuses them
    // it asks again, and then a person answers.
    if (!m_secrets || m_lookedUp.contains(proxy)) {
        askPerson(proxy, triedUser);
        return;
    }
    m_lookedUp.insert(proxy);
    QCoro::connect(m_secrets->readKey(secretId(proxy)), this,
                   [this, proxy, triedUser](const Result<std::optional<QString>> &kept) {
                       if (!kept) {
                           qCWarning(lcProxyAsker).noquote()
                               << "proxy credentials not readable from the keychain:" << kept.errorMessage();
                       } else if (kept->has_value()) {
                           const QJsonObject entry = QJsonDocument::fromJson((*kept)->toUtf8()).object();
                           const QString user = entry.value("user"_L1).toString();
                           if (!user.isEmpty()) {
                               qCInfo(lcProxyAsker).noquote() << "using kept credentials for the proxy" << proxy
                                                              << "as" << user;
                               ProxyCredentialRequests::instance()->answer(
                                   proxy, ProxyCredentials{user, entry.value("password"_L1).toString(), false});
                               return;
                           }
                       }
                       askPerson(proxy, triedUser);
                   });
}

void ProxyCredentialsAsker::askPerson(const QString &proxy, const QString &user)
{
    QString rememberWhere;
    if (const FallbackSecretStore *fallback = FallbackSecretStore::of(m_secrets); fallback && fallback->usesKeyFile())
        rememberWhere = tr("Remember in qcode's key file (no keychain runs here)");
    auto *dialog = new ProxyCredentialsDialog(proxy, user, rememberWhere, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!m_secrets)
        dialog->findChild<QWidget *>(u"proxyRemember"_s)->setEnabled(false);
    connect(dialog, &QDialog::finished, this, [this, dialog, proxy](int result) {
        if (result != QDialog::Accepted) {
            qCInfo(lcProxyAsker).noquote() << "no credentials given for the proxy" << proxy;
            ProxyCredentialRequests::instance()->answer(proxy, std::nullopt);
            return;
        }
        const QString user = dialog->user();
        const QString password = dialog->password();
        ProxyCredentialRequests::instance()->answer(proxy, ProxyCredentials{user, password, true});
        keep(proxy, user, password, dialog->remember());
    });
    dialog->open();
    Q_EMIT dialogShown(dialog);
}

void ProxyCredentialsAsker::keep(const QString &proxy, const QString &user, const QString &password, bool remember)
{
    if (!m_secrets)
        return;
    if (!remember) {
        QCoro::connect(m_secrets->deleteKey(secretId(proxy)), this, [](const Result<void> &) {});
        return;
    }
    const QString entry = QString::fromUtf8(
        QJsonDocument(QJsonObject{{u"user"_s, user}, {u"password"_s, password}}).toJson(QJsonDocument::Compact));
    QCoro::connect(m_secrets->writeKey(secretId(proxy), entry), this, [proxy](const Result<void> &written) {
        if (!written)
            qCWarning(lcProxyAsker).noquote() << "proxy credentials for" << proxy
                                              << "not kept:" << written.errorMessage();
    });
}

} // namespace qcode
