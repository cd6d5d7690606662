#include "StreamDecoder.h"

#include "AnthropicStreamDecoder.h"
#include "GeminiStreamDecoder.h"
#include "OpenAIChatStreamDecoder.h"
#include "OpenAIResponsesStreamDecoder.h"
#include "ProviderLogging.h"

#include <QJsonDocument>

namespace qcode {

std::unique_ptr<StreamDecoder> StreamDecoder::create(WireProtocol protocol)
{
    switch (protocol) {
    case WireProtocol::AnthropicMessages: return std::make_unique<AnthropicStreamDecoder>();
    case WireProtocol::OpenAIChat: return std::make_unique<OpenAIChatStreamDecoder>();
    case WireProtocol::OpenAIResponses: return std::make_unique<OpenAIResponsesStreamDecoder>();
    case WireProtocol::Gemini: return std::make_unique<GeminiStreamDecoder>();
    }
    return std::make_unique<OpenAIChatStreamDecoder>();
}

void StreamDecoder::decodeInto(const SseEvent &event, QList<ProviderEvent> &out)
{
    m_out.collectInto(&out);
    QList<ProviderEvent> rest = decode(event);
    m_out.collectInto(nullptr);
    out.append(std::move(rest));
}

QString StreamDecoder::eventType(const QJsonObject &payload, const SseEvent &event)
{
    const QString type = payload.value(QLatin1StringView("type")).toString();
    return type.isEmpty() ? event.event : type;
}

std::optional<QJsonObject> StreamDecoder::parseObject(const SseEvent &event)
{
    QJsonParseError error;
    QJsonDocument document = QJsonDocument::fromJson(event.data, &error);
    if (error.error == QJsonParseError::IllegalUTF8String) {
        qCWarning(lcProviderStream) << "event data is not valid UTF-8; replacing the bad bytes";
        document = QJsonDocument::fromJson(QString::fromUtf8(event.data).toUtf8(), &error);
    }
    if (error.error != QJsonParseError::NoError) {
        qCWarning(lcProviderStream).nospace() << "skipping an event whose data is not JSON (" << error.errorString()
                                              << " at offset " << error.offset << "): " << event.data.left(200);
        return std::nullopt;
    }
    if (!document.isObject()) {
        qCWarning(lcProviderStream) << "skipping an event whose data is not a JSON object:" << event.data.left(200);
        return std::nullopt;
    }
    return document.object();
}

std::optional<qint64> StreamDecoder::count(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    return value.toInteger();
}

QList<ProviderEvent> StreamDecoder::fail(const ProviderError &error)
{
    m_out.error(error);
    QList<ProviderEvent> events = m_out.take();
    events.append(finish());
    return events;
}

QList<ProviderEvent> StreamDecoder::decodeUnframed(QByteArrayView text)
{
    const QByteArray trimmed = text.toByteArray().trimmed();
    if (trimmed.isEmpty())
        return {};
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(trimmed, &parseError);
    if (parseError.error == QJsonParseError::NoError && document.isObject()
        && document.object().contains(QLatin1StringView("error"))) {
        qCWarning(lcProviderStream) << "the provider appended an unframed error object to the stream";
        m_out.error(ProviderError::fromStreamPayload(document.object()));
    } else {
        qCInfo(lcProviderStream) << "ignoring text outside SSE framing:" << trimmed.left(200);
    }
    return m_out.take();
}

} // namespace qcode
