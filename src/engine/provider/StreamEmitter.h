#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

#include "ProviderEvent.h"

namespace qcode {

// Builds the event sequence for a stream decoder and keeps it well formed
// whatever order the provider's payloads arrive in: start and start-step
// come first and once, every opened block is closed before the step
// finishes, a tool call's arguments are gathered and parsed once, and
// nothing follows finish. Decoders only translate payloads into calls here.
class StreamEmitter
{
public:
    void start();
    bool isStarted() const { return m_started; }
    bool isFinished() const { return m_finished; }
    bool hasError() const { return m_hasError; }

    void textDelta(const QString &id, const QString &text, const QJsonObject &startMetadata = {});
    void endText(const QString &id, const QJsonObject &metadata = {});
    bool isTextOpen(const QString &id) const;

    void startReasoning(const QString &id, const QJsonObject &metadata = {});
    void reasoningDelta(const QString &id, const QString &text);
    void endReasoning(const QString &id, const QJsonObject &metadata = {});
    bool isReasoningOpen(const QString &id) const;

    void startToolInput(const QString &id, const QString &toolName);
    void toolInputDelta(const QString &id, const QString &delta);
    // Ends the input and emits the call. `finalInput` replaces the gathered
    // fragments when the provider repeats the whole text at the end.
    void endToolInput(const QString &id, const std::optional<QString> &finalInput = std::nullopt,
                      const QJsonObject &metadata = {});
    bool isToolInputOpen(const QString &id) const;
    // A call that arrives whole (Gemini, some OpenAI-compatible servers).
    void toolCall(const QString &id, const QString &toolName, const QString &input, const QJsonObject &metadata = {});
    qsizetype toolCallCount() const { return m_toolCallCount; }

    // Closes every open text and reasoning block and ends every open tool
    // input (an unparsable one yields a call with no parsed input).
    void closeOpenBlocks();
    // The first error only: a provider often reports one failure twice
    // (Responses `error` then `response.failed`).
    void error(const ProviderError &error);
    void finish(FinishReason reason, const QString &rawReason, const StreamUsage &usage,
                const QJsonObject &metadata = {});

    QList<ProviderEvent> take();
    // Until called again with nullptr, events go straight to `out` and
    // take() has nothing to return: a parser decoding thousands of deltas
    // keeps one list for all of them instead of one per event.
    void collectInto(QList<ProviderEvent> *out) { m_target = out; }

    // "" → {}; a complete JSON object → it; anything else → nothing.
    static std::optional<QJsonObject> parseArguments(const QString &text);
    static QString generateToolCallId();

private:
    enum class BlockKind { Text, Reasoning, ToolInput };
    struct OpenBlock {
        BlockKind kind;
        QString id;
        QString toolName;
        QString input;
    };

    OpenBlock *findBlock(BlockKind kind, const QString &id);
    const OpenBlock *findBlock(BlockKind kind, const QString &id) const;
    void closeBlock(qsizetype index, const QJsonObject &metadata, const std::optional<QString> &finalInput);

    QList<ProviderEvent> &events() { return m_target ? *m_target : m_events; }

    QList<ProviderEvent> m_events;
    QList<ProviderEvent> *m_target = nullptr;
    QList<OpenBlock> m_open;
    qsizetype m_toolCallCount = 0;
    bool m_started = false;
    bool m_finished = false;
    bool m_hasError = false;
};

} // namespace qcode
