#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>
#include <utility>

namespace qcode {

// Everything that can go wrong with one provider call, in one value: the
// HTTP errors before a stream starts and the error events inside one.
// Classification follows wire formats §7–§8 and reference §3.4; the
// sentence() is what a person reads.
struct ProviderError {
    enum class Kind {
        Auth,
        Permission,
        NotFound,
        RateLimit,
        Overloaded,
        ContextOverflow,
        BadRequest,
        Server,
        Network,
        Timeout,
        Aborted,
        Unknown,
    };
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    Kind kind = Kind::Unknown;
    int httpStatus = 0;     // 0 when no response arrived; 200 for errors inside a stream
    QString message;        // the provider's own words
    QString errorType;      // e.g. "overloaded_error", "invalid_request_error", Gemini's status
    QString errorCode;      // e.g. "context_length_exceeded", "insufficient_quota", "429"
    Headers headers;
    QByteArray body;
    bool retryable = false;
    // A payload too large in bytes (413), as opposed to too many tokens:
    // the remedy is dropping attachments, not compacting.
    bool requestTooLarge = false;
    std::optional<qint64> retryAfterMs;

    bool isContextOverflow() const { return kind == Kind::ContextOverflow; }
    // A complete sentence a person can act on, translated.
    QString sentence() const;
    bool operator==(const ProviderError &) const = default;

    static QString kindName(Kind kind);

    // A non-2xx response (or a 2xx whose body is an error object).
    static ProviderError fromHttpResponse(int httpStatus, const Headers &headers, const QByteArray &body,
                                          const QDateTime &now = QDateTime::currentDateTimeUtc());
    // The JSON of an error that arrived inside a stream: Anthropic
    // `{"type":"error","error":{…}}`, OpenAI `{"error":{…}}`, a Responses
    // `error` event or `response.error`, Gemini `{"error":{…}}`.
    static ProviderError fromStreamPayload(const QJsonObject &payload, int httpStatus = 200);

    static ProviderError network(const QString &detail);
    static ProviderError timeout(const QString &detail);
    static ProviderError aborted();
    // The body ended before the protocol's terminal marker: the connection
    // was cut, so trying again is the right answer.
    static ProviderError truncatedStream();
    // Bytes that no decoder could make sense of.
    static ProviderError malformedStream(const QString &detail);

    // `retry-after-ms`, then `retry-after` as seconds or an HTTP date.
    static std::optional<qint64> retryDelayFromHeaders(const Headers &headers, const QDateTime &now);
    static bool looksLikeContextOverflow(const QString &text);
    static QByteArray header(const Headers &headers, QByteArrayView name);

    Q_DECLARE_TR_FUNCTIONS(ProviderError)
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::ProviderError)
