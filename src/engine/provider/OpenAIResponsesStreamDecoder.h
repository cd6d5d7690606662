#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>

#include "StreamDecoder.h"

namespace qcode {

// OpenAI Responses streaming (wire formats §5): output items (reasoning
// with summary parts and encrypted content, messages with output_text and
// refusal deltas, function calls whose `call_id` is the id to echo back)
// and the terminal response.completed / .incomplete / .failed carrying
// usage. `error` events become error events.
class OpenAIResponsesStreamDecoder final : public StreamDecoder
{
public:
    QList<ProviderEvent> decode(const SseEvent &event) override;
    QList<ProviderEvent> finish() override;

private:
    void itemAdded(const QJsonObject &item);
    void itemDone(const QJsonObject &item);
    void reasoningDelta(const QJsonObject &payload);
    void finishStream(const QString &status, const QJsonObject &response);

    QHash<QString, QString> m_callIds;          // fc_… item id → call_… id
    QHash<QString, int> m_summaryIndex;         // reasoning item id → last summary part seen
};

} // namespace qcode
