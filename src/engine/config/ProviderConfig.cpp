#include "ProviderConfig.h"

#include <QCoreApplication>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QStringList stringList(const QJsonValue &value, const QString &what, QStringList *problems)
{
    QStringList out;
    if (value.isUndefined() || value.isNull())
        return out;
    if (!value.isArray()) {
        if (problems)
            problems->append(QCoreApplication::translate("qcode::ProviderConfig", "%1 must be a list of strings").arg(what));
        return out;
    }
    for (const QJsonValue &item : value.toArray()) {
        if (item.isString())
            out.append(item.toString());
    }
    return out;
}

} // namespace

ProviderConfig ProviderConfig::fromJson(const QString &id, const QJsonObject &json, QStringList *problems)
{
    ProviderConfig p;
    p.id = id;
    p.raw = json;
    p.name = json.value("name"_L1).toString();
    p.npm = json.value("npm"_L1).toString();
    p.api = json.value("api"_L1).toString();
    const QString prefix = u"provider.%1."_s.arg(id);
    p.env = stringList(json.value("env"_L1), prefix + u"env"_s, problems);
    const QJsonValue options = json.value("options"_L1);
    if (options.isObject())
        p.options = options.toObject();
    else if (!options.isUndefined() && !options.isNull() && problems)
        problems->append(QCoreApplication::translate("qcode::ProviderConfig", "%1 must be an object").arg(prefix + u"options"_s));
    p.models = json.value("models"_L1).toObject();
    if (json.contains("whitelist"_L1))
        p.whitelist = stringList(json.value("whitelist"_L1), prefix + u"whitelist"_s, problems);
    p.blacklist = stringList(json.value("blacklist"_L1), prefix + u"blacklist"_s, problems);
    return p;
}

QString ProviderConfig::baseURL() const
{
    const QString fromOptions = options.value("baseURL"_L1).toString();
    return fromOptions.isEmpty() ? api : fromOptions;
}

std::optional<QString> ProviderConfig::apiKey() const
{
    const QString key = options.value("apiKey"_L1).toString();
    return key.isEmpty() ? std::nullopt : std::optional<QString>(key);
}

QJsonObject ProviderConfig::headers() const
{
    return options.value("headers"_L1).toObject();
}

} // namespace qcode
