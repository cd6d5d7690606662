#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

#include "engine/config/SecretStore.h"

namespace qcode::test {

// An in-memory keychain for tests. Every call answers on a later turn of
// the event loop, as a real keychain does, so callers' asynchronous paths
// are the ones exercised.
class FakeSecretStore : public SecretStore
{
public:
    QHash<QString, QString> keys;
    QStringList locked;              // providers whose entry cannot be read
    std::optional<QString> failure;  // every read fails with this while set
    int reads = 0;

    QCoro::Task<Result<std::optional<QString>>> readKey(QString providerID) override;
    QCoro::Task<Result<void>> writeKey(QString providerID, QString key) override;
    QCoro::Task<Result<void>> deleteKey(QString providerID) override;
};

} // namespace qcode::test
