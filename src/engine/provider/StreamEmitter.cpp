#include "StreamEmitter.h"

#include <QJsonDocument>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace qcode {

void StreamEmitter::start()
{
    if (m_started)
        return;
    m_started = true;
    events().append(StartEvent{});
    events().append(StartStepEvent{});
}

StreamEmitter::OpenBlock *StreamEmitter::findBlock(BlockKind kind, const QString &id)
{
    for (OpenBlock &block : m_open) {
        if (block.kind == kind && block.id == id)
            return &block;
    }
    return nullptr;
}

const StreamEmitter::OpenBlock *StreamEmitter::findBlock(BlockKind kind, const QString &id) const
{
    for (const OpenBlock &block : m_open) {
        if (block.kind == kind && block.id == id)
            return &block;
    }
    return nullptr;
}

void StreamEmitter::textDelta(const QString &id, const QString &text, const QJsonObject &startMetadata)
{
    if (m_finished)
        return;
    start();
    if (!findBlock(BlockKind::Text, id)) {
        m_open.append({BlockKind::Text, id, {}, {}});
        events().append(TextStartEvent{id, startMetadata});
    }
    if (!text.isEmpty())
        events().append(TextDeltaEvent{id, text});
}

void StreamEmitter::endText(const QString &id, const QJsonObject &metadata)
{
    for (qsizetype i = 0; i < m_open.size(); ++i) {
        if (m_open[i].kind == BlockKind::Text && m_open[i].id == id) {
            closeBlock(i, metadata, std::nullopt);
            return;
        }
    }
}

bool StreamEmitter::isTextOpen(const QString &id) const
{
    return findBlock(BlockKind::Text, id) != nullptr;
}

void StreamEmitter::startReasoning(const QString &id, const QJsonObject &metadata)
{
    if (m_finished || findBlock(BlockKind::Reasoning, id))
        return;
    start();
    m_open.append({BlockKind::Reasoning, id, {}, {}});
    events().append(ReasoningStartEvent{id, metadata});
}

void StreamEmitter::reasoningDelta(const QString &id, const QString &text)
{
    if (m_finished)
        return;
    startReasoning(id);
    if (!text.isEmpty())
        events().append(ReasoningDeltaEvent{id, text});
}

void StreamEmitter::endReasoning(const QString &id, const QJsonObject &metadata)
{
    for (qsizetype i = 0; i < m_open.size(); ++i) {
        if (m_open[i].kind == BlockKind::Reasoning && m_open[i].id == id) {
            closeBlock(i, metadata, std::nullopt);
            return;
        }
    }
}

bool StreamEmitter::isReasoningOpen(const QString &id) const
{
    return findBlock(BlockKind::Reasoning, id) != nullptr;
}

void StreamEmitter::startToolInput(const QString &id, const QString &toolName)
{
    if (m_finished || findBlock(BlockKind::ToolInput, id))
        return;
    start();
    m_open.append({BlockKind::ToolInput, id, toolName, {}});
    events().append(ToolInputStartEvent{id, toolName});
}

void StreamEmitter::toolInputDelta(const QString &id, const QString &delta)
{
    OpenBlock *block = findBlock(BlockKind::ToolInput, id);
    if (!block || delta.isEmpty())
        return;
    block->input.append(delta);
    events().append(ToolInputDeltaEvent{id, delta});
}

void StreamEmitter::endToolInput(const QString &id, const std::optional<QString> &finalInput,
                                 const QJsonObject &metadata)
{
    for (qsizetype i = 0; i < m_open.size(); ++i) {
        if (m_open[i].kind == BlockKind::ToolInput && m_open[i].id == id) {
            closeBlock(i, metadata, finalInput);
            return;
        }
    }
}

bool StreamEmitter::isToolInputOpen(const QString &id) const
{
    return findBlock(BlockKind::ToolInput, id) != nullptr;
}

void StreamEmitter::toolCall(const QString &id, const QString &toolName, const QString &input,
                             const QJsonObject &metadata)
{
    if (m_finished)
        return;
    startToolInput(id, toolName);
    toolInputDelta(id, input);
    endToolInput(id, std::nullopt, metadata);
}

void StreamEmitter::closeBlock(qsizetype index, const QJsonObject &metadata, const std::optional<QString> &finalInput)
{
    OpenBlock block = m_open.takeAt(index);
    switch (block.kind) {
    case BlockKind::Text:
        events().append(TextEndEvent{block.id, metadata});
        break;
    case BlockKind::Reasoning:
        events().append(ReasoningEndEvent{block.id, metadata});
        break;
    case BlockKind::ToolInput: {
        events().append(ToolInputEndEvent{block.id});
        const QString input = finalInput.value_or(block.input);
        events().append(ToolCallEvent{block.id, block.toolName, input, parseArguments(input), metadata});
        ++m_toolCallCount;
        break;
    }
    }
}

void StreamEmitter::closeOpenBlocks()
{
    while (!m_open.isEmpty())
        closeBlock(0, {}, std::nullopt);
}

void StreamEmitter::error(const ProviderError &error)
{
    if (m_finished || m_hasError)
        return;
    start();
    closeOpenBlocks();
    m_hasError = true;
    events().append(ErrorEvent{error});
}

void StreamEmitter::finish(FinishReason reason, const QString &rawReason, const StreamUsage &usage,
                           const QJsonObject &metadata)
{
    if (m_finished)
        return;
    start();
    closeOpenBlocks();
    // An error anywhere in the stream outranks a finish reason seen before
    // it (wire formats §2, last row).
    if (m_hasError)
        reason = FinishReason::Error;
    m_finished = true;
    events().append(FinishStepEvent{reason, rawReason, usage, metadata});
    events().append(FinishEvent{reason, usage});
}

QList<ProviderEvent> StreamEmitter::take()
{
    return std::exchange(m_events, {});
}

std::optional<QJsonObject> StreamEmitter::parseArguments(const QString &text)
{
    if (text.trimmed().isEmpty())
        return QJsonObject();
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

QString StreamEmitter::generateToolCallId()
{
    // Gemini sends no call ids and some compatible servers send empty ones;
    // the engine keys tool parts by id, so it must be unique.
    return u"call_"_s + QUuid::createUuid().toString(QUuid::Id128).left(24);
}

} // namespace qcode
