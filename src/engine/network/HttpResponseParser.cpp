#include "HttpResponseParser.h"

#include "engine/provider/ProviderError.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>

namespace qcode {

namespace {

bool isTokenChar(char c)
{
    if (c >= 'a' && c <= 'z')
        return true;
    if (c >= 'A' && c <= 'Z')
        return true;
    if (c >= '0' && c <= '9')
        return true;
    return QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// True when the comma-separated list `value` holds `token`.
bool listHas(QByteArrayView value, QByteArrayView token)
{
    for (QByteArrayView item : QByteArray(value.toByteArray()).split(',')) {
        if (item.trimmed().compare(token, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

} // namespace

QByteArray HttpResponseHead::value(QByteArrayView name) const
{
    return ProviderError::header(headers, name);
}

bool HttpResponseParser::feed(QByteArrayView input, QByteArray &body)
{
    QByteArray line;
    while (!input.isEmpty()) {
        switch (m_state) {
        case State::StatusLine:
        case State::Headers:
        case State::Trailers: {
            const qsizetype before = input.size();
            const bool whole = takeLine(input, line);
            m_headBytes += before - input.size();
            if (m_headBytes > maxHeadBytes)
                return fail(tr("the response's header block is larger than 64 KiB"));
            if (!whole)
                return m_state != State::Failed;
            if (m_state == State::StatusLine) {
                if (!parseStatusLine(line))
                    return false;
            } else if (!line.isEmpty()) {
                if (!parseHeaderLine(line))
                    return false;
            } else if (m_state == State::Trailers) {
                m_state = State::Complete;
            } else if (m_head.status >= 100 && m_head.status < 200) {
                // An interim response; the real one follows.
                m_head = {};
                m_headBytes = 0;
                m_state = State::StatusLine;
            } else if (!beginBody()) {
                return false;
            }
            break;
        }
        case State::ChunkSize:
            if (!takeLine(input, line))
                return m_state != State::Failed;
            if (!parseChunkSize(line))
                return false;
            break;
        case State::Body:
        case State::ChunkData: {
            const qint64 take = m_untilClose ? input.size() : std::min<qint64>(m_remaining, input.size());
            body.append(input.first(take));
            input = input.sliced(take);
            if (m_untilClose)
                break;
            m_remaining -= take;
            if (m_remaining == 0)
                m_state = m_state == State::Body ? State::Complete : State::ChunkDataEnd;
            break;
        }
        case State::ChunkDataEnd:
            if (!takeLine(input, line))
                return m_state != State::Failed;
            if (!line.isEmpty())
                return fail(tr("a chunk of the response is longer than its size says"));
            m_state = State::ChunkSize;
            break;
        case State::Complete:
            // Bytes after a whole response: nothing was asked for them, so
            // the connection is not in a known state any more.
            m_strayBytes = true;
            return true;
        case State::Failed:
            return false;
        }
    }
    return true;
}

bool HttpResponseParser::finishAtClose()
{
    if (m_state == State::Complete)
        return true;
    if (m_state == State::Failed)
        return false;
    if (m_state == State::Body && m_untilClose) {
        m_state = State::Complete;
        return true;
    }
    if (m_state == State::StatusLine && m_headBytes == 0 && m_partialLine.isEmpty())
        return fail(tr("the server closed the connection without answering"));
    if (m_state <= State::Headers)
        return fail(tr("the server closed the connection in the middle of the response's headers"));
    return fail(tr("the server closed the connection before the end of the response"));
}

bool HttpResponseParser::connectionReusable() const
{
    if (m_state != State::Complete || m_strayBytes || m_untilClose)
        return false;
    const QByteArray connection = m_head.value("connection");
    if (m_http10)
        return listHas(connection, "keep-alive");
    return !listHas(connection, "close");
}

bool HttpResponseParser::takeLine(QByteArrayView &input, QByteArray &line)
{
    const qsizetype end = input.indexOf('\n');
    if (end < 0) {
        m_partialLine.append(input);
        input = {};
        if (m_partialLine.size() > maxHeadBytes)
            return fail(tr("a line of the response is longer than 64 KiB"));
        return false;
    }
    line = m_partialLine;
    line.append(input.first(end));
    m_partialLine.clear();
    input = input.sliced(end + 1);
    if (line.endsWith('\r'))
        line.chop(1);
    return true;
}

bool HttpResponseParser::parseStatusLine(const QByteArray &line)
{
    // HTTP/1.1 200 OK — the reason may be empty or missing.
    const bool versionOk = line.startsWith("HTTP/1.1 ") || line.startsWith("HTTP/1.0 ");
    const QByteArrayView code = versionOk ? QByteArrayView(line).sliced(9).first(std::min<qsizetype>(3, line.size() - 9))
                                          : QByteArrayView();
    bool numeric = code.size() == 3;
    for (char c : code)
        numeric = numeric && c >= '0' && c <= '9';
    if (!numeric || (line.size() > 12 && line.at(12) != ' ')) {
        const QByteArray shown = line.left(40);
        return fail(tr("the server did not answer in HTTP/1.1 (its first line was \"%1\")")
                        .arg(QString::fromLatin1(shown)));
    }
    m_http10 = line.startsWith("HTTP/1.0");
    m_head.status = code.toInt();
    m_head.reason = line.size() > 13 ? line.sliced(13) : QByteArray();
    m_state = State::Headers;
    return true;
}

bool HttpResponseParser::parseHeaderLine(const QByteArray &line)
{
    if (line.front() == ' ' || line.front() == '\t')
        return fail(tr("the response uses folded header lines, which HTTP/1.1 forbids"));
    const qsizetype colon = line.indexOf(':');
    const QByteArrayView name = colon > 0 ? QByteArrayView(line).first(colon) : QByteArrayView();
    bool valid = !name.isEmpty();
    for (char c : name)
        valid = valid && isTokenChar(c);
    if (!valid)
        return fail(tr("the response has a malformed header line"));
    // Trailer fields are read to find the end and otherwise dropped.
    if (m_state == State::Headers)
        m_head.headers.append({name.toByteArray(), line.sliced(colon + 1).trimmed()});
    return true;
}

bool HttpResponseParser::beginBody()
{
    m_headDone = true;
    const int status = m_head.status;
    if (status == 204 || status == 304) {
        m_state = State::Complete;
        return true;
    }
    const QByteArray coding = m_head.value("transfer-encoding");
    if (!coding.isEmpty()) {
        // chunked must be the last coding; anything else before it (gzip)
        // was not asked for.
        if (coding.trimmed().compare("chunked", Qt::CaseInsensitive) != 0)
            return fail(tr("the response uses a transfer coding qcode did not ask for (%1)")
                            .arg(QString::fromLatin1(coding)));
        m_state = State::ChunkSize;
        return true;
    }
    QByteArray length;
    for (const auto &[field, value] : m_head.headers) {
        if (field.compare("content-length", Qt::CaseInsensitive) != 0)
            continue;
        if (!length.isEmpty() && length != value)
            return fail(tr("the response has two different Content-Length headers"));
        length = value;
    }
    if (length.isEmpty()) {
        m_untilClose = true;
        m_state = State::Body;
        return true;
    }
    bool ok = false;
    const qint64 size = length.toLongLong(&ok);
    if (!ok || size < 0 || !std::all_of(length.begin(), length.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return fail(tr("the response has an invalid Content-Length (%1)").arg(QString::fromLatin1(length.left(40))));
    m_remaining = size;
    m_state = size == 0 ? State::Complete : State::Body;
    return true;
}

bool HttpResponseParser::parseChunkSize(const QByteArray &line)
{
    // size [; extensions]
    qint64 size = 0;
    qsizetype digits = 0;
    for (char c : line) {
        const int digit = hexDigit(c);
        if (digit < 0)
            break;
        if (size > (std::numeric_limits<qint64>::max() >> 4))
            return fail(tr("a chunk of the response claims an impossible size"));
        size = size * 16 + digit;
        ++digits;
    }
    const QByteArrayView rest = QByteArrayView(line).sliced(digits).trimmed();
    if (digits == 0 || (!rest.isEmpty() && !rest.startsWith(';')))
        return fail(tr("the response has a malformed chunk size line (\"%1\")")
                        .arg(QString::fromLatin1(line.left(40))));
    if (size == 0) {
        m_state = State::Trailers;
        return true;
    }
    m_remaining = size;
    m_state = State::ChunkData;
    return true;
}

bool HttpResponseParser::fail(const QString &error)
{
    m_state = State::Failed;
    m_error = error;
    return false;
}

} // namespace qcode
