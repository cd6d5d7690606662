#include "AnthropicStreamDecoder.h"

#include "ProviderLogging.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

FinishReason mapStopReason(const QString &reason)
{
    if (reason == "end_turn"_L1 || reason == "stop_sequence"_L1 || reason == "pause_turn"_L1)
        return FinishReason::Stop;
    if (reason == "tool_use"_L1)
        return FinishReason::ToolCalls;
    if (reason == "max_tokens"_L1 || reason == "model_context_window_exceeded"_L1)
        return FinishReason::Length;
    if (reason == "refusal"_L1)
        return FinishReason::ContentFilter;
    return FinishReason::Unknown;
}

QJsonObject anthropicMetadata(const char *key, const QString &value)
{
    return QJsonObject{{"anthropic"_L1, QJsonObject{{QLatin1StringView(key), value}}}};
}

} // namespace

QList<ProviderEvent> AnthropicStreamDecoder::decode(const SseEvent &event)
{
    if (m_out.isFinished())
        return {};
    const std::optional<QJsonObject> payload = parseObject(event);
    if (!payload)
        return {};

    const QString type = eventType(*payload, event);

    if (type == "content_block_delta"_L1) {
        blockDelta(*payload);
    } else if (type == "content_block_start"_L1) {
        startBlock(*payload);
    } else if (type == "content_block_stop"_L1) {
        stopBlock(*payload);
    } else if (type == "message_start"_L1) {
        if (m_out.isStarted())
            qCWarning(lcProviderStream) << "ignoring a repeated message_start";
        const QJsonObject message = payload->value("message"_L1).toObject();
        m_messageId = message.value("id"_L1).toString();
        m_model = message.value("model"_L1).toString();
        mergeUsage(message.value("usage"_L1).toObject());
        m_out.start();
    } else if (type == "message_delta"_L1) {
        const QJsonObject delta = payload->value("delta"_L1).toObject();
        const QString reason = delta.value("stop_reason"_L1).toString();
        if (!reason.isEmpty())
            m_stopReason = reason;
        if (delta.value("stop_details"_L1).isObject())
            m_stopDetails = delta.value("stop_details"_L1).toObject();
        mergeUsage(payload->value("usage"_L1).toObject());
    } else if (type == "message_stop"_L1) {
        finishStream();
    } else if (type == "error"_L1) {
        m_out.error(ProviderError::fromStreamPayload(*payload));
    } else if (type != "ping"_L1) {
        qCDebug(lcProviderStream) << "skipping Anthropic event" << type;
    }
    return m_out.take();
}

void AnthropicStreamDecoder::startBlock(const QJsonObject &payload)
{
    const int index = payload.value("index"_L1).toInt(-1);
    const QJsonObject content = payload.value("content_block"_L1).toObject();
    const QString type = content.value("type"_L1).toString();
    Block block;
    block.id = QString::number(index);

    if (type == "text"_L1) {
        block.type = BlockType::Text;
        m_out.textDelta(block.id, content.value("text"_L1).toString());
    } else if (type == "thinking"_L1) {
        block.type = BlockType::Thinking;
        block.signature = content.value("signature"_L1).toString();
        m_out.startReasoning(block.id);
        m_out.reasoningDelta(block.id, content.value("thinking"_L1).toString());
    } else if (type == "redacted_thinking"_L1) {
        // Opaque: nothing to show, everything to send back.
        block.type = BlockType::RedactedThinking;
        block.redactedData = content.value("data"_L1).toString();
        m_out.startReasoning(block.id, anthropicMetadata("redactedData", block.redactedData));
    } else if (type == "tool_use"_L1) {
        block.type = BlockType::ToolUse;
        block.id = content.value("id"_L1).toString();
        if (block.id.isEmpty())
            block.id = StreamEmitter::generateToolCallId();
        const QJsonObject input = content.value("input"_L1).toObject();
        if (!input.isEmpty())
            block.initialInput = QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Compact));
        m_out.startToolInput(block.id, content.value("name"_L1).toString());
    } else {
        // server_tool_use, *_tool_result and future types run on
        // Anthropic's side; they are not calls for qcode to execute.
        qCDebug(lcProviderStream) << "skipping Anthropic content block" << type;
    }
    m_blocks.insert(index, block);
}

