#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>
#include <variant>

#include "WireProtocol.h"

namespace qcode {

// What the engine asks of a model, independent of the wire protocol (the
// AI SDK's ModelMessage list plus call settings). Request builders turn it
// into each API's documented body; the engine (toModelMessages) fills it.

struct TextContent {
    QString text;
    QJsonObject providerOptions; // e.g. {"anthropic":{"cacheControl":{"type":"ephemeral"}}}
};

// An image or a document (PDF, text). Either inline bytes or a URL.
struct FileContent {
    QString mediaType; // "image/png", "application/pdf" …
    QByteArray data;   // raw bytes (base64 is the builder's job); empty when url is used
    QUrl url;          // http(s) when the provider may fetch it itself
    QString filename;
    QJsonObject providerOptions;
};

struct ReasoningContent {
    QString text;
    // Replay data from the same provider: Anthropic signature / redacted
    // thinking, OpenAI reasoning item id and encrypted content, Gemini
    // thought signature (keys as in ProviderEvent.h).
    QJsonObject providerMetadata;
};

struct ToolCallContent {
    QString toolCallId;
    QString toolName;
    QJsonObject input;
    QJsonObject providerMetadata;
};

// A tool result: plain text, an error text, or text with media.
struct ToolResultContent {
    QString toolCallId;
    QString toolName;
    QString text;
    bool isError = false;
    QList<FileContent> media; // images/PDFs returned by the tool
    QJsonObject providerOptions;
};

using ContentPart = std::variant<TextContent, FileContent, ReasoningContent, ToolCallContent, ToolResultContent>;

// System messages may also sit in `messages` (before the conversation for
// Anthropic and Gemini); ProviderTransform::hoistSystemPrompt turns
// ProviderRequest::system into such messages so they can carry cache
// markers. Per role: system holds text; user text and files; assistant
// text, reasoning and tool calls; tool only tool results, each answering a
// call of the assistant turn before it.
enum class ModelRole { System, User, Assistant, Tool };

struct ModelMessage {
    ModelRole role = ModelRole::User;
    QList<ContentPart> content;
    QJsonObject providerOptions; // message-level, e.g. cache control
};

struct ToolDefinition {
    QString name;
    QString description;
    QJsonObject inputSchema; // JSON Schema of the arguments
};

struct RequestOptions {
    std::optional<int> maxOutputTokens;
    std::optional<double> temperature;
    std::optional<double> topP;
    std::optional<int> topK;
    std::optional<QString> reasoningEffort;   // "low" | "medium" | "high" (OpenAI), …
    std::optional<int> reasoningBudgetTokens; // Anthropic thinking / Gemini thinkingBudget
    // Merged into the body last, in the wire's own spelling
    // ({"parallel_tool_calls":false}, {"safetySettings":[…]}); the AI SDK
    // names opencode.json uses (reasoningEffort, promptCacheKey,
    // thinkingConfig, thinking.budgetTokens …) are renamed by each builder.
    // It never replaces the model, the stream flag or the conversation.
    QJsonObject providerOptions;
};

// Where and as whom to send it.
struct ProviderEndpoint {
    WireProtocol protocol = WireProtocol::OpenAIChat;
    QString providerId; // "anthropic", "openai", "ollama", a config key …
    QString modelId;    // the API's model name
    QUrl baseUrl;       // e.g. https://api.anthropic.com/v1
    QString apiKey;     // never logged, never stored
    // Extra headers from config, on every request; one named like a
    // built-in header (authorization, anthropic-beta …) replaces it.
    QList<QPair<QByteArray, QByteArray>> headers;
};

struct ProviderRequest {
    ProviderEndpoint endpoint;
    QStringList system; // system prompt blocks, in order
    QList<ModelMessage> messages;
    QList<ToolDefinition> tools;
    RequestOptions options;
};

// One HTTP request, ready for QNetworkAccessManager.
struct HttpRequestSpec {
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
};

} // namespace qcode
