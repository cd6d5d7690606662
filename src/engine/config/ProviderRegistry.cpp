#include "ProviderRegistry.h"

#include <QPointer>

#include <algorithm>

#include "ConfigLogging.h"
#include "NpmProtocol.h"
#include "SecretStore.h"

using namespace Qt::StringLiterals;

namespace qcode {

ProviderRegistry::ProviderRegistry(ModelCatalogue catalogue, Config config, QProcessEnvironment environment,
                                   SecretStore *secrets, QObject *parent)
    : QObject(parent)
    , m_catalogue(std::move(catalogue))
    , m_config(std::move(config))
    , m_environment(std::move(environment))
    , m_secrets(secrets)
{
    rebuild();
}

const ProviderInfo *ProviderRegistry::provider(const QString &id) const
{
    for (const ProviderInfo &p : m_providers) {
        if (p.id == id)
            return &p;
    }
    return nullptr;
}

QStringList ProviderRegistry::keyedProviderIds() const
{
    QStringList ids;
    for (const CatalogueProvider &p : m_merged.providers()) {
        if (!p.local)
            ids.append(p.id);
    }
    return ids;
}

QCoro::Task<> ProviderRegistry::loadStoredKeys()
{
    if (!m_secrets)
        co_return;
    QPointer<ProviderRegistry> self(this);
    SecretStore *secrets = m_secrets;
    const QStringList ids = keyedProviderIds();
    QHash<QString, QString> keys;
    QStringList problems;
    for (const QString &id : ids) {
        Result<std::optional<QString>> key = co_await secrets->readKey(id);
        if (!self)
            co_return;
        // A keychain that is not there fails every provider the same way:
        // one sentence says so, never one per provider.
        if (!key) {
            if (problems.isEmpty())
                problems.append(key.errorMessage());
        } else if (key->has_value() && !(*key)->isEmpty()) {
            keys.insert(id, **key);
        }
    }
    m_storedKeys = keys;
    m_keychainProblems = problems;
    rebuild();
    Q_EMIT providersChanged();
}

QCoro::Task<Result<void>> ProviderRegistry::storeKey(QString providerID, QString key)
{
    if (!m_secrets)
        co_return Error{tr("No system keychain is available to keep the key in.")};
    QPointer<ProviderRegistry> self(this);
    Result<void> written = co_await m_secrets->writeKey(providerID, key);
    if (!self || !written)
        co_return written;
    m_storedKeys.insert(providerID, key);
    rebuild();
    Q_EMIT providersChanged();
    co_return written;
}

QCoro::Task<Result<void>> ProviderRegistry::forgetKey(QString providerID)
{
    if (!m_secrets)
        co_return Error{tr("No system keychain is available.")};
    QPointer<ProviderRegistry> self(this);
    Result<void> removed = co_await m_secrets->deleteKey(providerID);
    if (!self || !removed)
        co_return removed;
    m_storedKeys.remove(providerID);
    rebuild();
    Q_EMIT providersChanged();
    co_return removed;
}

void ProviderRegistry::setLocalServers(const QList<LocalServer> &servers)
{
    m_localServers = servers;
    rebuild();
    Q_EMIT providersChanged();
}

void ProviderRegistry::rebuild()
{
    m_problems = m_config.problems();
    m_problems.append(m_catalogue.problems());
    m_problems.append(m_keychainProblems);
    m_merged = m_catalogue;

    // A detected server offers exactly the models it has, with the
    // catalogue's facts where it knows the model.
    for (const LocalServer &server : std::as_const(m_localServers)) {
        CatalogueProvider entry;
        if (const CatalogueProvider *known = m_catalogue.provider(server.providerID))
            entry = *known;
        entry.id = server.providerID;
        if (entry.name.isEmpty())
            entry.name = server.name;
        entry.npm = NpmProtocol::defaultPackage();
        entry.api = server.apiBaseUrl().toString();
        entry.local = true;
        QList<ModelInfo> models;
        for (const QString &id : server.models) {
            if (const ModelInfo *known = entry.model(id)) {
                models.append(*known);
                continue;
            }
            ModelInfo model;
            model.id = id;
            model.apiId = id;
            model.name = id;
            model.providerID = entry.id;
            models.append(model);
        }
        entry.models = models;
        m_merged.setProvider(entry);
    }

    for (const ProviderConfig &config : m_config.providers())
        m_merged.mergeConfigProvider(config.id, config.raw);
    for (const QString &problem : m_merged.problems()) {
        if (!m_problems.contains(problem))
            m_problems.append(problem);
    }

    m_providers.clear();
    for (const CatalogueProvider &entry : m_merged.providers()) {
        const ProviderConfig *config = m_config.provider(entry.id);
        const auto local = std::find_if(m_localServers.cbegin(), m_localServers.cend(),
                                        [&](const LocalServer &s) { return s.providerID == entry.id; });
        if (m_config.enabledProviders() && !m_config.enabledProviders()->contains(entry.id))
            continue;
        if (m_config.disabledProviders().contains(entry.id))
            continue;
        if (std::optional<ProviderInfo> info =
                resolve(entry, config, local == m_localServers.cend() ? nullptr : &*local))
            m_providers.append(*info);
    }
    for (const ProviderInfo &p : std::as_const(m_providers))
        qCDebug(lcProviders) << "usable provider" << p.id << "key source" << int(p.keySource) << p.keyVariable;
}

std::optional<ProviderInfo> ProviderRegistry::resolve(const CatalogueProvider &entry, const ProviderConfig *config,
                                                      const LocalServer *local)
{
    ProviderInfo info;
    info.id = entry.id;
    info.name = entry.name.isEmpty() ? entry.id : entry.name;
    info.npm = entry.npm.isEmpty() ? NpmProtocol::defaultPackage() : entry.npm;
    info.local = local != nullptr;

    // Key: config first, then what the person stored in qcode, then the
    // environment (OpenCode: config options, auth store, env).
    if (config && config->apiKey()) {
        info.key = ApiKey(*config->apiKey());
        info.keySource = KeySource::Config;
    } else if (m_storedKeys.contains(entry.id)) {
        info.key = ApiKey(m_storedKeys.value(entry.id));
        info.keySource = KeySource::Keychain;
    } else {
        for (const QString &variable : entry.env) {
            const QString value = m_environment.value(variable);
            if (!value.isEmpty()) {
                info.key = ApiKey(value);
                info.keySource = KeySource::Environment;
                info.keyVariable = variable;
                break;
            }
        }
    }
    // OpenCode lists a provider when it has a key or the config defines
    // it; a catalogue-only local provider needs its server to answer.
    if (!config && !local && (info.key.isEmpty() || entry.local))
        return std::nullopt;

    const std::optional<WireProtocol> protocol = NpmProtocol::forPackage(info.npm);
    if (!protocol) {
        m_problems.append(tr("Provider %1 uses the package %2, whose API qcode does not speak; it is left out.")
                              .arg(entry.id, info.npm));
        return std::nullopt;
    }
    info.protocol = *protocol;

    const QString base = config && !config->baseURL().isEmpty() ? config->baseURL() : entry.api;
    info.baseUrl = QUrl(base);
    if (base.isEmpty() || !info.baseUrl.isValid() || info.baseUrl.scheme().isEmpty()) {
        m_problems.append(tr("Provider %1 has no usable base URL; set provider.%1.options.baseURL.").arg(entry.id));
        return std::nullopt;
    }

    if (config) {
        const QJsonObject headers = config->headers();
        for (auto it = headers.begin(); it != headers.end(); ++it) {
            if (it.value().isString())
                info.headers.append({it.key().toUtf8(), it.value().toString().toUtf8()});
        }
        info.options = config->options;
        info.options.remove("apiKey"_L1);
        info.options.remove("baseURL"_L1);
        info.options.remove("headers"_L1);
    }

    const bool experimental = !m_environment.value(u"OPENCODE_ENABLE_EXPERIMENTAL_MODELS"_s).isEmpty();
    for (const ModelInfo &model : entry.models) {
        if (model.status == "deprecated"_L1 || (model.status == "alpha"_L1 && !experimental))
            continue;
        if (config && config->whitelist && !config->whitelist->contains(model.id))
            continue;
        if (config && config->blacklist.contains(model.id))
            continue;
        info.models.append(model);
    }
    if (info.models.isEmpty() && !local)
        return std::nullopt; // OpenCode drops providers left without models
    return info;
}

std::optional<ModelRef> ProviderRegistry::parseModel(const QString &text)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == text.size() - 1)
        return std::nullopt;
    return ModelRef{text.left(slash), text.mid(slash + 1)};
}

