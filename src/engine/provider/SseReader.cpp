#include "SseReader.h"

#include "ProviderLogging.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

constexpr QByteArrayView Bom("\xEF\xBB\xBF");

// Where the next CR or LF is, or -1.
qsizetype indexOfLineEnd(QByteArrayView bytes, qsizetype from)
{
    const char *begin = bytes.data();
    const char *end = begin + bytes.size();
    const char *hit = std::find_if(begin + from, end, [](char c) { return c == '\n' || c == '\r'; });
    return hit == end ? -1 : hit - begin;
}

std::optional<int> parseRetry(QByteArrayView value)
{
    // WHATWG: only ASCII digits; anything else leaves the field ignored.
    if (value.isEmpty())
        return std::nullopt;
    qint64 result = 0;
    for (char c : value) {
        if (c < '0' || c > '9')
            return std::nullopt;
        result = std::min<qint64>(result * 10 + (c - '0'), std::numeric_limits<int>::max());
    }
    return int(result);
}

constexpr qsizetype KeptBufferBytes = 64 * 1024;

// What the copying overloads collect into.
SseReader::Sink collectInto(QList<SseEvent> &out)
{
    return [&out](const SseEvent &event) { out.append(event); };
}

} // namespace

SseReader::SseReader(qsizetype maxEventBytes)
    : m_maxEventBytes(std::max<qsizetype>(maxEventBytes, 16))
{
}

QList<SseEvent> SseReader::append(QByteArrayView bytes)
{
    QList<SseEvent> out;
    append(bytes, collectInto(out));
    return out;
}

void SseReader::append(QByteArrayView bytes, const Sink &sink)
{
    if (m_error || bytes.isEmpty())
        return;

    if (!m_bomChecked) {
        // The BOM may itself be split across reads, so hold the first bytes
        // until there are three of them or they stop looking like a BOM.
        m_bomProbe.append(bytes);
        if (m_bomProbe.size() < Bom.size() && Bom.startsWith(m_bomProbe))
            return;
        m_bomChecked = true;
        const QByteArray probe = std::exchange(m_bomProbe, {});
        const QByteArrayView rest = probe.startsWith(Bom) ? QByteArrayView(probe).sliced(Bom.size()) : QByteArrayView(probe);
        consume(rest, sink);
        return;
    }
    consume(bytes, sink);
}

void SseReader::consume(QByteArrayView bytes, const Sink &sink)
{
    qsizetype pos = 0;
    if (m_skipLeadingLf && !bytes.isEmpty()) {
        m_skipLeadingLf = false;
        if (bytes.front() == '\n')
            pos = 1;
    }

    while (pos < bytes.size() && !m_error) {
        const qsizetype end = indexOfLineEnd(bytes, pos);
        if (end < 0) {
            if (m_partialLine.size() + (bytes.size() - pos) > m_maxEventBytes) {
                fail(QCoreApplication::translate("qcode::SseReader",
                                                 "The provider sent a line longer than %1 bytes; the stream was stopped.")
                         .arg(m_maxEventBytes));
                return;
            }
            m_partialLine.append(bytes.sliced(pos));
            return;
        }

        const QByteArrayView piece = bytes.sliced(pos, end - pos);
        if (m_partialLine.isEmpty()) {
            if (piece.size() > m_maxEventBytes) {
                fail(QCoreApplication::translate("qcode::SseReader",
                                                 "The provider sent a line longer than %1 bytes; the stream was stopped.")
                         .arg(m_maxEventBytes));
                return;
            }
            processLine(piece, sink);
        } else {
            m_partialLine.append(piece);
            if (m_partialLine.size() > m_maxEventBytes) {
                fail(QCoreApplication::translate("qcode::SseReader",
                                                 "The provider sent a line longer than %1 bytes; the stream was stopped.")
                         .arg(m_maxEventBytes));
                return;
            }
            processLine(m_partialLine, sink);
            // Emptied, not freed: the next read usually ends inside a line too.
            if (m_partialLine.capacity() > KeptBufferBytes)
                m_partialLine = QByteArray();
            else
                m_partialLine.resize(0);
        }

        pos = end + 1;
        if (bytes[end] == '\r') {
            if (pos < bytes.size()) {
                if (bytes[pos] == '\n')
                    ++pos;
            } else {
                // The LF of a CRLF may be the first byte of the next read.
                m_skipLeadingLf = true;
            }
        }
    }
}

