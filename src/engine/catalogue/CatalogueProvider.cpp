#include "CatalogueProvider.h"

#include <algorithm>

namespace qcode {

const ModelInfo *CatalogueProvider::model(const QString &modelID) const
{
    const auto it = std::find_if(models.cbegin(), models.cend(), [&](const ModelInfo &m) { return m.id == modelID; });
    return it == models.cend() ? nullptr : &*it;
}

ModelInfo *CatalogueProvider::model(const QString &modelID)
{
    const auto it = std::find_if(models.begin(), models.end(), [&](const ModelInfo &m) { return m.id == modelID; });
    return it == models.end() ? nullptr : &*it;
}

} // namespace qcode
