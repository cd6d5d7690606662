#include "FallbackSecretStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMutexLocker>
#include <QSaveFile>

#include "ConfigLocations.h"
#include "ConfigLogging.h"
#include "UserConfigWriter.h"

using namespace Qt::StringLiterals;

namespace qcode {

FallbackSecretStore::FallbackSecretStore(SecretStore *keychain, QString filePath)
    : m_keychain(keychain), m_filePath(std::move(filePath))
{
}

QString FallbackSecretStore::filePathIn(const QString &configDirectory)
{
    return QDir::cleanPath(QDir(configDirectory).filePath(u"qcode-keys.json"_s));
}

QString FallbackSecretStore::systemFilePath()
{
    return filePathIn(UserConfigWriter::directoryFor(ConfigLocations::forSystem(QDir::homePath(), {})));
}

QCoro::Task<Result<std::optional<QString>>> FallbackSecretStore::readKey(QString providerID)
{
    Result<std::optional<QString>> fromKeychain = co_await m_keychain->readKey(providerID);
    if (fromKeychain && fromKeychain->has_value())
        co_return fromKeychain;
    if (!fromKeychain) {
        qCInfo(lcProviders) << "keychain not readable, reading the key file:" << fromKeychain.errorMessage();
        m_keychainFailed = true;
    }
    const Result<QJsonObject> file = readFile();
    if (!file)
        co_return file.error();
    const QString key = file->value(providerID).toString();
    co_return key.isEmpty() ? std::nullopt : std::optional<QString>(key);
}

QCoro::Task<Result<void>> FallbackSecretStore::writeKey(QString providerID, QString key)
{
    const Result<void> toKeychain = co_await m_keychain->writeKey(providerID, key);
    if (toKeychain) {
        // The keychain holds it now; an older copy in the file would linger.
        if (QFileInfo::exists(m_filePath)) {
            if (const Result<void> removed = changeFile(providerID, std::nullopt); !removed)
                qCWarning(lcProviders) << "the key file kept an old key:" << removed.errorMessage();
        }
        co_return toKeychain;
    }
    qCInfo(lcProviders) << "keychain not writable, using the key file:" << toKeychain.errorMessage();
    m_keychainFailed = true;
    co_return changeFile(providerID, key);
}

QCoro::Task<Result<void>> FallbackSecretStore::deleteKey(QString providerID)
{
    const Result<void> fromKeychain = co_await m_keychain->deleteKey(providerID);
    if (!fromKeychain)
        m_keychainFailed = true;
    const Result<void> fromFile = QFileInfo::exists(m_filePath) ? changeFile(providerID, std::nullopt) : Result<void>();
    if (!fromFile)
        co_return fromFile;
    // Where no keychain runs the file was the only place the key was.
    co_return usesKeyFile() ? Result<void>() : fromKeychain;
}

Result<QJsonObject> FallbackSecretStore::readFile() const
{
    const QMutexLocker lock(&m_fileMutex);
    QFile file(m_filePath);
    if (!file.exists())
        return QJsonObject();
    if (!file.open(QIODevice::ReadOnly))
        return Error{tr("The key file %1 cannot be read: %2").arg(QDir::toNativeSeparators(m_filePath), file.errorString())};
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parse);
    if (!document.isObject())
        return Error{tr("The key file %1 is not a JSON object; its keys are not used.").arg(QDir::toNativeSeparators(m_filePath))};
    return document.object();
}

Result<void> FallbackSecretStore::writeFile(const QJsonObject &keys) const
{
    const QMutexLocker lock(&m_fileMutex);
    if (!QDir().mkpath(QFileInfo(m_filePath).absolutePath()))
        return Error{tr("The folder of the key file %1 cannot be made.").arg(QDir::toNativeSeparators(m_filePath))};
    QSaveFile file(m_filePath);
    if (!file.open(QIODevice::WriteOnly))
        return Error{tr("The key file %1 cannot be written: %2").arg(QDir::toNativeSeparators(m_filePath), file.errorString())};
    // Private before a key is in it.
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(QJsonDocument(keys).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return Error{tr("The key file %1 cannot be written: %2").arg(QDir::toNativeSeparators(m_filePath), file.errorString())};
    QFile::setPermissions(m_filePath, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return {};
}

Result<void> FallbackSecretStore::changeFile(const QString &providerID, const std::optional<QString> &key)
{
    Result<QJsonObject> keys = readFile();
    if (!keys)
        return keys.error();
    if (key)
        keys->insert(providerID, *key);
    else
        keys->remove(providerID);
    return writeFile(*keys);
}

} // namespace qcode
