#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

#include "SseEvent.h"
#include "model/Result.h"

namespace qcode {

// Turns the bytes of a text/event-stream body into events, following the
// WHATWG "event stream interpretation" rules: LF, CRLF and CR line endings
// (a CR ending one read and an LF starting the next are one ending), a
// leading UTF-8 BOM dropped, `data:` lines joined with '\n', comments,
// `event:`, `id:` and `retry:`. Bytes are kept until a line is complete, so
// a read that ends inside a multi-byte character costs nothing.
//
// Providers deviate from the spec in two known ways and the reader is
// lenient about both: an event still pending when the body ends is
// dispatched by flush() (two real Anthropic recordings lack the final blank
// line), and lines that are not SSE fields are kept (bounded) so a caller can
// notice an error object a server appended without framing (Gemini).
//
// One event or line larger than the ceiling stops the reader with an error
// instead of growing without bound.
class SseReader
{
public:
    // Large enough for the biggest single lines seen in practice (a 360 KB
    // delta, 100 KB tool results), small enough that a runaway body cannot
    // exhaust memory.
    static constexpr qsizetype DefaultMaxEventBytes = 16 * 1024 * 1024;

    struct Statistics {
        qsizetype events = 0;
        qsizetype comments = 0;
        qsizetype ignoredLines = 0;
        bool pendingAtEnd = false;
    };

    // Receives each event as it is dispatched. The event is the reader's
    // own and its buffers are reused for the next one (a stream of
    // thousands of deltas then allocates nothing per event): copy what must
    // outlive the call.
    using Sink = std::function<void(const SseEvent &)>;

    explicit SseReader(qsizetype maxEventBytes = DefaultMaxEventBytes);

    QList<SseEvent> append(QByteArrayView bytes);
    void append(QByteArrayView bytes, const Sink &sink);
    // The body ended: completes a last unterminated line and dispatches a
    // pending event. The reader can then be reused for a new body.
    QList<SseEvent> flush();
    void flush(const Sink &sink);

    // Set once the ceiling was exceeded; append() then ignores its input.
    std::optional<Error> error() const { return m_error; }
    qsizetype maxEventBytes() const { return m_maxEventBytes; }
    const Statistics &statistics() const { return m_statistics; }

    // Lines that were neither fields nor comments, joined with '\n'.
    QByteArray takeUnframedText();

private:
    void consume(QByteArrayView bytes, const Sink &sink);
    void processLine(QByteArrayView line, const Sink &sink);
    void setEventType(QByteArrayView type);
    void dispatch(const Sink &sink);
    void fail(const QString &message);
    void resetEvent();

    qsizetype m_maxEventBytes;
    QByteArray m_partialLine;     // bytes of a line whose ending has not arrived
    QByteArray m_bomProbe;        // the first bytes, until we know if they are a BOM
    bool m_bomChecked = false;
    bool m_skipLeadingLf = false; // the previous read ended with CR

    SseEvent m_event;             // the event being gathered; its data buffer is reused
    bool m_hasData = false;
    QByteArray m_lastTypeBytes;   // the last `event:` value and its text, so that
    QString m_lastType;           // a repeated type is not decoded again
    QString m_lastEventId;

    QByteArray m_unframed;
    Statistics m_statistics;
    std::optional<Error> m_error;
};

} // namespace qcode
