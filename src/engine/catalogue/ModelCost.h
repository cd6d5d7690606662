#pragma once

namespace qcode {

// One price table, in USD per million tokens (models.dev's unit).
struct ModelPrices {
    double input = 0;
    double output = 0;
    double cacheRead = 0;
    double cacheWrite = 0;

    bool operator==(const ModelPrices &) const = default;
};

// A model's prices, with the dearer table some providers charge once a
// request's prompt passes 200k tokens (models.dev `context_over_200k`).
struct ModelCost {
    ModelPrices base;
    bool hasOver200k = false;
    ModelPrices over200k;

    bool operator==(const ModelCost &) const = default;
};

} // namespace qcode
