#pragma once

#include <QList>
#include <QString>
#include <QStringView>

#include <optional>

#include "model/Part.h"

namespace qcode::CompactionRules {

// OpenCode's constants (reference 5.2): the newest 40k tokens of tool
// output are never cleared, and clearing happens only when it frees more
// than 20k. The skill tool's output is never cleared.
constexpr qint64 PruneMinimum = 20000;
constexpr qint64 PruneProtect = 40000;

// What overflow checking needs of a model and of the compaction config.
struct ContextLimits {
    qint64 context = 0;                // 0: unknown, never overflows
    qint64 input = 0;                  // 0: bounded by context only
    std::optional<qint64> output;      // the model's output limit
};
struct CompactionSettings {
    bool autoCompact = true;           // compaction.auto
    bool prune = true;                 // compaction.prune
    std::optional<qint64> reserved;    // compaction.reserved
};

constexpr qint64 CompactionBuffer = 20000;

// OpenCode's isOverflow (reference 5.1): the tokens of the last step leave
// no room for another answer.
bool isOverflow(const TokenUsage &tokens, const ContextLimits &limits, const CompactionSettings &settings);

// OpenCode's Token.estimate: a quarter of the characters, rounded.
qint64 estimateTokens(QStringView text);

// The completed tool parts whose output pruning clears (sets
// state.time.compacted), from the whole session oldest first. The last two
// user turns are never touched; the walk stops at a compaction summary and
// at output cleared before. Empty when clearing would free too little.
QList<Part> partsToPrune(const QList<MessageWithParts> &messages);

} // namespace qcode::CompactionRules
