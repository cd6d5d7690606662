#include "ModelInfo.h"

#include <QJsonArray>

#include <cmath>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Reads optional fields of one JSON object over existing values and
// remembers the first type error, so a bad entry is reported once with
// the path of the field that is wrong.
class FieldReader
{
public:
    explicit FieldReader(QString &error) : m_error(error) {}

    void number(const QJsonObject &o, QLatin1StringView key, const QString &path, double &out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull())
            return;
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < 0) {
            fail(ModelInfo::tr("%1 must be a number of at least 0").arg(path));
            return;
        }
        out = v.toDouble();
    }

    void count(const QJsonObject &o, QLatin1StringView key, const QString &path, qint64 &out)
    {
        double value = double(out);
        number(o, key, path, value);
        if (value != std::floor(value) || value > 1e15)
            fail(ModelInfo::tr("%1 must be a whole number of tokens").arg(path));
        else
            out = qint64(value);
    }

    void boolean(const QJsonObject &o, QLatin1StringView key, bool &out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull())
            return;
        if (!v.isBool()) {
            fail(ModelInfo::tr("%1 must be true or false").arg(key));
            return;
        }
        out = v.toBool();
    }

    void string(const QJsonObject &o, QLatin1StringView key, const QString &path, QString &out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull())
            return;
        if (!v.isString()) {
            fail(ModelInfo::tr("%1 must be a string").arg(path));
            return;
        }
        out = v.toString();
    }

    // An object field: returns it (empty when absent), reporting a wrong type.
    QJsonObject object(const QJsonObject &o, QLatin1StringView key, const QString &path)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull())
            return {};
        if (!v.isObject()) {
            fail(ModelInfo::tr("%1 must be an object").arg(path));
            return {};
        }
        return v.toObject();
    }

    void fail(const QString &message)
    {
        if (m_error.isEmpty())
            m_error = message;
    }

private:
    QString &m_error;
};

void readPrices(FieldReader &reader, const QJsonObject &o, const QString &prefix, ModelPrices &prices)
{
    reader.number(o, "input"_L1, prefix + u"input"_s, prices.input);
    reader.number(o, "output"_L1, prefix + u"output"_s, prices.output);
    reader.number(o, "cache_read"_L1, prefix + u"cache_read"_s, prices.cacheRead);
    reader.number(o, "cache_write"_L1, prefix + u"cache_write"_s, prices.cacheWrite);
}

QJsonObject pricesJson(const ModelPrices &p)
{
    return QJsonObject{{"input"_L1, p.input},
                       {"output"_L1, p.output},
                       {"cache_read"_L1, p.cacheRead},
                       {"cache_write"_L1, p.cacheWrite}};
}

} // namespace

Result<ModelInfo> ModelInfo::fromJson(const QString &providerID, const QString &id, const QJsonObject &json)
{
    ModelInfo base;
    base.id = id;
    base.apiId = id;
    base.name = id;
    base.providerID = providerID;
    return fromJson(providerID, id, json, base);
}

