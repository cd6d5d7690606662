#pragma once

#include <QString>

#include <optional>

#include <QCoro/QCoroTask>

#include "model/Result.h"

namespace qcode {

// Where API keys a person entered in qcode are kept: the OS keychain in
// the app, an in-memory fake in tests. Every call is asynchronous (a
// keychain may prompt or talk D-Bus), and arguments are taken by value so
// they outlive the caller's frame across the suspension.
class SecretStore
{
public:
    virtual ~SecretStore() = default;

    // No stored key is an empty optional, not an error.
    virtual QCoro::Task<Result<std::optional<QString>>> readKey(QString providerID) = 0;
    virtual QCoro::Task<Result<void>> writeKey(QString providerID, QString key) = 0;
    virtual QCoro::Task<Result<void>> deleteKey(QString providerID) = 0;
};

} // namespace qcode
