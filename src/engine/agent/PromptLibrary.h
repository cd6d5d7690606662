#pragma once

#include <QString>

namespace qcode {

// qcode's own prompt texts, compiled in from resources/prompts (written
// for qcode with the intent of OpenCode's, reference §6.1, §7, §2.7).
enum class PromptText {
    // Base prompts, one per model family OpenCode tells apart.
    Anthropic, // claude
    Beast,     // gpt-*, o1, o3
    Codex,     // gpt-5
    Gemini,    // gemini-*
    Trinity,   // trinity
    Default,   // everything else (OpenCode's qwen.txt)
    // Built-in agents.
    Explore,
    Compaction,
    Title,
    Summary,
    // Reminders added to the last user message (reference §2.7).
    PlanReminder,
    BuildSwitch,
    // The assistant prefill of a prompt's last allowed step (reference §2.5).
    MaxSteps,
    // What the compaction agent is asked to write (reference §5.4 step 6).
    CompactionRequest,
};

namespace PromptLibrary {

// ":/qcode/prompts/<name>.txt".
QString resourcePath(PromptText prompt);
// The text without trailing white space; empty (and a warning) if the
// resource is missing from the build.
QString text(PromptText prompt);

} // namespace PromptLibrary

} // namespace qcode
