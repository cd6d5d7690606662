#pragma once

#include <QCoreApplication>
#include <QString>

#include "engine/provider/ProviderError.h"
#include "model/Message.h"

namespace qcode {

// The named errors an assistant message stores, {name, data}, exactly as
// OpenCode's MessageV2.fromError shapes them (reference §1.3, §3.4), so a
// session exported from qcode reads the same in OpenCode. data.message is
// the sentence a person reads.
struct MessageErrors {
    Q_DECLARE_TR_FUNCTIONS(MessageErrors)

public:
    // A provider call that failed: ContextOverflowError, MessageAbortedError,
    // or APIError {message, statusCode, isRetryable, responseHeaders,
    // responseBody}; a failure with no HTTP exchange at all and no kind is
    // an UnknownError.
    static NamedError fromProviderError(const ProviderError &error);
    static NamedError aborted();
    static NamedError unknown(const QString &message);
    // The final error once the retry cap is reached: says how often qcode
    // tried and what the last failure was.
    static NamedError retriesExhausted(int attempts, const ProviderError &last);
};

} // namespace qcode
