#pragma once

#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <optional>
#include <variant>

#include "FinishReason.h"
#include "ProviderError.h"
#include "StreamUsage.h"

namespace qcode {

// The one event sequence every wire protocol is decoded into (issue 3, "One
// stream shape"; the AI SDK's fullStream that OpenCode's processor reads):
//
//   start, start-step,
//   ( reasoning-start reasoning-delta* reasoning-end
//   | text-start text-delta* text-end
//   | tool-input-start tool-input-delta* tool-input-end tool-call )*,
//   [error], finish-step, finish
//
// `id` ties the deltas of one block together. `providerMetadata` carries
// what must be sent back unchanged on the next request, keyed by provider:
// {"anthropic":{"signature"|"redactedData"}}, {"openai":{"itemId",
// "reasoningEncryptedContent"}}, {"google":{"thoughtSignature"}}.
// Every event is a small value: it is copied across threads by queued
// signals, never shared.

struct StartEvent {
    bool operator==(const StartEvent &) const = default;
};

struct StartStepEvent {
    bool operator==(const StartStepEvent &) const = default;
};

struct ReasoningStartEvent {
    QString id;
    QJsonObject providerMetadata;
    bool operator==(const ReasoningStartEvent &) const = default;
};

struct ReasoningDeltaEvent {
    QString id;
    QString text;
    bool operator==(const ReasoningDeltaEvent &) const = default;
};

struct ReasoningEndEvent {
    QString id;
    QJsonObject providerMetadata;
    bool operator==(const ReasoningEndEvent &) const = default;
};

struct TextStartEvent {
    QString id;
    // {"refusal":true} when the text is a model's refusal (OpenAI
    // `delta.refusal`, Responses `response.refusal.delta`).
    QJsonObject providerMetadata;
    bool operator==(const TextStartEvent &) const = default;
};

struct TextDeltaEvent {
    QString id;
    QString text;
    bool operator==(const TextDeltaEvent &) const = default;
};

struct TextEndEvent {
    QString id;
    QJsonObject providerMetadata;
    bool operator==(const TextEndEvent &) const = default;
};

struct ToolInputStartEvent {
    QString id;       // the tool call id
    QString toolName;
    bool operator==(const ToolInputStartEvent &) const = default;
};

struct ToolInputDeltaEvent {
    QString id;
    QString delta;    // a fragment of the arguments' JSON text
    bool operator==(const ToolInputDeltaEvent &) const = default;
};

struct ToolInputEndEvent {
    QString id;
    bool operator==(const ToolInputEndEvent &) const = default;
};

struct ToolCallEvent {
    QString toolCallId;
    QString toolName;
    QString input;    // the arguments' JSON text exactly as the provider sent it
    // The parsed arguments; empty when the text is not a complete JSON
    // object (a stream cut by max tokens). Such a call must never run.
    std::optional<QJsonObject> parsedInput;
    QJsonObject providerMetadata;
    bool operator==(const ToolCallEvent &) const = default;
};

struct FinishStepEvent {
    FinishReason reason = FinishReason::Unknown;
    QString rawReason;   // the provider's own value, e.g. "end_turn", "MAX_TOKENS"
    StreamUsage usage;
    QJsonObject providerMetadata;
    bool operator==(const FinishStepEvent &) const = default;
};

struct FinishEvent {
    FinishReason reason = FinishReason::Unknown;
    StreamUsage usage;
    bool operator==(const FinishEvent &) const = default;
};

struct ErrorEvent {
    ProviderError error;
    bool operator==(const ErrorEvent &) const = default;
};

using ProviderEvent = std::variant<StartEvent, StartStepEvent,
                                   ReasoningStartEvent, ReasoningDeltaEvent, ReasoningEndEvent,
                                   TextStartEvent, TextDeltaEvent, TextEndEvent,
                                   ToolInputStartEvent, ToolInputDeltaEvent, ToolInputEndEvent, ToolCallEvent,
                                   FinishStepEvent, FinishEvent, ErrorEvent>;

// The AI SDK name of an event ("text-delta", "finish-step" …), for logs
// and tests.
QString providerEventName(const ProviderEvent &event);

} // namespace qcode

Q_DECLARE_METATYPE(qcode::ProviderEvent)
Q_DECLARE_METATYPE(qcode::StreamUsage)
