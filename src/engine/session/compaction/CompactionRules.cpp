#include "CompactionRules.h"

#include <climits>
#include <cmath>

#include "engine/request/ProviderTransform.h"

using namespace Qt::StringLiterals;

namespace qcode::CompactionRules {

bool isOverflow(const TokenUsage &tokens, const ContextLimits &limits, const CompactionSettings &settings)
{
    if (!settings.autoCompact || limits.context == 0)
        return false;
    const qint64 count = tokens.total && *tokens.total > 0
                             ? *tokens.total
                             : tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite;
    const qint64 maxOut = ProviderTransform::maxOutputTokens(
        limits.output ? std::optional<int>(int(std::min<qint64>(*limits.output, INT_MAX))) : std::nullopt);
    const qint64 reserved = settings.reserved.value_or(std::min(CompactionBuffer, maxOut));
    const qint64 usable = limits.input ? limits.input - reserved : limits.context - maxOut;
    return count >= usable;
}

qint64 estimateTokens(QStringView text)
{
    return std::max<qint64>(0, std::llround(double(text.size()) / 4.0));
}

namespace {

// The newest-first walk over a session; visit() says whether to go on.
struct PruneWalk {
    int turns = 0;
    qint64 total = 0;
    qint64 pruned = 0;
    QList<Part> candidates;

    bool visit(const MessageWithParts &message)
    {
        if (message.info.isUser())
            ++turns;
        if (turns < 2)
            return true;
        if (const AssistantMessage *assistant = message.info.assistant(); assistant && assistant->isSummary())
            return false;
        for (auto part = message.parts.crbegin(); part != message.parts.crend(); ++part) {
            const ToolPart *tool = part->as<ToolPart>();
            const ToolCompleted *done = tool ? std::get_if<ToolCompleted>(&tool->state) : nullptr;
            if (!done || tool->tool == "skill"_L1)
                continue;
            if (done->compacted)
                return false; // everything older was pruned before
            const qint64 estimate = estimateTokens(done->output);
            total += estimate;
            if (total > PruneProtect) {
                pruned += estimate;
                candidates.append(*part);
            }
        }
        return true;
    }
};

} // namespace

QList<Part> partsToPrune(const QList<MessageWithParts> &messages)
{
    PruneWalk walk;
    for (auto message = messages.crbegin(); message != messages.crend(); ++message) {
        if (!walk.visit(*message))
            break;
    }
    return walk.pruned > PruneMinimum ? walk.candidates : QList<Part>();
}

} // namespace qcode::CompactionRules
