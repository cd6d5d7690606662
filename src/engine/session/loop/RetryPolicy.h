#pragma once

#include <QDateTime>
#include <QString>

#include <optional>

#include "engine/provider/ProviderError.h"

namespace qcode {

// When and how long to wait before calling a provider again (reference
// 3.4). OpenCode retries forever; qcode stops after maxAttempts (8 unless
// configured) with a clear final error, one of its users' complaints.
struct RetryPolicy {
    static constexpr qint64 InitialDelayMs = 2000;
    static constexpr qint64 MaxDelayWithoutHeadersMs = 30000;
    static constexpr qint64 MaxDelayMs = 2147483647; // what a timer can wait
    static constexpr int DefaultMaxAttempts = 8;

    int maxAttempts = DefaultMaxAttempts; // 0: no limit, as OpenCode

    // The wait before retry number `attempt` (1-based): the server's
    // retry-after-ms / retry-after first, then 2 s doubling — capped at 30 s
    // only when the response carried no headers at all.
    static qint64 delayMs(int attempt, const ProviderError &error,
                          const QDateTime &now = QDateTime::currentDateTimeUtc());

    // The status line while waiting, or nothing when the error is not worth
    // retrying (context overflow is compaction's job, not a retry's).
    static std::optional<QString> retryReason(const ProviderError &error);

    bool allowsAttempt(int attempt) const { return maxAttempts <= 0 || attempt <= maxAttempts; }
};

} // namespace qcode
