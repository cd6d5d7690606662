#pragma once

#include <QLoggingCategory>

namespace qcode {

// Agents loaded, merged and rejected (config entries, Markdown agents).
Q_DECLARE_LOGGING_CATEGORY(lcAgents)
// Instruction files found, skipped or fetched (AGENTS.md, config URLs).
Q_DECLARE_LOGGING_CATEGORY(lcInstructions)

} // namespace qcode
