#include "ProviderStreamParser.h"

namespace qcode {

ProviderStreamParser::ProviderStreamParser(WireProtocol protocol, qsizetype maxEventBytes)
    : m_reader(maxEventBytes)
    , m_decoder(StreamDecoder::create(protocol))
{
}

void ProviderStreamParser::decodeAll(const QList<SseEvent> &events, QList<ProviderEvent> &out)
{
    for (const SseEvent &event : events)
        out.append(m_decoder->decode(event));
    if (const auto error = m_reader.error(); error && !m_ended) {
        m_ended = true;
        out.append(m_decoder->fail(ProviderError::malformedStream(error->message)));
    }
}

QList<ProviderEvent> ProviderStreamParser::append(QByteArrayView bytes)
{
    QList<ProviderEvent> out;
    if (m_ended)
        return out;
    decodeAll(m_reader.append(bytes), out);
    return out;
}

QList<ProviderEvent> ProviderStreamParser::finish()
{
    QList<ProviderEvent> out;
    if (m_ended)
        return out;
    decodeAll(m_reader.flush(), out);
    if (m_ended)
        return out;
    m_ended = true;
    out.append(m_decoder->decodeUnframed(m_reader.takeUnframedText()));
    out.append(m_decoder->finish());
    return out;
}

} // namespace qcode