QList<ModelInfo> ProviderRegistry::sortedModels(QList<ModelInfo> models)
{
    static const QLatin1StringView priority[] = {"gpt-5"_L1, "claude-sonnet-4"_L1, "big-pickle"_L1, "gemini-3-pro"_L1};
    const auto rank = [](const ModelInfo &m) {
        int found = -1;
        for (int i = 0; i < int(std::size(priority)); ++i) {
            if (m.id.contains(priority[i])) {
                found = i;
                break;
            }
        }
        return found;
    };
    // remeda sortBy: findIndex descending, then "latest" first, then id
    // descending — the ordering OpenCode's default model comes from.
    std::stable_sort(models.begin(), models.end(), [&](const ModelInfo &a, const ModelInfo &b) {
        const int ra = rank(a), rb = rank(b);
        if (ra != rb)
            return ra > rb;
        const int la = a.id.contains("latest"_L1) ? 0 : 1, lb = b.id.contains("latest"_L1) ? 0 : 1;
        if (la != lb)
            return la < lb;
        return a.id > b.id;
    });
    return models;
}

Result<ModelRef> ProviderRegistry::defaultModel() const
{
    if (const std::optional<QString> configured = m_config.model()) {
        if (std::optional<ModelRef> ref = parseModel(*configured))
            return *ref;
        return Error{tr("The config's model \"%1\" is not of the form provider/model.").arg(*configured)};
    }
    // With providers in the config, the default comes from one of them.
    const auto eligible = [&](const ProviderInfo &p) {
        return m_config.providers().isEmpty() || m_config.provider(p.id) != nullptr;
    };
    const auto found = std::find_if(m_providers.cbegin(), m_providers.cend(), eligible);
    if (found == m_providers.cend())
        return Error{tr("No model provider is set up. Set an API key (for example ANTHROPIC_API_KEY or "
                        "OPENAI_API_KEY), add a provider to opencode.json, or start a local server such as Ollama.")};
    const QList<ModelInfo> sorted = sortedModels(found->models);
    if (sorted.isEmpty())
        return Error{tr("The provider %1 offers no models.").arg(found->name)};
    return ModelRef{found->id, sorted.constFirst().id};
}

std::optional<ModelRef> ProviderRegistry::smallModel(const QString &providerID) const
{
    if (const std::optional<QString> configured = m_config.smallModel())
        return parseModel(*configured);
    const ProviderInfo *p = provider(providerID);
    if (!p)
        return std::nullopt;
    QList<QLatin1StringView> priority{"claude-haiku-4-5"_L1, "claude-haiku-4.5"_L1, "3-5-haiku"_L1,
                                      "3.5-haiku"_L1,        "gemini-3-flash"_L1,   "gemini-2.5-flash"_L1,
                                      "gpt-5-nano"_L1};
    if (providerID.startsWith("opencode"_L1))
        priority = {"gpt-5-nano"_L1};
    else if (providerID.startsWith("github-copilot"_L1))
        priority = QList<QLatin1StringView>{"gpt-5-mini"_L1, "claude-haiku-4.5"_L1} + priority;
    for (QLatin1StringView item : std::as_const(priority)) {
        for (const ModelInfo &m : p->models) {
            if (m.id.contains(item))
                return ModelRef{p->id, m.id};
        }
    }
    return std::nullopt;
}

} // namespace qcode
