#include "KeychainSecretStore.h"

#include <QMutexLocker>

#include "ConfigLogging.h"
#include "KeychainJob.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

enum class Operation { Read, Write, Delete };

// Runs one job on the entry `entry` of `service` (runKeychainJob: on the
// main thread, whichever thread asks); `key` is what a write stores.
QCoro::Task<KeychainOutcome> runOn(Operation operation, QString service, QString entry,
                                   std::chrono::milliseconds timeout, QString key = {})
{
    // Named, not a temporary of the co_await: GCC 12 destroys such a
    // temporary twice.
    const std::function<QKeychain::Job *()> make = [operation, service, entry, key]() -> QKeychain::Job * {
        QKeychain::Job *job = nullptr;
        switch (operation) {
        case Operation::Read:
            job = new QKeychain::ReadPasswordJob(service);
            break;
        case Operation::Write: {
            auto *write = new QKeychain::WritePasswordJob(service);
            write->setTextData(key);
            job = write;
            break;
        }
        case Operation::Delete:
            job = new QKeychain::DeletePasswordJob(service);
            break;
        }
        job->setKey(entry);
        return job;
    };
    QCoro::Task<KeychainOutcome> running = runKeychainJob(make, timeout);
    co_return co_await running;
}

} // namespace

KeychainSecretStore::KeychainSecretStore(QString service) : m_service(std::move(service)) {}

QString KeychainSecretStore::entryName(const QString &providerID)
{
    return u"provider/"_s + providerID;
}

std::optional<QString> KeychainSecretStore::knownUnavailable() const
{
    const QMutexLocker lock(&m_mutex);
    if (m_unavailable && m_unavailableSince.isValid() && !m_unavailableSince.hasExpired(UnavailableMemoryMs))
        return m_unavailable;
    return std::nullopt;
}

Error KeychainSecretStore::rememberUnavailable(const QString &message)
{
    const QMutexLocker lock(&m_mutex);
    m_unavailable = message;
    m_unavailableSince.start();
    return Error{message};
}

QCoro::Task<Result<std::optional<QString>>> KeychainSecretStore::readKey(QString providerID)
{
    if (const std::optional<QString> unavailable = knownUnavailable())
        co_return Error{*unavailable};
    QCoro::Task<KeychainOutcome> reading = runOn(Operation::Read, m_service, entryName(providerID), m_timeout);
    const KeychainOutcome done = co_await reading;
    if (!done.answered) {
        qCWarning(lcProviders) << "keychain read timed out for provider" << providerID;
        co_return rememberUnavailable(tr("The system keychain did not answer in time."));
    }
    if (done.error == QKeychain::EntryNotFound)
        co_return std::optional<QString>();
    if (done.error == QKeychain::NoBackendAvailable) {
        qCInfo(lcProviders) << "no keychain:" << done.errorString;
        co_return rememberUnavailable(tr("No system keychain is available: %1").arg(done.errorString));
    }
    if (done.error != QKeychain::NoError) {
        // Expected where no keychain runs (a server, a container): the
        // caller reports it to the person once, so the log only notes it.
        qCInfo(lcProviders) << "keychain read failed for provider" << providerID << done.errorString;
        co_return Error{tr("Could not read the key for %1 from the system keychain: %2")
                            .arg(providerID, done.errorString)};
    }
    co_return std::optional<QString>(done.text);
}

QCoro::Task<Result<void>> KeychainSecretStore::writeKey(QString providerID, QString key)
{
    QCoro::Task<KeychainOutcome> writing =
        runOn(Operation::Write, m_service, entryName(providerID), m_timeout, std::move(key));
    const KeychainOutcome done = co_await writing;
    if (!done.answered)
        co_return Error{tr("The system keychain did not answer in time.")};
    if (done.error != QKeychain::NoError) {
        co_return Error{tr("Could not store the key for %1 in the system keychain: %2")
                            .arg(providerID, done.errorString)};
    }
    co_return Result<void>();
}

QCoro::Task<Result<void>> KeychainSecretStore::deleteKey(QString providerID)
{
    QCoro::Task<KeychainOutcome> deleting = runOn(Operation::Delete, m_service, entryName(providerID), m_timeout);
    const KeychainOutcome done = co_await deleting;
    if (!done.answered)
        co_return Error{tr("The system keychain did not answer in time.")};
    if (done.error != QKeychain::NoError && done.error != QKeychain::EntryNotFound) {
        co_return Error{tr("Could not remove the key for %1 from the system keychain: %2")
                            .arg(providerID, done.errorString)};
    }
    co_return Result<void>();
}

} // namespace qcode
