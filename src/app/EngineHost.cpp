#include "EngineHost.h"

#include <QLoggingCategory>

#include "engine/config/FallbackSecretStore.h"
#include "engine/config/KeychainSecretStore.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

Q_LOGGING_CATEGORY(lcEngineHost, "qcode.app.engine", QtInfoMsg)

// How long closing the window waits for the engine to wind down.
constexpr int WindDownTimeoutMs = 5000;

} // namespace

EngineHost::EngineHost(EngineOptions options, QObject *parent) : QObject(parent)
{
    if (!options.secrets) {
        m_keychain = std::make_unique<KeychainSecretStore>();
        m_secrets = std::make_unique<FallbackSecretStore>(m_keychain.get(), FallbackSecretStore::systemFilePath());
        options.secrets = m_secrets.get();
    }
    // The app offers the models of a local server that is running, as
    // Settings shows it; `qcode run` and tests leave the probes empty.
    options.localServerProbes = LocalServer::defaultProbes();
    m_thread.setObjectName(u"qcode-engine"_s);
    m_engine = new Engine(std::move(options));
    m_engine->moveToThread(&m_thread);
    // The engine is deleted on its own thread, after the event loop's
    // last turn: its sockets, timers and database connection live there.
    connect(&m_thread, &QThread::finished, m_engine, &QObject::deleteLater);
    m_thread.start();
    m_engine->open();
}

EngineHost::~EngineHost()
{
    // A title still being generated is cut, and its task ends, before the
    // engine's thread does; a wind-down that never ends is not waited for.
    connect(m_engine, &Engine::woundDown, &m_thread, &QThread::quit, Qt::DirectConnection);
    m_engine->windDown(0);
    if (!m_thread.wait(WindDownTimeoutMs)) {
        qCWarning(lcEngineHost) << "the engine did not wind down in" << WindDownTimeoutMs << "ms; stopping it";
        m_thread.quit();
        m_thread.wait();
    }
}

} // namespace qcode
