#pragma once

namespace qcode {

// The four streaming APIs qcode speaks; every OpenAI-compatible server
// (Ollama, LM Studio, llama.cpp, vLLM, OpenRouter, DeepSeek …) is
// OpenAIChat.
enum class WireProtocol {
    AnthropicMessages,
    OpenAIChat,
    OpenAIResponses,
    Gemini,
};

} // namespace qcode
