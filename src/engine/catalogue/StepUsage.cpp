#include "StepUsage.h"

#include <QJsonValue>

#include <cmath>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// OpenCode's `?? ` chain over metadata fields: the first that is a finite
// number wins; anything else (absent, null, a string) falls through.
std::optional<qint64> metadataCount(const QJsonObject &metadata, std::initializer_list<QLatin1StringView> path)
{
    QJsonValue v(metadata);
    for (QLatin1StringView key : path)
        v = v.toObject().value(key);
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        return std::nullopt;
    return qint64(v.toDouble());
}

double finiteOrZero(double value)
{
    return std::isfinite(value) ? value : 0.0;
}

bool isAnthropicPackage(const QString &npm)
{
    return npm == "@ai-sdk/anthropic"_L1 || npm == "@ai-sdk/amazon-bedrock"_L1
        || npm == "@ai-sdk/google-vertex/anthropic"_L1;
}

} // namespace

StepUsage StepUsage::compute(const ModelCost &modelCost, const QString &npm, const StreamUsage &usage,
                             const QJsonObject &providerMetadata)
{
    // StreamUsage is normalized so `output` always includes reasoning, but
    // OpenCode saw the AI SDK's numbers, and @ai-sdk/google reports
    // candidates without thoughts there. Undo the normalization for it so
    // the cost matches OpenCode's (which bills reasoning on top of output).
    qint64 output = usage.output.value_or(0);
    const qint64 reasoning = usage.reasoning.value_or(0);
    if (npm == "@ai-sdk/google"_L1 || npm == "@ai-sdk/google-vertex"_L1)
        output = std::max<qint64>(0, output - reasoning);

    const qint64 input = usage.input.value_or(0);
    const qint64 cacheRead = usage.cacheRead.value_or(0);
    // OpenCode reads cache writes from the SDK's metadata only. qcode's
    // decoders also report them in the usage (OpenRouter, Responses), which
    // is the fallback where no metadata names them.
    const qint64 cacheWrite = metadataCount(providerMetadata, {"anthropic"_L1, "cacheCreationInputTokens"_L1})
                                  .value_or(metadataCount(providerMetadata, {"bedrock"_L1, "usage"_L1, "cacheWriteInputTokens"_L1})
                                  .value_or(metadataCount(providerMetadata, {"venice"_L1, "usage"_L1, "cacheCreationInputTokens"_L1})
                                  .value_or(usage.cacheWrite.value_or(0))));

    // Anthropic and Bedrock report the prompt without cached tokens; every
    // other API counts cache reads and writes inside the prompt.
    const bool inputExcludesCache = providerMetadata.contains("anthropic"_L1) || providerMetadata.contains("bedrock"_L1);
    const qint64 adjustedInput = inputExcludesCache ? input : input - cacheRead - cacheWrite;

    StepUsage result;
    result.tokens.input = adjustedInput;
    result.tokens.output = output;
    result.tokens.reasoning = reasoning;
    result.tokens.cacheRead = cacheRead;
    result.tokens.cacheWrite = cacheWrite;
    if (isAnthropicPackage(npm)) {
        result.tokens.total = adjustedInput + output + cacheRead + cacheWrite;
    } else if (usage.input || usage.output) {
        // The SDK's totalTokens: the whole prompt plus everything generated.
        result.tokens.total = usage.inputTotal.value_or(input) + usage.output.value_or(0);
    }

    const ModelPrices &prices = modelCost.hasOver200k && adjustedInput + cacheRead > 200000 ? modelCost.over200k
                                                                                           : modelCost.base;
    // Sum the products before the one division, as OpenCode's Decimal does,
    // so whole-dollar cases come out exact.
    const double micro = double(adjustedInput) * finiteOrZero(prices.input)
        + double(output) * finiteOrZero(prices.output) + double(cacheRead) * finiteOrZero(prices.cacheRead)
        + double(cacheWrite) * finiteOrZero(prices.cacheWrite) + double(reasoning) * finiteOrZero(prices.output);
    result.cost = finiteOrZero(micro / 1'000'000.0);
    return result;
}

} // namespace qcode
