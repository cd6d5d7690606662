#include "ModelCatalogue.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include "CatalogueLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {

QString ModelCatalogue::bundledResourcePath()
{
    return u":/qcode/models.json"_s;
}

ModelCatalogue ModelCatalogue::bundled()
{
    QFile file(bundledResourcePath());
    if (!file.open(QIODevice::ReadOnly)) {
        ModelCatalogue empty;
        empty.m_problems.append(tr("The bundled model catalogue %1 is missing from this build.").arg(file.fileName()));
        qCWarning(lcCatalogue) << empty.m_problems.constLast();
        return empty;
    }
    return fromJson(file.readAll(), u"models.json"_s);
}

ModelCatalogue ModelCatalogue::fromJson(const QByteArray &json, const QString &source)
{
    ModelCatalogue catalogue;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        catalogue.m_problems.append(
            tr("%1 is not a JSON object (%2 at byte %3).")
                .arg(source, parseError.errorString())
                .arg(parseError.offset));
        qCWarning(lcCatalogue) << catalogue.m_problems.constLast();
        return catalogue;
    }
    const QJsonObject root = document.object();
    catalogue.m_updated = root.value("updated"_L1).toString();
    const QJsonValue providers = root.value("providers"_L1);
    if (!providers.isObject()) {
        catalogue.m_problems.append(tr("%1 has no \"providers\" object.").arg(source));
        qCWarning(lcCatalogue) << catalogue.m_problems.constLast();
        return catalogue;
    }
    const QJsonObject providerMap = providers.toObject();
    for (auto it = providerMap.begin(); it != providerMap.end(); ++it) {
        if (!it.value().isObject()) {
            catalogue.m_problems.append(tr("%1: provider %2 must be an object.").arg(source, it.key()));
            continue;
        }
        CatalogueProvider provider;
        provider.id = it.key();
        provider.name = it.key();
        catalogue.readProvider(it.key(), it.value().toObject(), provider, source);
        catalogue.m_providers.append(provider);
    }
    for (const QString &problem : std::as_const(catalogue.m_problems))
        qCWarning(lcCatalogue) << problem;
    return catalogue;
}

void ModelCatalogue::readProvider(const QString &id, const QJsonObject &json, CatalogueProvider &into,
                                  const QString &source)
{
    const auto stringField = [&](QLatin1StringView key, QString &out) {
        const QJsonValue v = json.value(key);
        if (v.isString())
            out = v.toString();
        else if (!v.isUndefined() && !v.isNull())
            m_problems.append(tr("%1: provider %2: %3 must be a string.").arg(source, id, key));
    };
    stringField("name"_L1, into.name);
    stringField("npm"_L1, into.npm);
    stringField("api"_L1, into.api);
    stringField("doc"_L1, into.doc);
    if (json.value("local"_L1).isBool())
        into.local = json.value("local"_L1).toBool();
    const QJsonValue env = json.value("env"_L1);
    if (env.isArray()) {
        into.env.clear();
        for (const QJsonValue &name : env.toArray()) {
            if (name.isString())
                into.env.append(name.toString());
        }
    } else if (!env.isUndefined() && !env.isNull()) {
        m_problems.append(tr("%1: provider %2: env must be a list of variable names.").arg(source, id));
    }

    const QJsonValue models = json.value("models"_L1);
    if (models.isUndefined() || models.isNull())
        return;
    if (!models.isObject()) {
        m_problems.append(tr("%1: provider %2: models must be an object.").arg(source, id));
        return;
    }
    const QJsonObject modelMap = models.toObject();
    for (auto it = modelMap.begin(); it != modelMap.end(); ++it) {
        if (!it.value().isObject()) {
            m_problems.append(tr("%1: model %2/%3 must be an object.").arg(source, id, it.key()));
            continue;
        }
        ModelInfo *existing = into.model(it.key());
        Result<ModelInfo> model = existing ? ModelInfo::fromJson(id, it.key(), it.value().toObject(), *existing)
                                           : ModelInfo::fromJson(id, it.key(), it.value().toObject());
        if (!model) {
            m_problems.append(tr("%1: %2").arg(source, model.errorMessage()));
            continue;
        }
        if (existing)
            *existing = std::move(model).value();
        else
            into.models.append(std::move(model).value());
    }
}

const CatalogueProvider *ModelCatalogue::provider(const QString &id) const
{
    for (const CatalogueProvider &p : m_providers) {
        if (p.id == id)
            return &p;
    }
    return nullptr;
}

CatalogueProvider *ModelCatalogue::findProvider(const QString &id)
{
    for (CatalogueProvider &p : m_providers) {
        if (p.id == id)
            return &p;
    }
    return nullptr;
}

std::optional<ModelInfo> ModelCatalogue::model(const QString &providerID, const QString &modelID) const
{
    const CatalogueProvider *p = provider(providerID);
    if (!p)
        return std::nullopt;
    const ModelInfo *m = p->model(modelID);
    return m ? std::optional<ModelInfo>(*m) : std::nullopt;
}

void ModelCatalogue::mergeConfigProvider(const QString &id, const QJsonObject &config)
{
    CatalogueProvider *existing = findProvider(id);
    if (!existing) {
        CatalogueProvider created;
        created.id = id;
        created.name = id;
        m_providers.append(created);
        existing = &m_providers.last();
    }
    const qsizetype before = m_problems.size();
    readProvider(id, config, *existing, tr("config"));
    for (qsizetype i = before; i < m_problems.size(); ++i)
        qCWarning(lcCatalogue) << m_problems.at(i);
}

void ModelCatalogue::setProvider(const CatalogueProvider &provider)
{
    if (CatalogueProvider *existing = findProvider(provider.id))
        *existing = provider;
    else
        m_providers.append(provider);
}

} // namespace qcode