void SseReader::processLine(QByteArrayView line, const Sink &sink)
{
    if (line.isEmpty()) {
        dispatch(sink);
        return;
    }
    if (line.front() == ':') {
        ++m_statistics.comments;
        return;
    }

    QByteArrayView field = line;
    QByteArrayView value;
    const qsizetype colon = line.indexOf(':');
    if (colon >= 0) {
        field = line.first(colon);
        value = line.sliced(colon + 1);
        if (!value.isEmpty() && value.front() == ' ')
            value = value.sliced(1);
    }

    if (field == "data") {
        if (m_event.data.size() + value.size() + 1 > m_maxEventBytes) {
            fail(QCoreApplication::translate("qcode::SseReader",
                                             "The provider sent an event larger than %1 bytes; the stream was stopped.")
                     .arg(m_maxEventBytes));
            return;
        }
        if (m_hasData)
            m_event.data.append('\n');
        m_event.data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        setEventType(value);
    } else if (field == "id") {
        // WHATWG: an id containing NUL is ignored.
        if (!value.contains('\0'))
            m_lastEventId = QString::fromUtf8(value);
    } else if (field == "retry") {
        if (const auto retry = parseRetry(value))
            m_event.retry = retry;
    } else {
        ++m_statistics.ignoredLines;
        // Kept, bounded, for callers that look for unframed error objects.
        if (m_unframed.size() + line.size() + 1 <= m_maxEventBytes) {
            if (!m_unframed.isEmpty())
                m_unframed.append('\n');
            m_unframed.append(line);
        }
    }
}

// Anthropic and Responses name every event, mostly with the same few
// types: the text of the last one is kept instead of decoded each time.
void SseReader::setEventType(QByteArrayView type)
{
    if (type != m_lastTypeBytes) {
        m_lastTypeBytes = type.toByteArray();
        m_lastType = QString::fromUtf8(type);
    }
    m_event.event = m_lastType;
}

void SseReader::dispatch(const Sink &sink)
{
    // WHATWG: a block without data lines (only id:, retry: or event:)
    // dispatches nothing.
    if (!m_hasData) {
        resetEvent();
        return;
    }
    m_event.id = m_lastEventId;
    ++m_statistics.events;
    sink(m_event);
    resetEvent();
}

void SseReader::resetEvent()
{
    // Emptied, not freed, for the next event; one very large event does not
    // keep its memory for the rest of the stream.
    if (m_event.data.capacity() > KeptBufferBytes)
        m_event.data = QByteArray();
    else
        m_event.data.resize(0);
    m_hasData = false;
    m_event.event.clear();
    m_event.retry.reset();
}

QList<SseEvent> SseReader::flush()
{
    QList<SseEvent> out;
    flush(collectInto(out));
    return out;
}

void SseReader::flush(const Sink &sink)
{
    if (!m_error) {
        if (!m_bomChecked && !m_bomProbe.isEmpty()) {
            // A body shorter than a BOM.
            m_bomChecked = true;
            const QByteArray probe = std::exchange(m_bomProbe, {});
            if (!Bom.startsWith(probe) || probe.size() == Bom.size())
                consume(probe, sink);
        }
        if (!m_partialLine.isEmpty()) {
            const QByteArray line = std::exchange(m_partialLine, {});
            processLine(line, sink);
        }
        if (m_hasData) {
            m_statistics.pendingAtEnd = true;
            qCDebug(lcSse) << "dispatching an event the body did not end with a blank line";
            dispatch(sink);
        }
    }
    m_partialLine.clear();
    m_bomProbe.clear();
    m_bomChecked = false;
    m_skipLeadingLf = false;
    resetEvent();
}

QByteArray SseReader::takeUnframedText()
{
    return std::exchange(m_unframed, {});
}

void SseReader::fail(const QString &message)
{
    qCWarning(lcSse) << message;
    m_error = Error{message};
    m_partialLine.clear();
    m_partialLine.squeeze();
    m_event.data = QByteArray();
    m_hasData = false;
}

} // namespace qcode
