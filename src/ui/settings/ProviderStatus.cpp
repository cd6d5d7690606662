#include "ProviderStatus.h"

#include "engine/config/UserConfigWriter.h"

namespace qcode {

QString ProviderStatus::keyDescription() const
{
    switch (keySource) {
    case KeySource::Config:
        return tr("Key set in the config (options.apiKey)");
    case KeySource::Keychain:
        return tr("Key in the system keychain");
    case KeySource::Environment:
        return tr("Key from %1").arg(keyVariable);
    case KeySource::None:
        break;
    }
    if (local)
        return tr("Runs on this computer; no key needed");
    return custom ? tr("No key (none may be needed)") : tr("No key");
}

QString ProviderStatus::suggestedVariable() const
{
    return env.isEmpty() ? CompatibleProvider::keyVariable(id) : env.constFirst();
}

QList<ProviderStatus> ProviderStatus::list(const ModelCatalogue &catalogue, const Config &config,
                                           const QProcessEnvironment &environment, const QSet<QString> &keychainIds)
{
    QList<ProviderStatus> out;
    const auto describe = [&](ProviderStatus status) {
        const ProviderConfig *configured = config.provider(status.id);
        if (configured && status.env.isEmpty())
            status.env = configured->env;
        if (configured && configured->apiKey()) {
            status.keySource = KeySource::Config;
        } else if (keychainIds.contains(status.id)) {
            status.keySource = KeySource::Keychain;
        } else {
            for (const QString &variable : std::as_const(status.env)) {
                if (!environment.value(variable).isEmpty()) {
                    status.keySource = KeySource::Environment;
                    status.keyVariable = variable;
                    break;
                }
            }
        }
        out.append(status);
    };
    for (const CatalogueProvider &entry : catalogue.providers()) {
        if (entry.local)
            continue;
        describe(ProviderStatus{entry.id, entry.name.isEmpty() ? entry.id : entry.name, entry.env, false, false,
                                KeySource::None, {}});
    }
    for (const ProviderConfig &configured : config.providers()) {
        if (catalogue.provider(configured.id))
            continue;
        describe(ProviderStatus{configured.id, configured.name.isEmpty() ? configured.id : configured.name,
                                configured.env, false, true, KeySource::None, {}});
    }
    return out;
}

} // namespace qcode
