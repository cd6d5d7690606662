#include "NpmProtocol.h"

using namespace Qt::StringLiterals;

namespace qcode::NpmProtocol {

std::optional<WireProtocol> forPackage(const QString &npm)
{
    if (npm.isEmpty() || npm == "@ai-sdk/openai-compatible"_L1)
        return WireProtocol::OpenAIChat;
    if (npm == "@ai-sdk/anthropic"_L1)
        return WireProtocol::AnthropicMessages;
    if (npm == "@ai-sdk/openai"_L1 || npm == "@ai-sdk/azure"_L1)
        return WireProtocol::OpenAIResponses;
    if (npm == "@ai-sdk/google"_L1)
        return WireProtocol::Gemini;
    // Packages whose API is Chat Completions with the provider's own URL.
    static const QLatin1StringView chatDialects[] = {
        "@openrouter/ai-sdk-provider"_L1, "@ai-sdk/deepseek"_L1, "@ai-sdk/xai"_L1,
        "@ai-sdk/groq"_L1, "@ai-sdk/mistral"_L1, "@ai-sdk/togetherai"_L1,
        "@ai-sdk/cerebras"_L1, "@ai-sdk/deepinfra"_L1, "@ai-sdk/fireworks"_L1,
        "@ai-sdk/perplexity"_L1, "ollama-ai-provider-v2"_L1,
    };
    for (QLatin1StringView dialect : chatDialects) {
        if (npm == dialect)
            return WireProtocol::OpenAIChat;
    }
    return std::nullopt;
}

QString defaultPackage()
{
    return u"@ai-sdk/openai-compatible"_s;
}

} // namespace qcode::NpmProtocol
