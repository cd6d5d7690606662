#pragma once

#include <QString>

#include <optional>

#include "engine/provider/WireProtocol.h"

namespace qcode::NpmProtocol {

// The wire protocol behind an AI SDK package name, as OpenCode's `npm`
// key names it: @ai-sdk/anthropic → Anthropic Messages; @ai-sdk/openai
// (and azure) → OpenAI Responses, which OpenCode uses for OpenAI's own
// API; @ai-sdk/google → Gemini; @ai-sdk/openai-compatible, OpenRouter and
// the other Chat Completions dialects → OpenAI Chat. An empty name is
// openai-compatible, OpenCode's default for a config-defined provider.
// Unknown packages (Bedrock, Vertex …) have no protocol qcode speaks.
std::optional<WireProtocol> forPackage(const QString &npm);

// The package OpenCode assumes when a config provider names none.
QString defaultPackage();

} // namespace qcode::NpmProtocol