void AnthropicStreamDecoder::blockDelta(const QJsonObject &payload)
{
    const int index = payload.value("index"_L1).toInt(-1);
    const auto it = m_blocks.find(index);
    if (it == m_blocks.end()) {
        qCWarning(lcProviderStream) << "skipping a delta for unknown content block" << index;
        return;
    }
    const QJsonObject delta = payload.value("delta"_L1).toObject();
    const QString type = delta.value("type"_L1).toString();
    Block &block = *it;

    if (type == "text_delta"_L1 && block.type == BlockType::Text) {
        m_out.textDelta(block.id, delta.value("text"_L1).toString());
    } else if (type == "thinking_delta"_L1 && block.type == BlockType::Thinking) {
        m_out.reasoningDelta(block.id, delta.value("thinking"_L1).toString());
    } else if (type == "signature_delta"_L1 && block.type == BlockType::Thinking) {
        block.signature.append(delta.value("signature"_L1).toString());
    } else if (type == "input_json_delta"_L1 && block.type == BlockType::ToolUse) {
        block.hasFragments = true;
        m_out.toolInputDelta(block.id, delta.value("partial_json"_L1).toString());
    } else if (block.type != BlockType::Skipped && type != "citations_delta"_L1) {
        qCDebug(lcProviderStream) << "skipping Anthropic delta" << type;
    }
}

void AnthropicStreamDecoder::stopBlock(const QJsonObject &payload)
{
    const int index = payload.value("index"_L1).toInt(-1);
    const auto it = m_blocks.find(index);
    if (it == m_blocks.end())
        return;
    const Block block = *it;
    m_blocks.erase(it);

    switch (block.type) {
    case BlockType::Text:
        m_out.endText(block.id);
        break;
    case BlockType::Thinking:
        m_out.endReasoning(block.id, block.signature.isEmpty() ? QJsonObject() : anthropicMetadata("signature", block.signature));
        break;
    case BlockType::RedactedThinking:
        m_out.endReasoning(block.id, anthropicMetadata("redactedData", block.redactedData));
        break;
    case BlockType::ToolUse:
        m_out.endToolInput(block.id, block.hasFragments ? std::nullopt : std::optional<QString>(block.initialInput));
        break;
    case BlockType::Skipped:
        break;
    }
}

void AnthropicStreamDecoder::mergeUsage(const QJsonObject &usage)
{
    // message_delta's usage is cumulative and supersedes message_start's,
    // but may omit fields; keep what only the start reported.
    for (auto it = usage.begin(); it != usage.end(); ++it) {
        if (!it.value().isNull())
            m_usage.insert(it.key(), it.value());
    }
}

StreamUsage AnthropicStreamDecoder::usage() const
{
    StreamUsage usage;
    usage.input = count(m_usage.value("input_tokens"_L1));
    usage.output = count(m_usage.value("output_tokens"_L1));
    usage.cacheRead = count(m_usage.value("cache_read_input_tokens"_L1));
    usage.cacheWrite = count(m_usage.value("cache_creation_input_tokens"_L1));
    usage.reasoning = count(m_usage.value("output_tokens_details"_L1).toObject().value("thinking_tokens"_L1));
    if (usage.input)
        usage.inputTotal = *usage.input + usage.cacheRead.value_or(0) + usage.cacheWrite.value_or(0);
    return usage;
}

void AnthropicStreamDecoder::finishStream()
{
    QJsonObject anthropic{{"usage"_L1, m_usage}};
    if (!m_messageId.isEmpty())
        anthropic.insert("messageId"_L1, m_messageId);
    if (!m_model.isEmpty())
        anthropic.insert("model"_L1, m_model);
    if (!m_stopDetails.isEmpty())
        anthropic.insert("stopDetails"_L1, m_stopDetails);
    m_out.finish(mapStopReason(m_stopReason), m_stopReason, usage(), QJsonObject{{"anthropic"_L1, anthropic}});
}

QList<ProviderEvent> AnthropicStreamDecoder::finish()
{
    if (!m_out.isFinished()) {
        // message_delta carries the stop reason; a body that ends after it
        // but before message_stop lost nothing that matters.
        if (m_stopReason.isEmpty() && !m_out.hasError())
            m_out.error(ProviderError::truncatedStream());
        finishStream();
    }
    return m_out.take();
}

} // namespace qcode
