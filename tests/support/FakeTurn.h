#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>
#include <utility>

#include "engine/provider/FinishReason.h"

namespace qcode::test {

// One scripted answer of FakeProviderServer: what the model "says" and how
// the connection behaves while saying it. The server encodes it in the
// protocol the request was sent to, so one script serves all four.
//
//     FakeTurn().text({"Hel", "lo"}).usage(10, 5)
//     FakeTurn().reasoning({"Let me ", "look"}).toolCall("read", {{"path", "a.cpp"}})
//     FakeTurn().text({"par", "tial"}).disconnectAfter(4)
//     FakeTurn::httpError(429, R"({"error":{"type":"rate_limit_error","message":"slow down"}})",
//                         {{"retry-after", "2"}})
//
// Blocks are sent in the order they were added. A turn with a tool call
// finishes with tool-calls, any other with stop, unless finishReason() says
// otherwise.
class FakeTurn
{
public:
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    enum class BlockKind { Text, Reasoning, ToolCall };
    struct Block {
        BlockKind kind = BlockKind::Text;
        QStringList chunks;      // text or reasoning deltas; the tool call's argument fragments
        QString toolCallId;      // empty: the server makes one up
        QString toolName;
        QJsonObject arguments;
    };
    struct Usage {
        qint64 input = 0;
        qint64 output = 0;       // all generated tokens, reasoning included
        qint64 reasoning = 0;
        qint64 cacheRead = 0;
        qint64 cacheWrite = 0;
    };
    // What happens to the connection after the status line and headers.
    enum class Delivery {
        Complete,            // every event, then a clean end
        DisconnectAfter,     // `eventLimit` events, then the server closes the socket
        StallAfter,          // `eventLimit` events, then silence with the socket open
        StallBeforeHeaders,  // the request is read and never answered
    };
    struct InStreamError {
        QString type;        // e.g. "overloaded_error", "server_error", "UNAVAILABLE"
        QString message;
    };

    // --- content
    FakeTurn &text(const QStringList &chunks);
    FakeTurn &reasoning(const QStringList &chunks);
    // The arguments are sent as their compact JSON split into
    // `argumentChunks` fragments (Gemini sends a call whole, as it does).
    FakeTurn &toolCall(const QString &name, const QJsonObject &arguments, const QString &id = {},
                       int argumentChunks = 3);
    FakeTurn &usage(qint64 input, qint64 output, qint64 reasoning = 0, qint64 cacheRead = 0, qint64 cacheWrite = 0);
    FakeTurn &finishReason(FinishReason reason);
    // After the blocks, the provider reports an error inside the 200 stream
    // (Anthropic `event: error`, an OpenAI error chunk, a Responses `error`
    // event, a Gemini error object) and ends it.
    FakeTurn &streamError(const QString &type, const QString &message);

    // --- connection behaviour
    FakeTurn &disconnectAfter(int events);
    FakeTurn &stallAfter(int events);
    FakeTurn &stallBeforeHeaders();
    // Sends the body in pieces of `bytes`, one every `interval`, cutting
    // through events and UTF-8 sequences alike.
    FakeTurn &trickle(std::chrono::milliseconds interval, int bytes);
    FakeTurn &header(const QByteArray &name, const QByteArray &value);

    // --- whole responses instead of a stream
    // A non-2xx answer with a JSON body (or any body).
    static FakeTurn httpError(int status, const QByteArray &body, const Headers &headers = {},
                              const QByteArray &contentType = "application/json");
    // Any status, content type and body, sent as is.
    static FakeTurn raw(int status, const QByteArray &contentType, const QByteArray &body,
                        const Headers &headers = {});

    const QList<Block> &blocks() const { return m_blocks; }
    const Usage &usage() const { return m_usage; }
    FinishReason effectiveFinishReason() const;
    const std::optional<InStreamError> &inStreamError() const { return m_inStreamError; }
    Delivery delivery() const { return m_delivery; }
    int eventLimit() const { return m_eventLimit; }
    std::chrono::milliseconds trickleInterval() const { return m_trickleInterval; }
    int trickleBytes() const { return m_trickleBytes; }
    const Headers &headers() const { return m_headers; }
    bool isWholeResponse() const { return m_status != 0; }
    int status() const { return m_status; }
    const QByteArray &contentType() const { return m_contentType; }
    const QByteArray &body() const { return m_body; }

private:
    QList<Block> m_blocks;
    Usage m_usage;
    std::optional<FinishReason> m_finishReason;
    std::optional<InStreamError> m_inStreamError;
    Delivery m_delivery = Delivery::Complete;
    int m_eventLimit = 0;
    std::chrono::milliseconds m_trickleInterval{0};
    int m_trickleBytes = 0;
    Headers m_headers;
    int m_status = 0; // non-zero: a whole response, not a stream
    QByteArray m_contentType;
    QByteArray m_body;
};

} // namespace qcode::test
