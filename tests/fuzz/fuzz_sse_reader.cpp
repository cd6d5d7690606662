// The SSE reader against arbitrary bytes: it never crashes, never grows
// past its ceiling, and gives the same events however the bytes are split.
#include <QByteArrayView>

#include "FuzzTarget.h"
#include "engine/provider/SseReader.h"

using namespace qcode;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    // The first byte chooses the read size, the rest is the body.
    const qsizetype chunk = 1 + data[0] % 64;
    const QByteArrayView body(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    constexpr qsizetype Ceiling = 2048;

    SseReader whole(Ceiling);
    QList<SseEvent> expected = whole.append(body);
    expected += whole.flush();

    SseReader pieces(Ceiling);
    QList<SseEvent> actual;
    for (qsizetype at = 0; at < body.size(); at += chunk)
        actual += pieces.append(body.sliced(at, std::min(chunk, body.size() - at)));
    actual += pieces.flush();

    for (const SseEvent &event : std::as_const(actual))
        FUZZ_CHECK(event.data.size() <= Ceiling);
    // Past the ceiling the reader stops, and where it stops may depend on
    // the split; below it, splitting must not change anything.
    if (!whole.error() && !pieces.error())
        FUZZ_CHECK(actual == expected);
    return 0;
}
