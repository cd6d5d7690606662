#pragma once

#include <QJsonObject>
#include <QString>

#include "ModelCost.h"
#include "engine/provider/StreamUsage.h"
#include "model/Message.h"

namespace qcode {

// The tokens and cost of one step as OpenCode stores them
// (Session.getUsage, reference §3.3): a pure function of the model's
// prices, its SDK package, the usage the stream reported and the
// provider metadata of finish-step.
struct StepUsage {
    TokenUsage tokens;
    double cost = 0; // USD

    static StepUsage compute(const ModelCost &cost, const QString &npm, const StreamUsage &usage,
                             const QJsonObject &providerMetadata);
};

} // namespace qcode
