#include "FakeTurn.h"

#include <QJsonDocument>

#include <algorithm>

namespace qcode::test {

FakeTurn &FakeTurn::text(const QStringList &chunks)
{
    m_blocks.append(Block{BlockKind::Text, chunks, {}, {}, {}});
    return *this;
}

FakeTurn &FakeTurn::reasoning(const QStringList &chunks)
{
    m_blocks.append(Block{BlockKind::Reasoning, chunks, {}, {}, {}});
    return *this;
}

FakeTurn &FakeTurn::toolCall(const QString &name, const QJsonObject &arguments, const QString &id, int argumentChunks)
{
    const QString json = QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact));
    const int pieces = std::clamp(argumentChunks, 1, int(std::max<qsizetype>(json.size(), 1)));
    const qsizetype size = (json.size() + pieces - 1) / pieces;
    QStringList fragments;
    for (qsizetype at = 0; at < json.size(); at += size)
        fragments.append(json.mid(at, size));
    m_blocks.append(Block{BlockKind::ToolCall, fragments, id, name, arguments});
    return *this;
}

FakeTurn &FakeTurn::usage(qint64 input, qint64 output, qint64 reasoning, qint64 cacheRead, qint64 cacheWrite)
{
    m_usage = Usage{input, output, reasoning, cacheRead, cacheWrite};
    return *this;
}

FakeTurn &FakeTurn::finishReason(FinishReason reason)
{
    m_finishReason = reason;
    return *this;
}

FakeTurn &FakeTurn::streamError(const QString &type, const QString &message)
{
    m_inStreamError = InStreamError{type, message};
    return *this;
}

FakeTurn &FakeTurn::disconnectAfter(int events)
{
    m_delivery = Delivery::DisconnectAfter;
    m_eventLimit = std::max(events, 0);
    return *this;
}

FakeTurn &FakeTurn::stallAfter(int events)
{
    m_delivery = Delivery::StallAfter;
    m_eventLimit = std::max(events, 0);
    return *this;
}

FakeTurn &FakeTurn::stallBeforeHeaders()
{
    m_delivery = Delivery::StallBeforeHeaders;
    return *this;
}

FakeTurn &FakeTurn::trickle(std::chrono::milliseconds interval, int bytes)
{
    m_trickleInterval = interval;
    m_trickleBytes = std::max(bytes, 1);
    return *this;
}

FakeTurn &FakeTurn::header(const QByteArray &name, const QByteArray &value)
{
    m_headers.append({name, value});
    return *this;
}

FakeTurn FakeTurn::httpError(int status, const QByteArray &body, const Headers &headers, const QByteArray &contentType)
{
    return raw(status, contentType, body, headers);
}

FakeTurn FakeTurn::raw(int status, const QByteArray &contentType, const QByteArray &body, const Headers &headers)
{
    FakeTurn turn;
    turn.m_status = status;
    turn.m_contentType = contentType;
    turn.m_body = body;
    turn.m_headers = headers;
    return turn;
}

FinishReason FakeTurn::effectiveFinishReason() const
{
    if (m_finishReason)
        return *m_finishReason;
    const bool calls = std::any_of(m_blocks.cbegin(), m_blocks.cend(),
                                   [](const Block &block) { return block.kind == BlockKind::ToolCall; });
    return calls ? FinishReason::ToolCalls : FinishReason::Stop;
}

} // namespace qcode::test
