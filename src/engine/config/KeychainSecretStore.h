#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMutex>
#include <QString>

#include <chrono>
#include <optional>

#include "SecretStore.h"

namespace qcode {

// API keys in the OS keychain through QtKeychain, one entry per provider
// under the service name. Each call runs a keychain job (on the main
// thread, see runKeychainJob) and awaits its outcome; nothing blocks and
// no event loop is nested. One store may be used from several threads.
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
    std::optional<QString> knownUnavailable() const;
    Error rememberUnavailable(const QString &message);

    QString m_service;
    // Keys are read one provider after another. A keychain that is not
    // there, or does not answer, fails every one of them the same way; for
    // a short while after such a failure reads fail at once with it
    // instead of each waiting out its own timeout (minutes for a batch).
    // Afterwards the keychain is asked again: it may have been unlocked.
    static constexpr qint64 UnavailableMemoryMs = 10000;
    mutable QMutex m_mutex; // the two below: callers may be on any thread
    std::optional<QString> m_unavailable;
    QElapsedTimer m_unavailableSince;
    // A keychain that never answers (a locked wallet nobody unlocks) must
    // not hold a key lookup forever.
    std::chrono::milliseconds m_timeout{std::chrono::seconds(30)};
};

} // namespace qcode
