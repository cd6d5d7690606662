#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "ModelInfo.h"

namespace qcode {

// One provider of the catalogue (models.dev's provider shape): how to reach
// it by default and which models it serves, in file order.
struct CatalogueProvider {
    QString id;
    QString name;
    QString npm;         // the AI SDK package OpenCode would load; decides the wire protocol
    QString api;         // default base URL
    QStringList env;     // environment variables that may hold its key, first wins
    QString doc;
    bool local = false;  // a server on this machine: no key needed, nothing to pay
    QList<ModelInfo> models;

    const ModelInfo *model(const QString &modelID) const;
    ModelInfo *model(const QString &modelID);
};

} // namespace qcode
