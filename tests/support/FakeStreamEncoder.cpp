#include "FakeStreamEncoder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace qcode::test {

namespace {

using Block = FakeTurn::Block;
using BlockKind = FakeTurn::BlockKind;

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray frame(const QByteArray &event, const QJsonObject &data)
{
    QByteArray out;
    if (!event.isEmpty())
        out += "event: " + event + '\n';
    out += "data: " + compact(data) + "\n\n";
    return out;
}

QString toolCallId(const Block &block, qsizetype index, const char *prefix)
{
    return block.toolCallId.isEmpty() ? QLatin1StringView(prefix) + QString::number(index) : block.toolCallId;
}

QString joined(const Block &block)
{
    return block.chunks.join(QString());
}

// --- Anthropic Messages (§3.2)

QString anthropicStopReason(FinishReason reason)
{
    switch (reason) {
    case FinishReason::ToolCalls: return u"tool_use"_s;
    case FinishReason::Length: return u"max_tokens"_s;
    case FinishReason::ContentFilter: return u"refusal"_s;
    default: return u"end_turn"_s;
    }
}

QList<QByteArray> encodeAnthropic(const FakeTurn &turn)
{
    const FakeTurn::Usage &usage = turn.usage();
    QList<QByteArray> events;
    events.append(frame("message_start",
                        {{"type"_L1, "message_start"_L1},
                         {"message"_L1,
                          QJsonObject{{"id"_L1, "msg_fake"_L1},
                                      {"type"_L1, "message"_L1},
                                      {"role"_L1, "assistant"_L1},
                                      {"model"_L1, "fake-model"_L1},
                                      {"content"_L1, QJsonArray()},
                                      {"stop_reason"_L1, QJsonValue::Null},
                                      {"usage"_L1, QJsonObject{{"input_tokens"_L1, usage.input},
                                                               {"cache_creation_input_tokens"_L1, usage.cacheWrite},
                                                               {"cache_read_input_tokens"_L1, usage.cacheRead},
                                                               {"output_tokens"_L1, 1}}}}}}));
    for (qsizetype index = 0; index < turn.blocks().size(); ++index) {
        const Block &block = turn.blocks().at(index);
        QJsonObject start;
        QString deltaType;
        QString deltaField;
        switch (block.kind) {
        case BlockKind::Text:
            start = {{"type"_L1, "text"_L1}, {"text"_L1, ""_L1}};
            deltaType = u"text_delta"_s;
            deltaField = u"text"_s;
            break;
        case BlockKind::Reasoning:
            start = {{"type"_L1, "thinking"_L1}, {"thinking"_L1, ""_L1}, {"signature"_L1, ""_L1}};
            deltaType = u"thinking_delta"_s;
            deltaField = u"thinking"_s;
            break;
        case BlockKind::ToolCall:
            start = {{"type"_L1, "tool_use"_L1},
                     {"id"_L1, toolCallId(block, index, "toolu_fake_")},
                     {"name"_L1, block.toolName},
                     {"input"_L1, QJsonObject()}};
            deltaType = u"input_json_delta"_s;
            deltaField = u"partial_json"_s;
            break;
        }
        events.append(frame("content_block_start",
                            {{"type"_L1, "content_block_start"_L1}, {"index"_L1, index}, {"content_block"_L1, start}}));
        for (const QString &chunk : block.chunks) {
            events.append(frame("content_block_delta", {{"type"_L1, "content_block_delta"_L1},
                                                        {"index"_L1, index},
                                                        {"delta"_L1, QJsonObject{{"type"_L1, deltaType},
                                                                                 {deltaField, chunk}}}}));
        }
        if (block.kind == BlockKind::Reasoning) {
            events.append(frame("content_block_delta",
                                {{"type"_L1, "content_block_delta"_L1},
                                 {"index"_L1, index},
                                 {"delta"_L1, QJsonObject{{"type"_L1, "signature_delta"_L1},
                                                          {"signature"_L1, "sig-fake"_L1}}}}));
        }
        events.append(frame("content_block_stop", {{"type"_L1, "content_block_stop"_L1}, {"index"_L1, index}}));
    }
    if (const auto &error = turn.inStreamError()) {
        events.append(frame("error", {{"type"_L1, "error"_L1},
                                      {"error"_L1, QJsonObject{{"type"_L1, error->type},
                                                               {"message"_L1, error->message}}}}));
        return events;
    }
    QJsonObject finalUsage{{"input_tokens"_L1, usage.input},
                           {"cache_creation_input_tokens"_L1, usage.cacheWrite},
                           {"cache_read_input_tokens"_L1, usage.cacheRead},
                           {"output_tokens"_L1, usage.output}};
    if (usage.reasoning > 0)
        finalUsage.insert("output_tokens_details"_L1, QJsonObject{{"thinking_tokens"_L1, usage.reasoning}});
    events.append(frame("message_delta",
                        {{"type"_L1, "message_delta"_L1},
                         {"delta"_L1, QJsonObject{{"stop_reason"_L1, anthropicStopReason(turn.effectiveFinishReason())},
                                                  {"stop_sequence"_L1, QJsonValue::Null}}},
                         {"usage"_L1, finalUsage}}));
    events.append(frame("message_stop", {{"type"_L1, "message_stop"_L1}}));
    return events;
}

// --- OpenAI Chat Completions (§4.2)

QString chatFinishReason(FinishReason reason)
{
    switch (reason) {
    case FinishReason::ToolCalls: return u"tool_calls"_s;
    case FinishReason::Length: return u"length"_s;
    case FinishReason::ContentFilter: return u"content_filter"_s;
    // A reason no decoder knows, as some local servers send: "unknown".
    case FinishReason::Unknown: return u"end_of_generation"_s;
    default: return u"stop"_s;
    }
}

QByteArray chatChunk(const QJsonArray &choices, const QJsonObject &extra = {})
{
    QJsonObject chunk{{"id"_L1, "chatcmpl-fake"_L1},
                      {"object"_L1, "chat.completion.chunk"_L1},
                      {"created"_L1, 1700000000},
                      {"model"_L1, "fake-model"_L1},
                      {"choices"_L1, choices}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        chunk.insert(it.key(), it.value());
    return frame({}, chunk);
}

QByteArray chatDelta(const QJsonObject &delta)
{
    return chatChunk({QJsonObject{{"index"_L1, 0}, {"delta"_L1, delta}, {"finish_reason"_L1, QJsonValue::Null}}});
}

QList<QByteArray> encodeOpenAIChat(const FakeTurn &turn)
{
    QList<QByteArray> events;
    events.append(chatDelta({{"role"_L1, "assistant"_L1}, {"content"_L1, ""_L1}}));
    int toolIndex = 0;
    for (qsizetype index = 0; index < turn.blocks().size(); ++index) {
        const Block &block = turn.blocks().at(index);
        switch (block.kind) {
        case BlockKind::Text:
            for (const QString &chunk : block.chunks)
                events.append(chatDelta({{"content"_L1, chunk}}));
            break;
        case BlockKind::Reasoning:
            for (const QString &chunk : block.chunks)
                events.append(chatDelta({{"reasoning_content"_L1, chunk}}));
            break;
        case BlockKind::ToolCall: {
            const QJsonObject first{{"index"_L1, toolIndex},
                                    {"id"_L1, toolCallId(block, index, "call_fake_")},
                                    {"type"_L1, "function"_L1},
                                    {"function"_L1, QJsonObject{{"name"_L1, block.toolName}, {"arguments"_L1, ""_L1}}}};
            events.append(chatDelta({{"tool_calls"_L1, QJsonArray{first}}}));
            for (const QString &chunk : block.chunks) {
                const QJsonObject fragment{{"index"_L1, toolIndex},
                                           {"function"_L1, QJsonObject{{"arguments"_L1, chunk}}}};
                events.append(chatDelta({{"tool_calls"_L1, QJsonArray{fragment}}}));
            }
            ++toolIndex;
            break;
        }
        }
    }
    if (const auto &error = turn.inStreamError()) {
        events.append(frame({}, {{"error"_L1, QJsonObject{{"message"_L1, error->message},
                                                          {"type"_L1, error->type},
                                                          {"code"_L1, error->type}}}}));
        events.append("data: [DONE]\n\n");
        return events;
    }
    events.append(chatChunk({QJsonObject{{"index"_L1, 0},
                                         {"delta"_L1, QJsonObject()},
                                         {"finish_reason"_L1, chatFinishReason(turn.effectiveFinishReason())}}}));
    const FakeTurn::Usage &usage = turn.usage();
    events.append(chatChunk({}, {{"usage"_L1,
                                  QJsonObject{{"prompt_tokens"_L1, usage.input},
                                              {"completion_tokens"_L1, usage.output},
                                              {"total_tokens"_L1, usage.input + usage.output},
                                              {"prompt_tokens_details"_L1, QJsonObject{{"cached_tokens"_L1, usage.cacheRead}}},
                                              {"completion_tokens_details"_L1,
                                               QJsonObject{{"reasoning_tokens"_L1, usage.reasoning}}}}}}));
    events.append("data: [DONE]\n\n");
    return events;
}

// --- OpenAI Responses (§5.2)

class ResponsesWriter
{
public:
    void add(const char *type, QJsonObject payload)
    {
        payload.insert("type"_L1, QLatin1StringView(type));
        payload.insert("sequence_number"_L1, m_sequence++);
        m_events.append(frame(type, payload));
    }
    QList<QByteArray> take() { return std::move(m_events); }

private:
    QList<QByteArray> m_events;
    int m_sequence = 0;
};

QList<QByteArray> encodeOpenAIResponses(const FakeTurn &turn)
{
    ResponsesWriter out;
    const QJsonObject inProgress{{"id"_L1, "resp_fake"_L1}, {"object"_L1, "response"_L1},
                                 {"status"_L1, "in_progress"_L1}, {"model"_L1, "fake-model"_L1},
                                 {"output"_L1, QJsonArray()}, {"usage"_L1, QJsonValue::Null}};
    out.add("response.created", {{"response"_L1, inProgress}});
    out.add("response.in_progress", {{"response"_L1, inProgress}});

    QJsonArray output;
    for (qsizetype index = 0; index < turn.blocks().size(); ++index) {
        const Block &block = turn.blocks().at(index);
        const QString full = joined(block);
        QJsonObject item;
        switch (block.kind) {
        case BlockKind::Reasoning: {
            const QString id = u"rs_fake_"_s + QString::number(index);
            out.add("response.output_item.added",
                    {{"output_index"_L1, index},
                     {"item"_L1, QJsonObject{{"id"_L1, id}, {"type"_L1, "reasoning"_L1}, {"summary"_L1, QJsonArray()}}}});
            const QJsonObject where{{"item_id"_L1, id}, {"output_index"_L1, index}, {"summary_index"_L1, 0}};
            QJsonObject added = where;
            added.insert("part"_L1, QJsonObject{{"type"_L1, "summary_text"_L1}, {"text"_L1, ""_L1}});
            out.add("response.reasoning_summary_part.added", added);
            for (const QString &chunk : block.chunks) {
                QJsonObject delta = where;
                delta.insert("delta"_L1, chunk);
                out.add("response.reasoning_summary_text.delta", delta);
            }
            QJsonObject done = where;
            done.insert("text"_L1, full);
            out.add("response.reasoning_summary_text.done", done);
            QJsonObject partDone = where;
            partDone.insert("part"_L1, QJsonObject{{"type"_L1, "summary_text"_L1}, {"text"_L1, full}});
            out.add("response.reasoning_summary_part.done", partDone);
            item = {{"id"_L1, id}, {"type"_L1, "reasoning"_L1},
                    {"summary"_L1, QJsonArray{QJsonObject{{"type"_L1, "summary_text"_L1}, {"text"_L1, full}}}}};
            break;
        }
        case BlockKind::Text: {
            const QString id = u"msg_fake_"_s + QString::number(index);
            out.add("response.output_item.added",
                    {{"output_index"_L1, index},
                     {"item"_L1, QJsonObject{{"id"_L1, id}, {"type"_L1, "message"_L1}, {"role"_L1, "assistant"_L1},
                                             {"status"_L1, "in_progress"_L1}, {"content"_L1, QJsonArray()}}}});
            const QJsonObject where{{"item_id"_L1, id}, {"output_index"_L1, index}, {"content_index"_L1, 0}};
            QJsonObject added = where;
            added.insert("part"_L1, QJsonObject{{"type"_L1, "output_text"_L1}, {"text"_L1, ""_L1},
                                                {"annotations"_L1, QJsonArray()}});
            out.add("response.content_part.added", added);
            for (const QString &chunk : block.chunks) {
                QJsonObject delta = where;
                delta.insert("delta"_L1, chunk);
                out.add("response.output_text.delta", delta);
            }
            QJsonObject done = where;
            done.insert("text"_L1, full);
            out.add("response.output_text.done", done);
            const QJsonObject part{{"type"_L1, "output_text"_L1}, {"text"_L1, full}, {"annotations"_L1, QJsonArray()}};
            QJsonObject partDone = where;
            partDone.insert("part"_L1, part);
            out.add("response.content_part.done", partDone);
            item = {{"id"_L1, id}, {"type"_L1, "message"_L1}, {"role"_L1, "assistant"_L1},
                    {"status"_L1, "completed"_L1}, {"content"_L1, QJsonArray{part}}};
            break;
        }
        case BlockKind::ToolCall: {
            const QString id = u"fc_fake_"_s + QString::number(index);
            const QString callId = toolCallId(block, index, "call_fake_");
            out.add("response.output_item.added",
                    {{"output_index"_L1, index},
                     {"item"_L1, QJsonObject{{"id"_L1, id}, {"type"_L1, "function_call"_L1}, {"call_id"_L1, callId},
                                             {"name"_L1, block.toolName}, {"arguments"_L1, ""_L1},
                                             {"status"_L1, "in_progress"_L1}}}});
            for (const QString &chunk : block.chunks) {
                out.add("response.function_call_arguments.delta",
                        {{"item_id"_L1, id}, {"output_index"_L1, index}, {"delta"_L1, chunk}});
            }
            out.add("response.function_call_arguments.done",
                    {{"item_id"_L1, id}, {"output_index"_L1, index}, {"arguments"_L1, full}});
            item = {{"id"_L1, id}, {"type"_L1, "function_call"_L1}, {"call_id"_L1, callId},
                    {"name"_L1, block.toolName}, {"arguments"_L1, full}, {"status"_L1, "completed"_L1}};
            break;
        }
        }
        out.add("response.output_item.done", {{"output_index"_L1, index}, {"item"_L1, item}});
        output.append(item);
    }

    if (const auto &error = turn.inStreamError()) {
        out.add("error", {{"error"_L1, QJsonObject{{"type"_L1, error->type}, {"code"_L1, error->type},
                                                  {"message"_L1, error->message}, {"param"_L1, QJsonValue::Null}}}});
        out.add("response.failed",
                {{"response"_L1, QJsonObject{{"id"_L1, "resp_fake"_L1}, {"status"_L1, "failed"_L1},
                                             {"output"_L1, output},
                                             {"error"_L1, QJsonObject{{"code"_L1, error->type},
                                                                      {"message"_L1, error->message}}}}}});
        return out.take();
    }

    const FakeTurn::Usage &usage = turn.usage();
    QJsonObject response{{"id"_L1, "resp_fake"_L1}, {"object"_L1, "response"_L1}, {"model"_L1, "fake-model"_L1},
                         {"output"_L1, output},
                         {"usage"_L1, QJsonObject{{"input_tokens"_L1, usage.input},
                                                  {"input_tokens_details"_L1, QJsonObject{{"cached_tokens"_L1, usage.cacheRead}}},
                                                  {"output_tokens"_L1, usage.output},
                                                  {"output_tokens_details"_L1,
                                                   QJsonObject{{"reasoning_tokens"_L1, usage.reasoning}}},
                                                  {"total_tokens"_L1, usage.input + usage.output}}}};
    const FinishReason reason = turn.effectiveFinishReason();
    if (reason == FinishReason::Length || reason == FinishReason::ContentFilter) {
        response.insert("status"_L1, "incomplete"_L1);
        response.insert("incomplete_details"_L1,
                        QJsonObject{{"reason"_L1, reason == FinishReason::Length ? "max_output_tokens"_L1
                                                                                  : "content_filter"_L1}});
        out.add("response.incomplete", {{"response"_L1, response}});
    } else {
        response.insert("status"_L1, "completed"_L1);
        out.add("response.completed", {{"response"_L1, response}});
    }
    return out.take();
}

// --- Gemini streamGenerateContent?alt=sse (§6.2)

QByteArray geminiFrame(const QJsonObject &data)
{
    return "data: " + compact(data) + "\r\n\r\n";
}

QString geminiFinishReason(FinishReason reason)
{
    switch (reason) {
    case FinishReason::Length: return u"MAX_TOKENS"_s;
    case FinishReason::ContentFilter: return u"SAFETY"_s;
    default: return u"STOP"_s; // Gemini says STOP after function calls too
    }
}

QList<QByteArray> encodeGemini(const FakeTurn &turn)
{
    const FakeTurn::Usage &usage = turn.usage();
    const QJsonObject usageMetadata{{"promptTokenCount"_L1, usage.input},
                                    {"candidatesTokenCount"_L1, usage.output - usage.reasoning},
                                    {"thoughtsTokenCount"_L1, usage.reasoning},
                                    {"cachedContentTokenCount"_L1, usage.cacheRead},
                                    {"totalTokenCount"_L1, usage.input + usage.output}};
    const auto chunk = [&](const QJsonArray &parts, const QString &finishReason = {}) {
        QJsonObject candidate{{"content"_L1, QJsonObject{{"parts"_L1, parts}, {"role"_L1, "model"_L1}}},
                              {"index"_L1, 0}};
        if (!finishReason.isEmpty())
            candidate.insert("finishReason"_L1, finishReason);
        return geminiFrame({{"candidates"_L1, QJsonArray{candidate}},
                            {"usageMetadata"_L1, usageMetadata},
                            {"modelVersion"_L1, "fake-model"_L1},
                            {"responseId"_L1, "fake-response"_L1}});
    };

    QList<QByteArray> events;
    for (const Block &block : turn.blocks()) {
        switch (block.kind) {
        case BlockKind::Text:
            for (const QString &text : block.chunks)
                events.append(chunk({QJsonObject{{"text"_L1, text}}}));
            break;
        case BlockKind::Reasoning:
            for (const QString &text : block.chunks)
                events.append(chunk({QJsonObject{{"text"_L1, text}, {"thought"_L1, true}}}));
            break;
        case BlockKind::ToolCall: {
            // Whole, with an id only when the script names one: AI Studio
            // sends none.
            QJsonObject call{{"name"_L1, block.toolName}, {"args"_L1, block.arguments}};
            if (!block.toolCallId.isEmpty())
                call.insert("id"_L1, block.toolCallId);
            events.append(chunk({QJsonObject{{"functionCall"_L1, call}}}));
            break;
        }
        }
    }
    if (const auto &error = turn.inStreamError()) {
        events.append(geminiFrame({{"error"_L1, QJsonObject{{"code"_L1, 503}, {"message"_L1, error->message},
                                                            {"status"_L1, error->type}}}}));
        return events;
    }
    events.append(chunk(QJsonArray(), geminiFinishReason(turn.effectiveFinishReason())));
    return events;
}

} // namespace

QList<QByteArray> FakeStreamEncoder::encode(WireProtocol protocol, const FakeTurn &turn)
{
    switch (protocol) {
    case WireProtocol::AnthropicMessages: return encodeAnthropic(turn);
    case WireProtocol::OpenAIChat: return encodeOpenAIChat(turn);
    case WireProtocol::OpenAIResponses: return encodeOpenAIResponses(turn);
    case WireProtocol::Gemini: return encodeGemini(turn);
    }
    return {};
}

} // namespace qcode::test
