#pragma once

#include <QString>
#include <QStringList>

#include <optional>

#include "EnvironmentInfo.h"
#include "PromptLibrary.h"

namespace qcode {

// The system prompt of one model call (reference §6.1), assembled from:
//   1. the agent's own prompt, or else the base prompt of the model's
//      family, chosen from the API model id;
//   2. the environment block (model, folders, git, platform, date);
//   3. the instruction files (InstructionFiles::system());
//   4. further system text from the loop (e.g. the structured-output rule);
//   5. the user message's own `system` text.
// Empty parts are dropped.
class SystemPrompt
{
public:
    struct Input {
        QString providerID;
        QString apiModelID;                 // the id sent to the API (ModelInfo::apiId)
        std::optional<QString> agentPrompt; // Agent::prompt; empty counts as none
        EnvironmentInfo environment;
        QStringList instructions;
        QStringList extra;
        std::optional<QString> userSystem;
    };

    // OpenCode's choice by model id, checked in this order: "gpt-5" →
    // Codex; "gpt-", "o1" or "o3" → Beast; "gemini-" → Gemini; "claude" →
    // Anthropic; "trinity" (any case) → Trinity; anything else → Default.
    static PromptText familyFor(const QString &apiModelID);
    static QString providerPrompt(const QString &apiModelID);

    static QString environment(const QString &providerID, const QString &apiModelID, const EnvironmentInfo &info);

    // The parts above, in order.
    static QStringList blocks(const Input &input);

    // What ProviderRequest::system takes: the blocks joined with "\n" into a
    // single entry, because OpenCode sends one system message (so prompt
    // caching marks the same prefix it does).
    static QStringList build(const Input &input);
};

} // namespace qcode
