#include "KeychainSecretStore.h"

#include <QCoro/QCoroSignal>
#include <qt6keychain/keychain.h>

#include "ConfigLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {

KeychainSecretStore::KeychainSecretStore(QString service) : m_service(std::move(service)) {}

QString KeychainSecretStore::entryName(const QString &providerID)
{
    return u"provider/"_s + providerID;
}

Error KeychainSecretStore::rememberUnavailable(const QString &message)
{
    m_unavailable = message;
    m_unavailableSince.start();
    return Error{message};
}

QCoro::Task<Result<std::optional<QString>>> KeychainSecretStore::readKey(QString providerID)
{
    // The job deletes itself after finished; the result is read before
    // control returns to the event loop.
    if (m_unavailable && m_unavailableSince.isValid() && !m_unavailableSince.hasExpired(UnavailableMemoryMs))
        co_return Error{*m_unavailable};
    auto *job = new QKeychain::ReadPasswordJob(m_service);
    job->setAutoDelete(true);
    job->setKey(entryName(providerID));
    job->start();
    const auto done = co_await qCoro(job, &QKeychain::Job::finished, m_timeout);
    if (!done) {
        qCWarning(lcProviders) << "keychain read timed out for provider" << providerID;
        co_return rememberUnavailable(tr("The system keychain did not answer in time."));
    }
    if (job->error() == QKeychain::EntryNotFound)
        co_return std::optional<QString>();
    if (job->error() == QKeychain::NoBackendAvailable) {
        qCWarning(lcProviders) << "no keychain:" << job->errorString();
        co_return rememberUnavailable(tr("No system keychain is available: %1").arg(job->errorString()));
    }
    if (job->error() != QKeychain::NoError) {
        qCWarning(lcProviders) << "keychain read failed for provider" << providerID << job->errorString();
        co_return Error{tr("Could not read the key for %1 from the system keychain: %2")
                            .arg(providerID, job->errorString())};
    }
    co_return std::optional<QString>(job->textData());
}

QCoro::Task<Result<void>> KeychainSecretStore::writeKey(QString providerID, QString key)
{
    auto *job = new QKeychain::WritePasswordJob(m_service);
    job->setAutoDelete(true);
    job->setKey(entryName(providerID));
    job->setTextData(key);
    job->start();
    const auto done = co_await qCoro(job, &QKeychain::Job::finished, m_timeout);
    if (!done)
        co_return Error{tr("The system keychain did not answer in time.")};
    if (job->error() != QKeychain::NoError) {
        co_return Error{tr("Could not store the key for %1 in the system keychain: %2")
                            .arg(providerID, job->errorString())};
    }
    co_return Result<void>();
}

QCoro::Task<Result<void>> KeychainSecretStore::deleteKey(QString providerID)
{
    auto *job = new QKeychain::DeletePasswordJob(m_service);
    job->setAutoDelete(true);
    job->setKey(entryName(providerID));
    job->start();
    const auto done = co_await qCoro(job, &QKeychain::Job::finished, m_timeout);
    if (!done)
        co_return Error{tr("The system keychain did not answer in time.")};
    if (job->error() != QKeychain::NoError && job->error() != QKeychain::EntryNotFound) {
        co_return Error{tr("Could not remove the key for %1 from the system keychain: %2")
                            .arg(providerID, job->errorString())};
    }
    co_return Result<void>();
}

} // namespace qcode
