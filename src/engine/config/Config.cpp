#include "Config.h"

#include <QJsonArray>

#include "ConfigLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {

Config Config::fromJson(const QJsonObject &json)
{
    Config c;
    c.m_json = json;

    const auto optionalString = [&](QLatin1StringView key) -> std::optional<QString> {
        const QJsonValue v = json.value(key);
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if (!v.isString() || v.toString().isEmpty()) {
            c.m_problems.append(tr("The config key \"%1\" must be a \"provider/model\" string; it is ignored.").arg(key));
            return std::nullopt;
        }
        return v.toString();
    };
    c.m_model = optionalString("model"_L1);
    c.m_smallModel = optionalString("small_model"_L1);

    const auto stringList = [&](QLatin1StringView key) -> std::optional<QStringList> {
        const QJsonValue v = json.value(key);
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if (!v.isArray()) {
            c.m_problems.append(tr("The config key \"%1\" must be a list of provider ids; it is ignored.").arg(key));
            return std::nullopt;
        }
        QStringList out;
        for (const QJsonValue &item : v.toArray()) {
            if (item.isString())
                out.append(item.toString());
        }
        return out;
    };
    c.m_disabledProviders = stringList("disabled_providers"_L1).value_or(QStringList());
    c.m_enabledProviders = stringList("enabled_providers"_L1);

    const QJsonValue providers = json.value("provider"_L1);
    if (providers.isObject()) {
        const QJsonObject map = providers.toObject();
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!it.value().isObject()) {
                c.m_problems.append(tr("The config entry provider.%1 must be an object; it is ignored.").arg(it.key()));
                continue;
            }
            c.m_providers.append(ProviderConfig::fromJson(it.key(), it.value().toObject(), &c.m_problems));
        }
    } else if (!providers.isUndefined() && !providers.isNull()) {
        c.m_problems.append(tr("The config key \"provider\" must be an object; it is ignored."));
    }
    for (const QString &problem : std::as_const(c.m_problems))
        qCWarning(lcConfig).noquote() << problem;
    return c;
}

const ProviderConfig *Config::provider(const QString &id) const
{
    for (const ProviderConfig &p : m_providers) {
        if (p.id == id)
            return &p;
    }
    return nullptr;
}

} // namespace qcode
