#include "RetryPolicy.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode {

qint64 RetryPolicy::delayMs(int attempt, const ProviderError &error, const QDateTime &now)
{
    if (const auto fromHeaders = ProviderError::retryDelayFromHeaders(error.headers, now))
        return std::clamp<qint64>(*fromHeaders, 0, MaxDelayMs);
    if (error.retryAfterMs)
        return std::clamp<qint64>(*error.retryAfterMs, 0, MaxDelayMs);
    const int doublings = std::clamp(attempt - 1, 0, 30);
    const qint64 backoff = std::min(InitialDelayMs << doublings, MaxDelayMs);
    return error.headers.isEmpty() ? std::min(backoff, MaxDelayWithoutHeadersMs) : backoff;
}

std::optional<QString> RetryPolicy::retryReason(const ProviderError &error)
{
    if (!error.retryable || error.isContextOverflow())
        return std::nullopt;
    if (error.body.contains("FreeUsageLimitError"))
        return ProviderError::tr("Free usage exceeded, add credits to your account");
    if (error.kind == ProviderError::Kind::Overloaded || error.message.contains("Overloaded"_L1))
        return ProviderError::tr("Provider is overloaded");
    if (error.kind == ProviderError::Kind::RateLimit && error.message.isEmpty())
        return ProviderError::tr("Rate limited");
    return error.message.isEmpty() ? error.sentence() : error.message;
}

} // namespace qcode
