#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QProcessEnvironment>
#include <QStringList>

#include <optional>

#include <QCoro/QCoroTask>

#include "Config.h"
#include "LocalServer.h"
#include "ProviderInfo.h"
#include "engine/catalogue/ModelCatalogue.h"
#include "model/Message.h"

namespace qcode {

class SecretStore;

// The providers qcode can use right now, resolved as OpenCode resolves
// them (provider.ts): the catalogue with config providers merged over it,
// each given a key from the config, the keychain or the environment (in
// that order), plus the local servers that answered. A catalogue provider
// without a key is not offered; a config-defined or local one always is.
// `enabled_providers` / `disabled_providers` filter the result.
class ProviderRegistry : public QObject
{
    Q_OBJECT

public:
    // `secrets` may be null (no keychain); it must outlive the registry.
    ProviderRegistry(ModelCatalogue catalogue, Config config, QProcessEnvironment environment,
                     SecretStore *secrets, QObject *parent = nullptr);

    const QList<ProviderInfo> &providers() const { return m_providers; }
    const ProviderInfo *provider(const QString &id) const;
    // Problems found while resolving (unknown npm package, no base URL,
    // keychain errors), one sentence each.
    const QStringList &problems() const { return m_problems; }
    const ModelCatalogue &catalogue() const { return m_merged; }

    // Reads the keychain for every provider that could use a key; emits
    // providersChanged() once done.
    QCoro::Task<> loadStoredKeys();
    QCoro::Task<Result<void>> storeKey(QString providerID, QString key);
    QCoro::Task<Result<void>> forgetKey(QString providerID);

    void setLocalServers(const QList<LocalServer> &servers);

    // `model` from the config, else the first model of the first usable
    // provider in OpenCode's priority order.
    Result<ModelRef> defaultModel() const;
    // `small_model` from the config, else the provider's cheapest fitting
    // model in OpenCode's priority list; none if nothing fits.
    std::optional<ModelRef> smallModel(const QString &providerID) const;

    // "provider/model" → the provider is before the first slash, the
    // model is everything after (OpenRouter ids contain slashes).
    static std::optional<ModelRef> parseModel(const QString &text);
    // OpenCode's Provider.sort: priority list, then "latest", then id descending.
    static QList<ModelInfo> sortedModels(QList<ModelInfo> models);

Q_SIGNALS:
    void providersChanged();

private:
    void rebuild();
    std::optional<ProviderInfo> resolve(const CatalogueProvider &entry, const ProviderConfig *config,
                                        const LocalServer *local);
    QStringList keyedProviderIds() const;

    ModelCatalogue m_catalogue;
    Config m_config;
    QProcessEnvironment m_environment;
    SecretStore *m_secrets = nullptr;
    QHash<QString, QString> m_storedKeys;
    QList<LocalServer> m_localServers;

    ModelCatalogue m_merged;
    QList<ProviderInfo> m_providers;
    QStringList m_problems;
    QStringList m_keychainProblems;
};

} // namespace qcode
