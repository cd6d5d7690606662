#pragma once

#include <QtGlobal>

#include <optional>

namespace qcode {

// Token counts of one step as the provider reported them, normalized (wire
// formats §2); the stored form is qcode::TokenUsage in model/Message.h. A field the
// provider did not report stays empty rather than pretending to be zero.
struct StreamUsage {
    std::optional<qint64> input;       // the provider's own prompt count
    std::optional<qint64> output;      // every generated token, reasoning included
    std::optional<qint64> reasoning;
    std::optional<qint64> cacheRead;
    std::optional<qint64> cacheWrite;
    // Every prompt token, cached or not. Anthropic's `input` excludes cache
    // reads and writes while the others include them; this field is the
    // one number that means the same for every provider.
    std::optional<qint64> inputTotal;

    bool isEmpty() const { return !input && !output && !reasoning && !cacheRead && !cacheWrite; }
    bool operator==(const StreamUsage &) const = default;
};

} // namespace qcode
