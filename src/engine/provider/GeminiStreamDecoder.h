#pragma once

#include <QJsonObject>
#include <QString>

#include "StreamDecoder.h"

namespace qcode {

// Gemini `streamGenerateContent?alt=sse` (wire formats §6): every event is
// a whole GenerateContentResponse whose text parts are deltas, thought
// parts are reasoning, function calls arrive complete and without ids,
// usage is cumulative, and the finish reason sits on the last chunk with
// no terminal marker after it. Thought signatures are kept on the block or
// call that carried them, because Gemini wants them back exactly there.
class GeminiStreamDecoder final : public StreamDecoder
{
public:
    QList<ProviderEvent> decode(const SseEvent &event) override;
    QList<ProviderEvent> finish() override;

private:
    void decodePart(const QJsonObject &part);
    void endReasoning();
    void endText();
    StreamUsage usage() const;

    QString m_reasoningId;      // the open thought block, if any
    QString m_textId;           // the open text block, if any
    QString m_reasoningSignature;
    QString m_textSignature;
    int m_blockCount = 0;
    QString m_finishReason;
    QString m_finishMessage;
    QString m_blockReason;      // promptFeedback: the prompt itself was refused
    QJsonObject m_usage;
};

} // namespace qcode
