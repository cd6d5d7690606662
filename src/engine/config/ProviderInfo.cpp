#include "ProviderInfo.h"

#include "NpmProtocol.h"

namespace qcode {

const ModelInfo *ProviderInfo::model(const QString &modelID) const
{
    for (const ModelInfo &m : models) {
        if (m.id == modelID)
            return &m;
    }
    return nullptr;
}

std::optional<WireProtocol> ProviderInfo::protocolFor(const ModelInfo &model) const
{
    if (model.npm.isEmpty())
        return protocol;
    return NpmProtocol::forPackage(model.npm);
}

} // namespace qcode
