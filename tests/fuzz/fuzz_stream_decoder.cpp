// One protocol's decoding against arbitrary input (QCODE_FUZZ_PROTOCOL
// names the protocol at compile time). Even first byte: the input is a
// response body for ProviderStreamParser. Odd: each line is one event's
// JSON payload handed straight to the decoder, which reaches deep into
// the JSON handling without the framing in the way. Either way the
// sequence stays well formed: nothing follows the finish event, and a
// finished stream ends with exactly one.
#include <QByteArrayView>

#include "FuzzTarget.h"
#include "engine/provider/ProviderStreamParser.h"
#include "engine/provider/StreamDecoder.h"

using namespace qcode;

namespace {

void checkSequence(const QList<ProviderEvent> &events)
{
    qsizetype finishes = 0;
    for (qsizetype i = 0; i < events.size(); ++i) {
        if (std::holds_alternative<FinishEvent>(events[i])) {
            ++finishes;
            FUZZ_CHECK(i == events.size() - 1);
        }
    }
    FUZZ_CHECK(finishes <= 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArrayView body(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    QList<ProviderEvent> events;
    if (data[0] % 2 == 0) {
        ProviderStreamParser parser(QCODE_FUZZ_PROTOCOL, 4096);
        const qsizetype chunk = 1 + data[0] % 97;
        for (qsizetype at = 0; at < body.size(); at += chunk)
            events += parser.append(body.sliced(at, std::min(chunk, body.size() - at)));
        events += parser.finish();
    } else {
        auto decoder = StreamDecoder::create(QCODE_FUZZ_PROTOCOL);
        for (const QByteArrayView line : QByteArray(body.data(), body.size()).split('\n'))
            events += decoder->decode(SseEvent{QString(), line.toByteArray(), QString(), std::nullopt});
        events += decoder->finish();
    }
    checkSequence(events);
    return 0;
}
