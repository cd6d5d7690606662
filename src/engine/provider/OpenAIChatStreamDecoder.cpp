#include "OpenAIChatStreamDecoder.h"

#include "ProviderLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QString TextId = u"text-0"_s;
const QString RefusalId = u"refusal-0"_s;
const QString ReasoningId = u"reasoning-0"_s;

FinishReason mapFinishReason(const QString &reason)
{
    if (reason == "stop"_L1)
        return FinishReason::Stop;
    if (reason == "length"_L1)
        return FinishReason::Length;
    if (reason == "tool_calls"_L1 || reason == "function_call"_L1)
        return FinishReason::ToolCalls;
    if (reason == "content_filter"_L1)
        return FinishReason::ContentFilter;
    if (reason == "insufficient_system_resource"_L1 || reason == "error"_L1)
        return FinishReason::Error;
    return FinishReason::Unknown;
}

} // namespace

QList<ProviderEvent> OpenAIChatStreamDecoder::decode(const SseEvent &event)
{
    if (m_out.isFinished())
        return {};
    if (event.data == "[DONE]") {
        m_doneSeen = true;
        finishStream();
        return m_out.take();
    }
    const std::optional<QJsonObject> chunk = parseObject(event);
    if (!chunk)
        return {};

    // Usage arrives alone (include_usage), beside the finish reason
    // (DeepSeek), twice (OpenRouter) or inside x_groq; the last one wins.
    if (chunk->value("usage"_L1).isObject())
        m_usage = chunk->value("usage"_L1).toObject();
    else if (m_usage.isEmpty() && chunk->value("x_groq"_L1).toObject().value("usage"_L1).isObject())
        m_usage = chunk->value("x_groq"_L1).toObject().value("usage"_L1).toObject();

    const QJsonValue error = chunk->value("error"_L1);
    if (error.isObject() || error.isString()) {
        m_out.error(ProviderError::fromStreamPayload(*chunk));
        return m_out.take();
    }

    m_out.start();
    const QJsonArray choices = chunk->value("choices"_L1).toArray();
    for (const QJsonValue &choice : choices) {
        const QJsonObject object = choice.toObject();
        // Only the first choice: qcode never asks for n > 1.
        if (object.value("index"_L1).toInt(0) == 0)
            decodeChoice(object);
    }
    return m_out.take();
}

void OpenAIChatStreamDecoder::decodeChoice(const QJsonObject &choice)
{
    const QJsonObject delta = choice.value("delta"_L1).toObject();

    QString reasoning = delta.value("reasoning_content"_L1).toString();
    if (reasoning.isEmpty())
        reasoning = delta.value("reasoning"_L1).toString();
    if (!reasoning.isEmpty())
        m_out.reasoningDelta(ReasoningId, reasoning);
    const QJsonArray details = delta.value("reasoning_details"_L1).toArray();
    for (const QJsonValue &detail : details) {
        if (detail.toObject().value("type"_L1).toString() == "reasoning.encrypted"_L1)
            m_reasoningDetails.append(detail);
    }

    const QString content = delta.value("content"_L1).toString();
    if (!content.isEmpty()) {
        // Reasoning precedes the answer; once text starts it is complete.
        if (m_out.isReasoningOpen(ReasoningId))
            m_out.endReasoning(ReasoningId, m_reasoningDetails.isEmpty()
                                                ? QJsonObject()
                                                : QJsonObject{{"openrouter"_L1, QJsonObject{{"reasoningDetails"_L1, m_reasoningDetails}}}});
        m_out.textDelta(TextId, content);
    }

    const QString refusal = delta.value("refusal"_L1).toString();
    if (!refusal.isEmpty())
        m_out.textDelta(RefusalId, refusal, QJsonObject{{"refusal"_L1, true}});

    const QJsonArray toolCalls = delta.value("tool_calls"_L1).toArray();
    for (qsizetype i = 0; i < toolCalls.size(); ++i)
        decodeToolCallDelta(toolCalls.at(i).toObject(), int(i));

    const QString finishReason = choice.value("finish_reason"_L1).toString();
    if (!finishReason.isEmpty()) {
        m_finishReason = finishReason;
        // The arguments are complete once a finish reason arrives; the
        // usage chunk and [DONE] may still follow.
        endToolCalls();
    }
}

void OpenAIChatStreamDecoder::decodeToolCallDelta(const QJsonObject &toolCall, int position)
{
    // Fragments are keyed by `index`; a proxy that omits it is matched by
    // id, then by position in the array.
    const QString id = toolCall.value("id"_L1).toString();
    const bool hasIndex = toolCall.value("index"_L1).isDouble();
    const int index = hasIndex ? toolCall.value("index"_L1).toInt() : position;

    ToolCall *call = nullptr;
    for (ToolCall &known : m_toolCalls) {
        if ((!hasIndex && !id.isEmpty()) ? known.id == id : known.index == index) {
            call = &known;
            break;
        }
    }

    const QJsonObject function = toolCall.value("function"_L1).toObject();
    if (!call) {
        // Qwen sends later fragments with "id": "" — never an id to adopt,
        // and a first fragment without one gets a local id.
        m_toolCalls.append({index, id.isEmpty() ? StreamEmitter::generateToolCallId() : id});
        call = &m_toolCalls.last();
        m_out.startToolInput(call->id, function.value("name"_L1).toString());
    }
    if (!m_out.isToolInputOpen(call->id)) {
        qCWarning(lcProviderStream) << "skipping a fragment for tool call" << call->id << "after it ended";
        return;
    }
    m_out.toolInputDelta(call->id, function.value("arguments"_L1).toString());
}

void OpenAIChatStreamDecoder::endToolCalls()
{
    for (const ToolCall &call : std::as_const(m_toolCalls))
        m_out.endToolInput(call.id);
}

StreamUsage OpenAIChatStreamDecoder::usage() const
{
    StreamUsage usage;
    if (m_usage.isEmpty())
        return usage;
    const QJsonObject promptDetails = m_usage.value("prompt_tokens_details"_L1).toObject();
    usage.input = count(m_usage.value("prompt_tokens"_L1));
    usage.output = count(m_usage.value("completion_tokens"_L1));
    usage.cacheRead = count(promptDetails.value("cached_tokens"_L1));
    if (!usage.cacheRead)
        usage.cacheRead = count(m_usage.value("prompt_cache_hit_tokens"_L1)); // DeepSeek
    usage.cacheWrite = count(promptDetails.value("cache_write_tokens"_L1));   // OpenRouter
    usage.reasoning = count(m_usage.value("completion_tokens_details"_L1).toObject().value("reasoning_tokens"_L1));
    usage.inputTotal = usage.input;
    return usage;
}

void OpenAIChatStreamDecoder::finishStream()
{
    endToolCalls();
    FinishReason reason = mapFinishReason(m_finishReason);
    // Some local servers answer "stop" after calling tools; the loop must
    // still run them.
    if (reason == FinishReason::Stop && m_out.toolCallCount() > 0)
        reason = FinishReason::ToolCalls;
    QJsonObject metadata;
    if (!m_usage.isEmpty())
        metadata.insert("openai"_L1, QJsonObject{{"usage"_L1, m_usage}});
    m_out.finish(reason, m_finishReason, usage(), metadata);
}

QList<ProviderEvent> OpenAIChatStreamDecoder::finish()
{
    if (!m_out.isFinished()) {
        if (!m_doneSeen && m_finishReason.isEmpty() && !m_out.hasError())
            m_out.error(ProviderError::truncatedStream());
        finishStream();
    }
    return m_out.take();
}

} // namespace qcode
