#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

#include "engine/provider/ProviderRequest.h"

namespace qcode {

// Sampling settings OpenCode sends when neither the agent nor the user chose
// one (reference §6.3); unset means "leave it to the provider".
struct SamplingDefaults {
    std::optional<double> temperature;
    std::optional<double> topP;
    std::optional<int> topK;
    bool operator==(const SamplingDefaults &) const = default;
};

// Which input modalities a model accepts (the catalogue's capabilities).
struct InputModalities {
    bool image = true;
    bool audio = false;
    bool video = false;
    bool pdf = false;
};

// OpenCode's ProviderTransform (reference §6.3–§6.5): pure functions over a
// ProviderRequest or a JSON schema. The request builders apply the ones the
// endpoint alone decides (applyMessageTransforms); the engine calls the ones
// that need model capabilities (replaceUnsupportedMedia,
// moveReasoningToField) and the option defaults before building.
namespace ProviderTransform {

// OpenCode's output ceiling, OPENCODE_EXPERIMENTAL_OUTPUT_TOKEN_MAX's default.
inline constexpr int OutputTokenCeiling = 32000;

// min(model.limit.output, ceiling), or the ceiling when the model states no
// (or a zero) limit.
int maxOutputTokens(std::optional<int> modelOutputLimit, int ceiling = OutputTokenCeiling);

// The same for an Anthropic request with extended thinking: the builder adds
// the budget to max_tokens, so the text share shrinks until text + thinking
// fits the model's limit.
int maxOutputTokensWithThinking(std::optional<int> modelOutputLimit, int thinkingBudget,
                                int ceiling = OutputTokenCeiling);

// Temperature, top-p and top-k by model id, lower-cased substring match.
SamplingDefaults samplingDefaults(const QString &modelId);

// Whether the model is served through Anthropic's caching rules (provider
// anthropic, a claude/anthropic model id, or the Anthropic Messages API).
bool usesAnthropicCaching(const ProviderEndpoint &endpoint);

// Moves request.system into leading system-role messages, so system text can
// carry provider options (cache markers) like any other message. Idempotent.
void hoistSystemPrompt(ProviderRequest &request);

// The first 2 system messages and the last 2 others get an ephemeral cache
// marker under every key an SDK reads it from; on the message for provider
// anthropic (and bedrock), else on the message's last content part.
void applyPromptCaching(ProviderRequest &request);

// Anthropic rejects empty text blocks: drop empty text and reasoning parts,
// then messages left with nothing.
void removeEmptyContent(ProviderRequest &request);

// Anthropic accepts tool_use ids of [a-zA-Z0-9_-] only; ids minted by
// another provider are rewritten, calls and results alike.
void sanitizeToolCallIds(ProviderRequest &request);

// Mistral wants exactly nine alphanumerics per tool call id, and an
// assistant turn between a tool result and the next user message.
void normalizeMistralToolCalls(ProviderRequest &request);

// An image with no bytes and no URL becomes an explanatory text part.
void replaceEmptyImages(ProviderRequest &request);

// User attachments the model cannot read become a text part telling the
// model to inform the user.
void replaceUnsupportedMedia(ProviderRequest &request, const InputModalities &input);

// For models that want their reasoning back in a message field
// (capabilities.interleaved.field, e.g. DeepSeek's reasoning_content):
// reasoning parts leave the assistant content and their joined text goes to
// providerOptions.openaiCompatible[field].
void moveReasoningToField(ProviderRequest &request, const QString &field);

// Gemini's function declarations take a restricted schema: stringified
// enums, `required` limited to declared properties, `items` on every array,
// no properties/required on non-objects (§6.5).
QJsonObject sanitizeGeminiSchema(const QJsonObject &schema);

// What the endpoint alone decides, in OpenCode's order: empty images,
// system hoisting, Anthropic empty-content removal, Claude and Mistral tool
// ids, prompt caching. The builders run it on their copy; running it twice
// changes nothing.
void applyMessageTransforms(ProviderRequest &request);

} // namespace ProviderTransform

} // namespace qcode
