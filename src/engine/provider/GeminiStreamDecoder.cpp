#include "GeminiStreamDecoder.h"

#include "ProviderLogging.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

FinishReason mapFinishReason(const QString &reason)
{
    if (reason == "STOP"_L1)
        return FinishReason::Stop;
    if (reason == "MAX_TOKENS"_L1)
        return FinishReason::Length;
    static const QLatin1StringView filtered[] = {"SAFETY"_L1, "RECITATION"_L1, "BLOCKLIST"_L1, "PROHIBITED_CONTENT"_L1,
                                                 "SPII"_L1, "IMAGE_SAFETY"_L1, "LANGUAGE"_L1};
    for (QLatin1StringView name : filtered) {
        if (reason == name)
            return FinishReason::ContentFilter;
    }
    if (reason == "MALFORMED_FUNCTION_CALL"_L1 || reason == "UNEXPECTED_TOOL_CALL"_L1)
        return FinishReason::Error;
    return FinishReason::Unknown;
}

QJsonObject signatureMetadata(const QString &signature)
{
    if (signature.isEmpty())
        return {};
    return QJsonObject{{"google"_L1, QJsonObject{{"thoughtSignature"_L1, signature}}}};
}

} // namespace

QList<ProviderEvent> GeminiStreamDecoder::decode(const SseEvent &event)
{
    if (m_out.isFinished())
        return {};
    const std::optional<QJsonObject> chunk = parseObject(event);
    if (!chunk)
        return {};

    if (chunk->contains("error"_L1)) {
        m_out.error(ProviderError::fromStreamPayload(*chunk));
        return m_out.take();
    }

    m_out.start();
    if (chunk->value("usageMetadata"_L1).isObject())
        m_usage = chunk->value("usageMetadata"_L1).toObject(); // cumulative: the last one is the total
    const QString blockReason = chunk->value("promptFeedback"_L1).toObject().value("blockReason"_L1).toString();
    if (!blockReason.isEmpty())
        m_blockReason = blockReason;

    const QJsonArray candidates = chunk->value("candidates"_L1).toArray();
    if (!candidates.isEmpty()) {
        const QJsonObject candidate = candidates.first().toObject();
        const QJsonArray parts = candidate.value("content"_L1).toObject().value("parts"_L1).toArray();
        for (const QJsonValue &part : parts)
            decodePart(part.toObject());
        const QString finishReason = candidate.value("finishReason"_L1).toString();
        if (!finishReason.isEmpty())
            m_finishReason = finishReason;
        const QString finishMessage = candidate.value("finishMessage"_L1).toString();
        if (!finishMessage.isEmpty())
            m_finishMessage = finishMessage;
    }
    return m_out.take();
}

void GeminiStreamDecoder::decodePart(const QJsonObject &part)
{
    const QString signature = part.value("thoughtSignature"_L1).toString();

    if (part.value("functionCall"_L1).isObject()) {
        endReasoning();
        endText();
        const QJsonObject call = part.value("functionCall"_L1).toObject();
        QString id = call.value("id"_L1).toString();
        if (id.isEmpty())
            id = StreamEmitter::generateToolCallId();
        const QJsonObject args = call.value("args"_L1).toObject();
        m_out.toolCall(id, call.value("name"_L1).toString(),
                       QString::fromUtf8(QJsonDocument(args).toJson(QJsonDocument::Compact)), signatureMetadata(signature));
        return;
    }
    if (!part.contains("text"_L1)) {
        if (!signature.isEmpty()) {
            // A signature on a part kind qcode does not show still has to
            // travel back; the open text block is the nearest home.
            m_textSignature = signature;
        } else {
            qCDebug(lcProviderStream) << "skipping a Gemini part with keys" << part.keys();
        }
        return;
    }

    const QString text = part.value("text"_L1).toString();
    if (part.value("thought"_L1).toBool()) {
        endText();
        if (m_reasoningId.isEmpty())
            m_reasoningId = u"reasoning-"_s + QString::number(m_blockCount++);
        m_out.reasoningDelta(m_reasoningId, text);
        if (!signature.isEmpty())
            m_reasoningSignature = signature;
        return;
    }

    endReasoning();
    if (m_textId.isEmpty()) {
        // An empty text part that only carries a signature still opens a
        // block, so the signature has a part to ride on.
        if (text.isEmpty() && signature.isEmpty())
            return;
        m_textId = u"text-"_s + QString::number(m_blockCount++);
    }
    m_out.textDelta(m_textId, text);
    if (!signature.isEmpty())
        m_textSignature = signature;
}

void GeminiStreamDecoder::endReasoning()
{
    if (m_reasoningId.isEmpty())
        return;
    m_out.endReasoning(m_reasoningId, signatureMetadata(m_reasoningSignature));
    m_reasoningId.clear();
    m_reasoningSignature.clear();
}

void GeminiStreamDecoder::endText()
{
    if (m_textId.isEmpty())
        return;
    m_out.endText(m_textId, signatureMetadata(m_textSignature));
    m_textId.clear();
    m_textSignature.clear();
}

StreamUsage GeminiStreamDecoder::usage() const
{
    StreamUsage usage;
    if (m_usage.isEmpty())
        return usage;
    usage.input = count(m_usage.value("promptTokenCount"_L1));
    const std::optional<qint64> candidates = count(m_usage.value("candidatesTokenCount"_L1));
    usage.reasoning = count(m_usage.value("thoughtsTokenCount"_L1));
    // Gemini counts thoughts apart from the answer; qcode's output includes
    // reasoning, as the other providers' does.
    usage.output = candidates.value_or(0) + usage.reasoning.value_or(0);
    usage.cacheRead = count(m_usage.value("cachedContentTokenCount"_L1));
    usage.inputTotal = usage.input;
    return usage;
}

QList<ProviderEvent> GeminiStreamDecoder::finish()
{
    if (!m_out.isFinished()) {
        // There is no terminal marker: a finish reason on the last chunk is
        // the only sign the answer was complete.
        if (m_finishReason.isEmpty() && m_blockReason.isEmpty() && !m_out.hasError())
            m_out.error(ProviderError::truncatedStream());
        endReasoning();
        endText();

        FinishReason reason = mapFinishReason(m_finishReason);
        QString raw = m_finishReason;
        if (m_finishReason.isEmpty() && !m_blockReason.isEmpty()) {
            reason = FinishReason::ContentFilter;
            raw = m_blockReason;
        }
        if (reason == FinishReason::Stop && m_out.toolCallCount() > 0)
            reason = FinishReason::ToolCalls;

        QJsonObject google;
        if (!m_usage.isEmpty())
            google.insert("usageMetadata"_L1, m_usage);
        if (!m_finishMessage.isEmpty())
            google.insert("finishMessage"_L1, m_finishMessage);
        if (!m_blockReason.isEmpty())
            google.insert("blockReason"_L1, m_blockReason);
        m_out.finish(reason, raw, usage(), google.isEmpty() ? QJsonObject() : QJsonObject{{"google"_L1, google}});
    }
    return m_out.take();
}

} // namespace qcode
