#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QMutex>
#include <QString>

#include <atomic>

#include "SecretStore.h"

namespace qcode {

// The system keychain, and where none runs (a desktop without a Secret
// Service, a container) a private file instead: a key typed in Settings is
// kept rather than refused. The file is JSON `{providerID: key}`, readable
// by its owner alone (0600), in qcode's config folder. Keys in the file are
// found even after a keychain appears; a key the keychain takes is removed
// from the file.
class FallbackSecretStore : public SecretStore
{
    Q_DECLARE_TR_FUNCTIONS(FallbackSecretStore)

public:
    // `keychain` is not owned and must outlive this store.
    FallbackSecretStore(SecretStore *keychain, QString filePath);

    QCoro::Task<Result<std::optional<QString>>> readKey(QString providerID) override;
    QCoro::Task<Result<void>> writeKey(QString providerID, QString key) override;
    QCoro::Task<Result<void>> deleteKey(QString providerID) override;

    // True once the keychain failed: keys are kept in keyFilePath().
    bool usesKeyFile() const { return m_keychainFailed.load(); }
    QString keyFilePath() const { return m_filePath; }
    // `secrets` when it falls back to a key file, else null.
    static const FallbackSecretStore *of(const SecretStore *secrets)
    {
        return dynamic_cast<const FallbackSecretStore *>(secrets);
    }

    // qcode's key file in the config folder `configDirectory`.
    static QString filePathIn(const QString &configDirectory);
    // The key file in qcode's own config folder, beside qcode.json.
    static QString systemFilePath();

private:
    Result<QJsonObject> readFile() const;
    Result<void> writeFile(const QJsonObject &keys) const;
    Result<void> changeFile(const QString &providerID, const std::optional<QString> &key);

    SecretStore *m_keychain;
    QString m_filePath;
    std::atomic<bool> m_keychainFailed{false};
    mutable QMutex m_fileMutex; // the engine's thread reads while Settings writes
};

} // namespace qcode
