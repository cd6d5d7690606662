#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "StreamDecoder.h"

namespace qcode {

// OpenAI Chat Completions chunks and every compatible server's dialect
// (wire formats §4): content, refusal and reasoning deltas
// (`reasoning_content` for DeepSeek/Qwen/llama.cpp/vLLM, `reasoning` for
// OpenRouter/Ollama), tool-call fragments keyed by index, a finish reason
// possibly repeated, usage in its own chunk or beside the finish reason,
// `data: [DONE]`, and `{"error":…}` chunks mid-stream.
class OpenAIChatStreamDecoder final : public StreamDecoder
{
public:
    QList<ProviderEvent> decode(const SseEvent &event) override;
    QList<ProviderEvent> finish() override;

private:
    struct ToolCall {
        int index = 0;
        QString id;
    };

    void decodeChoice(const QJsonObject &choice);
    void decodeToolCallDelta(const QJsonObject &toolCall, int position);
    void endToolCalls();
    void finishStream();
    StreamUsage usage() const;

    QList<ToolCall> m_toolCalls;
    QString m_finishReason;     // the last non-null one
    QJsonObject m_usage;
    QJsonArray m_reasoningDetails; // OpenRouter's encrypted reasoning, to replay
    bool m_doneSeen = false;
};

} // namespace qcode
