#include "OpenAIResponsesStreamDecoder.h"

#include "ProviderLogging.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString refusalId(const QString &itemId)
{
    return itemId + u"-refusal"_s;
}

StreamUsage readUsage(const QJsonObject &usage)
{
    StreamUsage result;
    if (usage.isEmpty())
        return result;
    const auto number = [](const QJsonValue &value) -> std::optional<qint64> {
        return value.isDouble() ? std::optional<qint64>(value.toInteger()) : std::nullopt;
    };
    const QJsonObject inputDetails = usage.value("input_tokens_details"_L1).toObject();
    result.input = number(usage.value("input_tokens"_L1));
    result.output = number(usage.value("output_tokens"_L1));
    result.cacheRead = number(inputDetails.value("cached_tokens"_L1));
    result.cacheWrite = number(inputDetails.value("cache_write_tokens"_L1));
    result.reasoning = number(usage.value("output_tokens_details"_L1).toObject().value("reasoning_tokens"_L1));
    result.inputTotal = result.input;
    return result;
}

} // namespace

QList<ProviderEvent> OpenAIResponsesStreamDecoder::decode(const SseEvent &event)
{
    if (m_out.isFinished())
        return {};
    const std::optional<QJsonObject> payload = parseObject(event);
    if (!payload)
        return {};

    const QString type = eventType(*payload, event);
    const QString itemId = payload->value("item_id"_L1).toString();

    if (type == "response.output_text.delta"_L1) {
        m_out.textDelta(itemId, payload->value("delta"_L1).toString());
    } else if (type == "response.reasoning_summary_text.delta"_L1 || type == "response.reasoning_text.delta"_L1) {
        reasoningDelta(*payload);
    } else if (type == "response.function_call_arguments.delta"_L1) {
        m_out.toolInputDelta(m_callIds.value(itemId, itemId), payload->value("delta"_L1).toString());
    } else if (type == "response.refusal.delta"_L1) {
        m_out.textDelta(refusalId(itemId), payload->value("delta"_L1).toString(), QJsonObject{{"refusal"_L1, true}});
    } else if (type == "response.output_item.added"_L1) {
        itemAdded(payload->value("item"_L1).toObject());
    } else if (type == "response.output_item.done"_L1) {
        itemDone(payload->value("item"_L1).toObject());
    } else if (type == "response.created"_L1 || type == "response.in_progress"_L1 || type == "response.queued"_L1) {
        m_out.start();
    } else if (type == "response.completed"_L1) {
        finishStream(u"completed"_s, payload->value("response"_L1).toObject());
    } else if (type == "response.incomplete"_L1) {
        finishStream(u"incomplete"_s, payload->value("response"_L1).toObject());
    } else if (type == "response.failed"_L1) {
        const QJsonObject response = payload->value("response"_L1).toObject();
        if (response.value("error"_L1).isObject())
            m_out.error(ProviderError::fromStreamPayload(QJsonObject{{"error"_L1, response.value("error"_L1)}}));
        else
            m_out.error(ProviderError::malformedStream(QCoreApplication::translate(
                "qcode::OpenAIResponsesStreamDecoder", "The provider reported that the response failed without saying why.")));
        finishStream(u"failed"_s, response);
    } else if (type == "error"_L1) {
        m_out.error(ProviderError::fromStreamPayload(*payload));
    } else {
        // Part boundaries, *.done echoes, annotations, hosted-tool progress:
        // nothing the event sequence needs.
        qCDebug(lcProviderStream) << "skipping Responses event" << type;
    }
    return m_out.take();
}

void OpenAIResponsesStreamDecoder::itemAdded(const QJsonObject &item)
{
    const QString type = item.value("type"_L1).toString();
    const QString id = item.value("id"_L1).toString();
    if (type == "reasoning"_L1) {
        m_out.startReasoning(id, QJsonObject{{"openai"_L1, QJsonObject{{"itemId"_L1, id}}}});
    } else if (type == "function_call"_L1) {
        QString callId = item.value("call_id"_L1).toString();
        if (callId.isEmpty())
            callId = StreamEmitter::generateToolCallId();
        m_callIds.insert(id, callId);
        m_out.startToolInput(callId, item.value("name"_L1).toString());
    }
}