Result<ModelInfo> ModelInfo::fromJson(const QString &providerID, const QString &id, const QJsonObject &json,
                                      const ModelInfo &base)
{
    QString error;
    FieldReader reader(error);
    ModelInfo m = base;
    m.id = id;
    m.providerID = providerID;
    if (m.apiId.isEmpty())
        m.apiId = id;
    if (m.name.isEmpty())
        m.name = id;

    reader.string(json, "id"_L1, u"id"_s, m.apiId);
    reader.string(json, "name"_L1, u"name"_s, m.name);
    reader.string(json, "family"_L1, u"family"_s, m.family);
    reader.string(json, "release_date"_L1, u"release_date"_s, m.releaseDate);
    reader.string(json, "status"_L1, u"status"_s, m.status);
    if (!m.status.isEmpty() && m.status != "alpha"_L1 && m.status != "beta"_L1 && m.status != "deprecated"_L1)
        reader.fail(tr("status must be alpha, beta or deprecated"));

    reader.boolean(json, "tool_call"_L1, m.capabilities.tools);
    reader.boolean(json, "reasoning"_L1, m.capabilities.reasoning);
    reader.boolean(json, "temperature"_L1, m.capabilities.temperature);
    reader.boolean(json, "attachment"_L1, m.capabilities.attachment);

    const QJsonObject modalities = reader.object(json, "modalities"_L1, u"modalities"_s);
    if (modalities.contains("input"_L1)) {
        const QJsonValue input = modalities.value("input"_L1);
        if (!input.isArray()) {
            reader.fail(tr("modalities.input must be a list of strings"));
        } else {
            const QJsonArray list = input.toArray();
            m.capabilities.imageInput = list.contains(QJsonValue(u"image"_s));
            m.capabilities.pdfInput = list.contains(QJsonValue(u"pdf"_s));
        }
    }

    const QJsonObject limit = reader.object(json, "limit"_L1, u"limit"_s);
    reader.count(limit, "context"_L1, u"limit.context"_s, m.limits.context);
    reader.count(limit, "input"_L1, u"limit.input"_s, m.limits.input);
    reader.count(limit, "output"_L1, u"limit.output"_s, m.limits.output);

    const QJsonObject cost = reader.object(json, "cost"_L1, u"cost"_s);
    readPrices(reader, cost, u"cost."_s, m.cost.base);
    const QJsonObject over = reader.object(cost, "context_over_200k"_L1, u"cost.context_over_200k"_s);
    if (!over.isEmpty()) {
        if (!m.cost.hasOver200k)
            m.cost.over200k = m.cost.base; // a tier that names only some prices keeps the others
        readPrices(reader, over, u"cost.context_over_200k."_s, m.cost.over200k);
        m.cost.hasOver200k = true;
    }

    const QJsonObject provider = reader.object(json, "provider"_L1, u"provider"_s);
    reader.string(provider, "npm"_L1, u"provider.npm"_s, m.npm);

    // Options and variants deep-merge in the config layer already; here a
    // config entry's object replaces the catalogue's key by key.
    const QJsonObject options = reader.object(json, "options"_L1, u"options"_s);
    for (auto it = options.begin(); it != options.end(); ++it)
        m.options.insert(it.key(), it.value());
    const QJsonObject headers = reader.object(json, "headers"_L1, u"headers"_s);
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        if (!it.value().isString())
            reader.fail(tr("headers.%1 must be a string").arg(it.key()));
        m.headers.insert(it.key(), it.value());
    }
    const QJsonObject variants = reader.object(json, "variants"_L1, u"variants"_s);
    for (auto it = variants.begin(); it != variants.end(); ++it)
        m.variants.insert(it.key(), it.value());

    if (m.limits.input > 0 && m.limits.context > 0 && m.limits.input > m.limits.context)
        reader.fail(tr("limit.input must not exceed limit.context"));

    if (!error.isEmpty())
        return Error{tr("Model %1/%2: %3").arg(providerID, id, error)};
    return m;
}

QJsonObject ModelInfo::toJson() const
{
    QJsonArray input{u"text"_s};
    if (capabilities.imageInput)
        input.append(u"image"_s);
    if (capabilities.pdfInput)
        input.append(u"pdf"_s);
    QJsonObject limit{{"context"_L1, limits.context}, {"output"_L1, limits.output}};
    if (limits.input > 0)
        limit.insert("input"_L1, limits.input);
    QJsonObject costJson = pricesJson(cost.base);
    if (cost.hasOver200k)
        costJson.insert("context_over_200k"_L1, pricesJson(cost.over200k));

    QJsonObject o{{"id"_L1, apiId},
                  {"name"_L1, name},
                  {"tool_call"_L1, capabilities.tools},
                  {"reasoning"_L1, capabilities.reasoning},
                  {"temperature"_L1, capabilities.temperature},
                  {"attachment"_L1, capabilities.attachment},
                  {"modalities"_L1, QJsonObject{{"input"_L1, input}, {"output"_L1, QJsonArray{u"text"_s}}}},
                  {"limit"_L1, limit},
                  {"cost"_L1, costJson}};
    if (!family.isEmpty())
        o.insert("family"_L1, family);
    if (!releaseDate.isEmpty())
        o.insert("release_date"_L1, releaseDate);
    if (!status.isEmpty())
        o.insert("status"_L1, status);
    if (!npm.isEmpty())
        o.insert("provider"_L1, QJsonObject{{"npm"_L1, npm}});
    if (!options.isEmpty())
        o.insert("options"_L1, options);
    if (!headers.isEmpty())
        o.insert("headers"_L1, headers);
    if (!variants.isEmpty())
        o.insert("variants"_L1, variants);
    return o;
}

} // namespace qcode
