#include "ProviderStreamParser.h"

namespace qcode {

ProviderStreamParser::ProviderStreamParser(WireProtocol protocol, qsizetype maxEventBytes)
    : m_reader(maxEventBytes)
    , m_decoder(StreamDecoder::create(protocol))
{
}

// Each event is decoded while the reader still holds it: the reader reuses
// its buffers for the next one.
SseReader::Sink ProviderStreamParser::decoderInto(QList<ProviderEvent> &out)
{
    return [this, &out](const SseEvent &event) { m_decoder->decodeInto(event, out); };
}

void ProviderStreamParser::checkFraming(QList<ProviderEvent> &out)
{
    if (const auto error = m_reader.error(); error && !m_ended) {
        m_ended = true;
        out.append(m_decoder->fail(ProviderError::malformedStream(error->message)));
    }
}

QList<ProviderEvent> ProviderStreamParser::append(QByteArrayView bytes)
{
    QList<ProviderEvent> out;
    append(bytes, out);
    return out;
}

void ProviderStreamParser::append(QByteArrayView bytes, QList<ProviderEvent> &out)
{
    if (m_ended)
        return;
    m_reader.append(bytes, decoderInto(out));
    checkFraming(out);
}

QList<ProviderEvent> ProviderStreamParser::finish()
{
    QList<ProviderEvent> out;
    if (m_ended)
        return out;
    m_reader.flush(decoderInto(out));
    checkFraming(out);
    if (m_ended)
        return out;
    m_ended = true;
    out.append(m_decoder->decodeUnframed(m_reader.takeUnframedText()));
    out.append(m_decoder->finish());
    return out;
}

} // namespace qcode
