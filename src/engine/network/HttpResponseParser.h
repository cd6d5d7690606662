#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QCoreApplication>
#include <QList>
#include <QString>

#include <utility>

namespace qcode {

// The status line and header fields of an HTTP/1.1 response.
struct HttpResponseHead {
    int status = 0;
    QByteArray reason;
    QList<std::pair<QByteArray, QByteArray>> headers; // names as sent, values trimmed

    // The first field named `name` (case-insensitive), or empty.
    QByteArray value(QByteArrayView name) const;
};

// Reads one HTTP/1.1 response off a byte stream as it arrives, in pieces of
// any size: the head, then the body de-chunked as far as it has come. It
// copies only what straddles two pieces (a split size line or header), so
// a long stream of small chunks costs a scan per byte and nothing more —
// the reason qcode has its own reader instead of QNetworkReply, whose
// chunk decoder asks the kernel for the socket's size on every chunk.
//
// Framing follows RFC 9112 §6: no body for 1xx, 204 and 304; chunked
// transfer coding; else Content-Length; else the body runs until the
// server closes. Interim 1xx responses (100 Continue) are skipped.
// Anything malformed — a bad status line, a header block over 64 KiB, a
// bad chunk size, conflicting lengths — stops it with an error naming
// what was wrong; it never guesses.
class HttpResponseParser
{
    Q_DECLARE_TR_FUNCTIONS(HttpResponseParser)

public:
    // Parses `bytes` and appends the body bytes they complete to `body`.
    // Returns false once the response is malformed (see errorString()).
    bool feed(QByteArrayView bytes, QByteArray &body);

    // The server closed the connection. Returns whether that ends the
    // response properly (a close-delimited body, or one already whole);
    // otherwise the response was cut short and errorString() says where.
    bool finishAtClose();

    bool hasHead() const { return m_headDone; }
    const HttpResponseHead &head() const { return m_head; }
    bool isComplete() const { return m_state == State::Complete; }
    bool hasFailed() const { return m_state == State::Failed; }
    QString errorString() const { return m_error; }

    // After a complete response: whether the connection may carry another
    // request (HTTP/1.1 without `Connection: close`, a framed body, and no
    // stray bytes after it).
    bool connectionReusable() const;

    static constexpr qsizetype maxHeadBytes = 64 * 1024;

private:
    enum class State {
        StatusLine,
        Headers,
        Body,          // Content-Length or until close
        ChunkSize,
        ChunkData,
        ChunkDataEnd,  // the CRLF after a chunk's data
        Trailers,
        Complete,
        Failed,
    };

    // Takes one CRLF- (or LF-) terminated line from the input into `line`;
    // false when the line is not complete yet (its start is kept for the
    // next feed) or is too long (the parser has then failed).
    bool takeLine(QByteArrayView &input, QByteArray &line);
    bool parseStatusLine(const QByteArray &line);
    bool parseHeaderLine(const QByteArray &line);
    bool beginBody();
    bool parseChunkSize(const QByteArray &line);
    bool fail(const QString &error);

    State m_state = State::StatusLine;
    HttpResponseHead m_head;
    QByteArray m_partialLine;
    qsizetype m_headBytes = 0;
    qint64 m_remaining = 0;   // of the current chunk or the Content-Length body
    bool m_headDone = false;
    bool m_untilClose = false;
    bool m_http10 = false;
    bool m_strayBytes = false;
    QString m_error;
};

} // namespace qcode
