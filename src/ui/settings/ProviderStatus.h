#pragma once

#include <QCoreApplication>
#include <QList>
#include <QProcessEnvironment>
#include <QSet>
#include <QString>
#include <QStringList>

#include "engine/catalogue/ModelCatalogue.h"
#include "engine/config/Config.h"
#include "engine/config/ProviderInfo.h"

namespace qcode {

// One provider as the Providers page lists it: where its key would come
// from, in the registry's order (config, keychain, environment). The key
// itself is never held here.
struct ProviderStatus {
    Q_DECLARE_TR_FUNCTIONS(ProviderStatus)

public:
    QString id;
    QString name;
    QStringList env;       // the variables that may hold its key
    bool local = false;    // a server on this machine: needs no key
    bool custom = false;   // defined in a config file, not in the catalogue
    KeySource keySource = KeySource::None;
    QString keyVariable;   // the variable that holds it, for Environment

    // "Key from ANTHROPIC_API_KEY", "Key in the system keychain", "No key" …
    QString keyDescription() const;
    // The variable to set when no keychain can hold the key.
    QString suggestedVariable() const;

    // The catalogue's providers (local ones left out: they have their own
    // list) and the config's own, catalogue order first.
    static QList<ProviderStatus> list(const ModelCatalogue &catalogue, const Config &config,
                                      const QProcessEnvironment &environment, const QSet<QString> &keychainIds);
};

} // namespace qcode