void OpenAIResponsesStreamDecoder::itemDone(const QJsonObject &item)
{
    const QString type = item.value("type"_L1).toString();
    const QString id = item.value("id"_L1).toString();
    if (type == "reasoning"_L1) {
        QJsonObject openai{{"itemId"_L1, id}};
        // Replayed verbatim on the next request when the response is not
        // stored on OpenAI's side (store: false).
        const QString encrypted = item.value("encrypted_content"_L1).toString();
        if (!encrypted.isEmpty())
            openai.insert("reasoningEncryptedContent"_L1, encrypted);
        if (!m_out.isReasoningOpen(id))
            m_out.startReasoning(id, QJsonObject{{"openai"_L1, QJsonObject{{"itemId"_L1, id}}}});
        m_out.endReasoning(id, QJsonObject{{"openai"_L1, openai}});
    } else if (type == "message"_L1) {
        m_out.endText(id, QJsonObject{{"openai"_L1, QJsonObject{{"itemId"_L1, id}}}});
        m_out.endText(refusalId(id));
    } else if (type == "function_call"_L1) {
        const QString callId = m_callIds.value(id, item.value("call_id"_L1).toString());
        // The done item repeats the whole arguments text; it is the
        // authority when fragments went missing.
        const QJsonValue arguments = item.value("arguments"_L1);
        m_out.endToolInput(callId, arguments.isString() ? std::optional<QString>(arguments.toString()) : std::nullopt,
                           QJsonObject{{"openai"_L1, QJsonObject{{"itemId"_L1, id}}}});
    }
}

void OpenAIResponsesStreamDecoder::reasoningDelta(const QJsonObject &payload)
{
    const QString itemId = payload.value("item_id"_L1).toString();
    const int summaryIndex = payload.value("summary_index"_L1).toInt(0);
    const auto last = m_summaryIndex.constFind(itemId);
    QString text = payload.value("delta"_L1).toString();
    // Summary parts of one item read as paragraphs.
    if (last != m_summaryIndex.constEnd() && *last != summaryIndex)
        text.prepend(u"\n\n"_s);
    m_summaryIndex.insert(itemId, summaryIndex);
    m_out.reasoningDelta(itemId, text);
}

void OpenAIResponsesStreamDecoder::finishStream(const QString &status, const QJsonObject &response)
{
    FinishReason reason = FinishReason::Unknown;
    if (status == "completed"_L1) {
        reason = FinishReason::Stop;
    } else if (status == "incomplete"_L1) {
        const QString why = response.value("incomplete_details"_L1).toObject().value("reason"_L1).toString();
        if (why == "max_output_tokens"_L1)
            reason = FinishReason::Length;
        else if (why == "content_filter"_L1)
            reason = FinishReason::ContentFilter;
    } else if (status == "failed"_L1) {
        reason = FinishReason::Error;
    }
    // The in-progress items of an incomplete response are cut: their calls
    // close here without parseable input where it is truncated.
    m_out.closeOpenBlocks();
    if (reason == FinishReason::Stop && m_out.toolCallCount() > 0)
        reason = FinishReason::ToolCalls;

    QJsonObject openai;
    if (!response.value("id"_L1).toString().isEmpty())
        openai.insert("responseId"_L1, response.value("id"_L1));
    if (response.value("usage"_L1).isObject())
        openai.insert("usage"_L1, response.value("usage"_L1));
    m_out.finish(reason, status, readUsage(response.value("usage"_L1).toObject()),
                 openai.isEmpty() ? QJsonObject() : QJsonObject{{"openai"_L1, openai}});
}

QList<ProviderEvent> OpenAIResponsesStreamDecoder::finish()
{
    if (!m_out.isFinished()) {
        if (!m_out.hasError())
            m_out.error(ProviderError::truncatedStream());
        finishStream(QString(), QJsonObject());
    }
    return m_out.take();
}

} // namespace qcode
