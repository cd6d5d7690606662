#pragma once

#include <QList>
#include <QString>
#include <QStringView>

#include "model/Part.h"

namespace qcode::CompactionRules {

// OpenCode's constants (reference 5.2): the newest 40k tokens of tool
// output are never cleared, and clearing happens only when it frees more
// than 20k. The skill tool's output is never cleared.
constexpr qint64 PruneMinimum = 20000;
constexpr qint64 PruneProtect = 40000;

// OpenCode's Token.estimate: a quarter of the characters, rounded.
qint64 estimateTokens(QStringView text);

// The completed tool parts whose output pruning clears (sets
// state.time.compacted), from the whole session oldest first. The last two
// user turns are never touched; the walk stops at a compaction summary and
// at output cleared before. Empty when clearing would free too little.
QList<Part> partsToPrune(const QList<MessageWithParts> &messages);

} // namespace qcode::CompactionRules
