#pragma once

#include <QCoreApplication>
#include <QString>

#include <chrono>

#include "SecretStore.h"

namespace qcode {

// API keys in the OS keychain through QtKeychain, one entry per provider
// under the service name. Each call starts a keychain job and awaits its
// finished signal; nothing blocks and no event loop is nested.
class KeychainSecretStore : public SecretStore
{
    Q_DECLARE_TR_FUNCTIONS(KeychainSecretStore)

public:
    explicit KeychainSecretStore(QString service = QStringLiteral("qcode"));

    QCoro::Task<Result<std::optional<QString>>> readKey(QString providerID) override;
    QCoro::Task<Result<void>> writeKey(QString providerID, QString key) override;
    QCoro::Task<Result<void>> deleteKey(QString providerID) override;

private:
    static QString entryName(const QString &providerID);

    QString m_service;
    // A keychain that never answers (a locked wallet nobody unlocks) must
    // not hold a key lookup forever.
    std::chrono::milliseconds m_timeout{std::chrono::seconds(30)};
};

} // namespace qcode
