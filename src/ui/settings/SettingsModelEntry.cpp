#include "SettingsModelEntry.h"

#include "engine/config/ProviderRegistry.h"

using namespace Qt::StringLiterals;

namespace qcode {

QList<SettingsModelEntry> SettingsModelEntry::list(const ModelCatalogue &catalogue, const Config &config,
                                     const QList<LocalServer> &servers)
{
    // The registry merges config and servers over the catalogue exactly as
    // the engine will; no environment and no keychain are needed for that.
    ProviderRegistry registry(catalogue, config, QProcessEnvironment(), nullptr);
    registry.setLocalServers(servers);
    QList<SettingsModelEntry> out;
    for (const CatalogueProvider &provider : registry.catalogue().providers()) {
        const bool answered = std::any_of(servers.cbegin(), servers.cend(),
                                          [&](const LocalServer &s) { return s.providerID == provider.id; });
        if (provider.local && !answered && !config.provider(provider.id))
            continue;
        const QString providerName = provider.name.isEmpty() ? provider.id : provider.name;
        for (const ModelInfo &model : provider.models) {
            if (model.status == "deprecated"_L1)
                continue;
            const QString name = model.name.isEmpty() ? model.id : model.name;
            out.append({provider.id + QLatin1Char('/') + model.id, u"%1 · %2"_s.arg(name, providerName)});
        }
    }
    return out;
}

} // namespace qcode
