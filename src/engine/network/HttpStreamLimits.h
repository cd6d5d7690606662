#pragma once

#include <QtGlobal>

#include <chrono>

namespace qcode {

// How long an exchange may stay silent and how much it may send.
struct HttpStreamLimits {
    // From the request until the response's status line and headers, reset
    // by upload progress so a slow upload of a large prompt is not cut.
    std::chrono::milliseconds connectTimeout{std::chrono::seconds(60)};
    // Once the headers are in: the longest silence between two reads.
    // Anthropic pings every few seconds and OpenAI-compatible servers send
    // comments; a provider quiet for this long is a dead connection, and
    // without this bound a session would wait on it forever.
    std::chrono::milliseconds idleTimeout{std::chrono::minutes(3)};
    // A streaming body larger than this is stopped rather than buffered.
    qint64 maxBodyBytes = 256LL * 1024 * 1024;
    // An error body is read whole up to this size; the rest is dropped.
    qint64 maxErrorBodyBytes = 1024 * 1024;
};

} // namespace qcode
