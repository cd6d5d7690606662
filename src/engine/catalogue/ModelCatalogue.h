#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

#include "CatalogueProvider.h"

namespace qcode {

// The models qcode knows: the bundled resources/models.json, with the
// models a user's config defines merged over it. Loading never fails as a
// whole: an entry that does not validate is left out and described in
// problems(), so one bad price cannot take every model away.
class ModelCatalogue
{
    Q_DECLARE_TR_FUNCTIONS(ModelCatalogue)

public:
    static QString bundledResourcePath();
    static ModelCatalogue bundled();
    // `source` names the data in problem messages (a file name).
    static ModelCatalogue fromJson(const QByteArray &json, const QString &source);

    QString updated() const { return m_updated; } // the date the data describes
    const QStringList &problems() const { return m_problems; }

    const QList<CatalogueProvider> &providers() const { return m_providers; }
    const CatalogueProvider *provider(const QString &id) const;
    std::optional<ModelInfo> model(const QString &providerID, const QString &modelID) const;

    // Merges one `provider.<id>` entry of opencode.json: name, npm, api,
    // env and `models` (each over the catalogue's model of that id, or
    // over a blank one). A new id creates a provider. Invalid models are
    // reported in problems() and skipped.
    void mergeConfigProvider(const QString &id, const QJsonObject &config);
    // Adds or replaces a provider wholesale (detected local servers).
    void setProvider(const CatalogueProvider &provider);

private:
    CatalogueProvider *findProvider(const QString &id);
    void readProvider(const QString &id, const QJsonObject &json, CatalogueProvider &into, const QString &source);

    QString m_updated;
    QList<CatalogueProvider> m_providers;
    QStringList m_problems;
};

} // namespace qcode
