#pragma once

#include <QObject>
#include <QThread>

#include <memory>

#include "engine/Engine.h"
#include "engine/config/SecretStore.h"

namespace qcode {

// The engine on a thread of its own (DESIGN.md §2), for the app's
// lifetime: made and opened at start, and at exit stopped on its own
// thread before the thread ends, so no loop outlives the objects it uses.
// Unless the options bring their own, the engine reads API keys from the
// OS keychain, where Settings saves them, or where none runs from the
// private key file Settings then writes (FallbackSecretStore).
class EngineHost : public QObject
{
    Q_OBJECT

public:
    explicit EngineHost(EngineOptions options = {}, QObject *parent = nullptr);
    ~EngineHost() override;

    Engine *engine() const { return m_engine; }

private:
    std::unique_ptr<SecretStore> m_keychain; // both outlive the engine
    std::unique_ptr<SecretStore> m_secrets;
    QThread m_thread;
    Engine *m_engine = nullptr;
};

} // namespace qcode
