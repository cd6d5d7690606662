#pragma once

#include <QByteArrayView>
#include <QJsonObject>
#include <QList>

#include <memory>
#include <optional>

#include "ProviderEvent.h"
#include "SseEvent.h"
#include "StreamEmitter.h"
#include "WireProtocol.h"

namespace qcode {

// Turns one protocol's SSE events into ProviderEvents. A decoder is pure:
// no I/O, no clock, no signals, so it is tested with recorded bodies and
// fed by whatever owns the connection. Bad payloads never throw or crash:
// they are skipped with a log line or become an error event.
class StreamDecoder
{
public:
    virtual ~StreamDecoder() = default;

    virtual QList<ProviderEvent> decode(const SseEvent &event) = 0;
    // The same events, appended to `out` rather than returned in a list of
    // their own: what a streaming parser calls for each of its events.
    void decodeInto(const SseEvent &event, QList<ProviderEvent> &out);
    // The body ended. Completes the sequence: the finish the provider
    // announced, or an error when the stream was cut short.
    virtual QList<ProviderEvent> finish() = 0;

    // Text found in the body outside SSE framing. Gemini has been seen
    // appending a bare JSON error object after its last event; a JSON
    // object with an `error` member there is reported as the error.
    QList<ProviderEvent> decodeUnframed(QByteArrayView text);
    // The transport or framing failed: report it and end the sequence.
    QList<ProviderEvent> fail(const ProviderError &error);

    static std::unique_ptr<StreamDecoder> create(WireProtocol protocol);

protected:
    // The event's JSON object, or nothing (logged) when it is not one.
    // Invalid UTF-8 is replaced rather than losing the whole event.
    static std::optional<QJsonObject> parseObject(const SseEvent &event);
    // The payload's own "type", else the SSE event name (Anthropic and
    // Responses send both; recorders sometimes keep only one).
    static QString eventType(const QJsonObject &payload, const SseEvent &event);
    // A token count when the value is a number; providers send null or
    // leave fields out when they did not count them.
    static std::optional<qint64> count(const QJsonValue &value);

    StreamEmitter m_out;
};

} // namespace qcode
