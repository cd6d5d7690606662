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

} // namespace

SseReader::SseReader(qsizetype maxEventBytes)
    : m_maxEventBytes(std::max<qsizetype>(maxEventBytes, 16))
{
}

QList<SseEvent> SseReader::append(QByteArrayView bytes)
{
    QList<SseEvent> out;
    if (m_error || bytes.isEmpty())
        return out;

    if (!m_bomChecked) {
        // The BOM may itself be split across reads, so hold the first bytes
        // until there are three of them or they stop looking like a BOM.
        m_bomProbe.append(bytes);
        if (m_bomProbe.size() < Bom.size() && Bom.startsWith(m_bomProbe))
            return out;
        m_bomChecked = true;
        const QByteArray probe = std::exchange(m_bomProbe, {});
        const QByteArrayView rest = probe.startsWith(Bom) ? QByteArrayView(probe).sliced(Bom.size()) : QByteArrayView(probe);
        consume(rest, out);
        return out;
    }
    consume(bytes, out);
    return out;
}

void SseReader::consume(QByteArrayView bytes, QList<SseEvent> &out)
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
            processLine(piece, out);
        } else {
            m_partialLine.append(piece);
            const QByteArray line = std::exchange(m_partialLine, {});
            if (line.size() > m_maxEventBytes) {
                fail(QCoreApplication::translate("qcode::SseReader",
                                                 "The provider sent a line longer than %1 bytes; the stream was stopped.")
                         .arg(m_maxEventBytes));
                return;
            }
            processLine(line, out);
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

void SseReader::processLine(QByteArrayView line, QList<SseEvent> &out)
{
    if (line.isEmpty()) {
        dispatch(out);
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
        if (m_data.size() + value.size() + 1 > m_maxEventBytes) {
            fail(QCoreApplication::translate("qcode::SseReader",
                                             "The provider sent an event larger than %1 bytes; the stream was stopped.")
                     .arg(m_maxEventBytes));
            return;
        }
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_eventType = QString::fromUtf8(value);
    } else if (field == "id") {
        // WHATWG: an id containing NUL is ignored.
        if (!value.contains('\0'))
            m_lastEventId = QString::fromUtf8(value);
    } else if (field == "retry") {
        if (const auto retry = parseRetry(value))
            m_retry = retry;
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

void SseReader::dispatch(QList<SseEvent> &out)
{
    // WHATWG: a block without data lines (only id:, retry: or event:)
    // dispatches nothing.
    if (!m_hasData) {
        resetEvent();
        return;
    }
    SseEvent event;
    event.event = std::move(m_eventType);
    event.data = std::move(m_data);
    event.id = m_lastEventId;
    event.retry = m_retry;
    out.append(std::move(event));
    ++m_statistics.events;
    resetEvent();
}

void SseReader::resetEvent()
{
    m_data.clear();
    m_hasData = false;
    m_eventType.clear();
    m_retry.reset();
}

QList<SseEvent> SseReader::flush()
{
    QList<SseEvent> out;
    if (!m_error) {
        if (!m_bomChecked && !m_bomProbe.isEmpty()) {
            // A body shorter than a BOM.
            m_bomChecked = true;
            const QByteArray probe = std::exchange(m_bomProbe, {});
            if (!Bom.startsWith(probe) || probe.size() == Bom.size())
                consume(probe, out);
        }
        if (!m_partialLine.isEmpty()) {
            const QByteArray line = std::exchange(m_partialLine, {});
            processLine(line, out);
        }
        if (m_hasData) {
            m_statistics.pendingAtEnd = true;
            qCDebug(lcSse) << "dispatching an event the body did not end with a blank line";
            dispatch(out);
        }
    }
    m_partialLine.clear();
    m_bomProbe.clear();
    m_bomChecked = false;
    m_skipLeadingLf = false;
    resetEvent();
    return out;
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
    m_data.clear();
    m_data.squeeze();
    m_hasData = false;
}

} // namespace qcode
