#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>

#include "StreamDecoder.h"

namespace qcode {

// Anthropic Messages streaming (wire formats §3): message_start, content
// blocks by index (text, thinking with its signature, redacted_thinking,
// tool_use with input_json_delta fragments), message_delta with the stop
// reason and cumulative usage, message_stop. Server-side tool blocks are
// skipped; `event: error` becomes an error event.
class AnthropicStreamDecoder final : public StreamDecoder
{
public:
    QList<ProviderEvent> decode(const SseEvent &event) override;
    QList<ProviderEvent> finish() override;

private:
    enum class BlockType { Text, Thinking, RedactedThinking, ToolUse, Skipped };
    struct Block {
        BlockType type = BlockType::Skipped;
        QString id;            // the event id: the block index, or the tool_use id
        QString signature;
        QString redactedData;
        QString initialInput;  // a tool_use whose input came whole in its start event
        bool hasFragments = false;
    };

    void startBlock(const QJsonObject &payload);
    void blockDelta(const QJsonObject &payload);
    void stopBlock(const QJsonObject &payload);
    void mergeUsage(const QJsonObject &usage);
    void finishStream();
    StreamUsage usage() const;

    QHash<int, Block> m_blocks;
    QJsonObject m_usage;        // message_start usage, superseded field by field by message_delta
    QString m_stopReason;
    QJsonObject m_stopDetails;
    QString m_messageId;
    QString m_model;
};

} // namespace qcode
