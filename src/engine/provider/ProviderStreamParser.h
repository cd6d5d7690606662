#pragma once

#include <QByteArrayView>
#include <QList>

#include <memory>

#include "ProviderEvent.h"
#include "SseReader.h"
#include "StreamDecoder.h"
#include "WireProtocol.h"

namespace qcode {

// Response body bytes in, provider events out: the SSE reader and the
// protocol's decoder joined, with the two places they meet handled once —
// a framing failure (an event over the size ceiling) ends the sequence with
// an error, and text left outside the framing is offered to the decoder at
// the end. What a streaming client feeds its reads into.
class ProviderStreamParser
{
public:
    explicit ProviderStreamParser(WireProtocol protocol, qsizetype maxEventBytes = SseReader::DefaultMaxEventBytes);

    QList<ProviderEvent> append(QByteArrayView bytes);
    // The same events, appended to `out`: a client that reuses one list for
    // every read allocates nothing per event.
    void append(QByteArrayView bytes, QList<ProviderEvent> &out);
    // The body ended.
    QList<ProviderEvent> finish();

    const SseReader &reader() const { return m_reader; }

private:
    SseReader::Sink decoderInto(QList<ProviderEvent> &out);
    void checkFraming(QList<ProviderEvent> &out);

    SseReader m_reader;
    std::unique_ptr<StreamDecoder> m_decoder;
    bool m_ended = false;
};

} // namespace qcode
