#pragma once

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include "engine/catalogue/ModelCatalogue.h"
#include "engine/config/Config.h"
#include "engine/config/ConfigLocations.h"
#include "engine/config/LocalServer.h"

namespace qcode {

class AppSettings;
class Engine;
class SecretStore;
class Store;

// What the settings window works with. The pointers must outlive the
// dialog; any may be null, and the pages that need one then say why they
// cannot act.
struct SettingsContext {
    // Lives on another thread: only its queued calls
    // (setProjectApprovals) and its signals are used.
    Engine *engine = nullptr;
    // The GUI thread's own connection, for the saved approvals.
    Store *store = nullptr;
    AppSettings *app = nullptr;
    // The keychain (KeychainSecretStore) or a test double; null: none.
    SecretStore *secrets = nullptr;
    QString projectID;          // empty: no project open
    // qcode's global config folder (UserConfigWriter::directoryFor); its
    // qcode.json is the only file the window writes.
    QString configDirectory;
    // The data folder in use now; empty: DataPaths::dataDirectory().
    QString dataDirectory;

    // What the engine reads, for listing providers, keys and models.
    ModelCatalogue catalogue;
    Config config;              // merged, every config file
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // The agents a person can pick as the default (primary, not hidden), by
    // key; the first is the one used while default_agent is unset. Empty:
    // build and plan.
    QStringList agents;
    // Where to look for local model servers.
    QList<LocalServer> localServerProbes = LocalServer::defaultProbes();
    // Where the compiled translations are (qcode_<locale>.qm).
    QString translationsDirectory = QStringLiteral(":/i18n");

    // Fills configDirectory, catalogue, config, environment and agents as
    // the engine reads them for `locations` (quick file reads).
    void loadConfiguration(const ConfigLocations &locations, const QString &dataDirectory);
};

} // namespace qcode
