#include "ProviderTranscript.h"

#include "engine/provider/ProviderStreamParser.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QSet>

#include <cmath>
#include <variant>

using namespace Qt::StringLiterals;

namespace qcode::test {

namespace {

QJsonObject merged(QJsonObject base, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        if (it.value().isObject() && base.value(it.key()).isObject())
            base.insert(it.key(), merged(base.value(it.key()).toObject(), it.value().toObject()));
        else
            base.insert(it.key(), it.value());
    }
    return base;
}

struct Folder {
    ProviderTranscript &t;
    QSet<QString> openText;
    QSet<QString> refusalIds;
    QSet<QString> openTools;
    QHash<QString, qsizetype> openReasoning; // id → index in reasoningBlocks
    bool started = false;
    bool stepStarted = false;
    bool finished = false;

    void expectStarted(const QString &name)
    {
        if (!started || !stepStarted)
            t.problems << u"%1 before start/start-step"_s.arg(name);
        if (finished)
            t.problems << u"%1 after finish"_s.arg(name);
    }
    void signature(const QString &on, const QJsonObject &metadata)
    {
        const QString signature = metadata.value("google"_L1).toObject().value("thoughtSignature"_L1).toString();
        if (!signature.isEmpty())
            t.thoughtSignatures.append(QJsonObject{{"on"_L1, on}, {"signature"_L1, signature}});
    }

    void operator()(const StartEvent &)
    {
        if (started)
            t.problems << u"start twice"_s;
        started = true;
    }
    void operator()(const StartStepEvent &)
    {
        if (!started || stepStarted)
            t.problems << u"start-step out of place"_s;
        stepStarted = true;
    }
    void operator()(const ReasoningStartEvent &e)
    {
        expectStarted(u"reasoning-start"_s);
        if (openReasoning.contains(e.id))
            t.problems << u"reasoning %1 started twice"_s.arg(e.id);
        openReasoning.insert(e.id, t.reasoningBlocks.size());
        t.reasoningBlocks.append({QString(), e.providerMetadata});
    }
    void operator()(const ReasoningDeltaEvent &e)
    {
        expectStarted(u"reasoning-delta"_s);
        if (!openReasoning.contains(e.id)) {
            t.problems << u"reasoning-delta outside block %1"_s.arg(e.id);
            return;
        }
        t.reasoning += e.text;
        t.reasoningBlocks[openReasoning.value(e.id)].text += e.text;
    }
    void operator()(const ReasoningEndEvent &e)
    {
        if (!openReasoning.contains(e.id)) {
            t.problems << u"reasoning-end for unknown block %1"_s.arg(e.id);
            return;
        }
        auto &block = t.reasoningBlocks[openReasoning.take(e.id)];
        block.providerMetadata = merged(block.providerMetadata, e.providerMetadata);
        signature(u"thought"_s, e.providerMetadata);
    }
    void operator()(const TextStartEvent &e)
    {
        expectStarted(u"text-start"_s);
        if (openText.contains(e.id))
            t.problems << u"text %1 started twice"_s.arg(e.id);
        openText.insert(e.id);
        if (e.providerMetadata.value("refusal"_L1).toBool())
            refusalIds.insert(e.id);
    }
    void operator()(const TextDeltaEvent &e)
    {
        expectStarted(u"text-delta"_s);
        if (!openText.contains(e.id))
            t.problems << u"text-delta outside block %1"_s.arg(e.id);
        (refusalIds.contains(e.id) ? t.refusal : t.text) += e.text;
    }
    void operator()(const TextEndEvent &e)
    {
        if (!openText.remove(e.id))
            t.problems << u"text-end for unknown block %1"_s.arg(e.id);
        signature(u"text"_s, e.providerMetadata);
    }
    void operator()(const ToolInputStartEvent &e)
    {
        expectStarted(u"tool-input-start"_s);
        if (openTools.contains(e.id))
            t.problems << u"tool input %1 started twice"_s.arg(e.id);
        openTools.insert(e.id);
    }
    void operator()(const ToolInputDeltaEvent &e)
    {
        if (!openTools.contains(e.id))
            t.problems << u"tool-input-delta outside block %1"_s.arg(e.id);
    }
    void operator()(const ToolInputEndEvent &e)
    {
        if (!openTools.remove(e.id))
            t.problems << u"tool-input-end for unknown call %1"_s.arg(e.id);
    }
    void operator()(const ToolCallEvent &e)
    {
        expectStarted(u"tool-call"_s);
        t.toolCalls.append({e.toolCallId, e.toolName, e.input, e.parsedInput, e.providerMetadata});
        signature(u"functionCall"_s, e.providerMetadata);
    }
    void operator()(const FinishStepEvent &e)
    {
        expectStarted(u"finish-step"_s);
        if (t.finishStep)
            t.problems << u"finish-step twice"_s;
        if (!openText.isEmpty() || !openReasoning.isEmpty() || !openTools.isEmpty())
            t.problems << u"finish-step with blocks still open"_s;
        t.finishStep = e;
    }
    void operator()(const FinishEvent &e)
    {
        if (!t.finishStep)
            t.problems << u"finish without finish-step"_s;
        else if (t.finishStep->reason != e.reason)
            t.problems << u"finish reason differs from finish-step's"_s;
        if (finished)
            t.problems << u"finish twice"_s;
        finished = true;
    }
    void operator()(const ErrorEvent &e)
    {
        if (finished)
            t.problems << u"error after finish"_s;
        if (!t.error)
            t.error = e.error;
    }
};

bool equalJson(const QJsonValue &a, const QJsonValue &b)
{
    return a == b;
}

QString show(const QJsonValue &value)
{
    if (value.isString())
        return value.toString().left(120);
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact)).left(200);
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)).left(200);
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact));
}

void compareCount(QStringList &diffs, const char *name, const std::optional<qint64> &actual, const QJsonValue &expected)
{
    if (expected.isUndefined())
        return;
    if (expected.isNull()) {
        if (actual)
            diffs << u"usage.%1: expected null, got %2"_s.arg(QLatin1StringView(name)).arg(*actual);
    } else if (!actual || *actual != expected.toInteger()) {
        diffs << u"usage.%1: expected %2, got %3"_s.arg(QLatin1StringView(name)).arg(expected.toInteger())
                     .arg(actual ? QString::number(*actual) : u"null"_s);
    }
}

} // namespace

ProviderTranscript ProviderTranscript::fold(const QList<ProviderEvent> &events)
{
    ProviderTranscript transcript;
    transcript.eventCount = events.size();
    Folder folder{transcript, {}, {}, {}, {}};
    for (const ProviderEvent &event : events)
        std::visit(folder, event);
    if (!folder.finished)
        transcript.problems << u"no finish event"_s;
    return transcript;
}

QStringList compareWithExpected(const ProviderTranscript &t, const QJsonObject &expected)
{
    QStringList diffs = t.problems;

    const QJsonValue text = expected.value("text"_L1);
    if (text.isString()) {
        if (t.text != text.toString())
            diffs << u"text: expected \"%1\", got \"%2\""_s.arg(text.toString().left(120), t.text.left(120));
    } else if (expected.contains("text_sha256"_L1)) {
        const QByteArray utf8 = t.text.toUtf8();
        const QString sha = QString::fromLatin1(QCryptographicHash::hash(utf8, QCryptographicHash::Sha256).toHex());
        if (sha != expected.value("text_sha256"_L1).toString())
            diffs << u"text_sha256 differs (got %1 bytes)"_s.arg(utf8.size());
        if (utf8.size() != expected.value("text_length_utf8_bytes"_L1).toInteger())
            diffs << u"text length in bytes differs"_s;
    }
    if (expected.value("reasoning"_L1).isString() && t.reasoning != expected.value("reasoning"_L1).toString())
        diffs << u"reasoning: expected \"%1\", got \"%2\""_s.arg(expected.value("reasoning"_L1).toString().left(120), t.reasoning.left(120));
    if (expected.contains("refusal"_L1)) {
        const QString refusal = expected.value("refusal"_L1).toString();
        if (t.refusal != refusal)
            diffs << u"refusal: expected \"%1\", got \"%2\""_s.arg(refusal, t.refusal);
    }

    if (expected.value("reasoning_blocks"_L1).isArray()) {
        const QJsonArray blocks = expected.value("reasoning_blocks"_L1).toArray();
        if (blocks.size() != t.reasoningBlocks.size()) {
            diffs << u"reasoning_blocks: expected %1, got %2"_s.arg(blocks.size()).arg(t.reasoningBlocks.size());
        } else {
            for (qsizetype i = 0; i < blocks.size(); ++i) {
                const QJsonObject want = blocks.at(i).toObject();
                const QJsonObject anthropic = t.reasoningBlocks.at(i).providerMetadata.value("anthropic"_L1).toObject();
                if (want.value("type"_L1).toString() == "redacted_thinking"_L1) {
                    if (anthropic.value("redactedData"_L1) != want.value("data"_L1))
                        diffs << u"reasoning_blocks[%1]: redacted data differs"_s.arg(i);
                } else {
                    if (t.reasoningBlocks.at(i).text != want.value("text"_L1).toString())
                        diffs << u"reasoning_blocks[%1]: text differs"_s.arg(i);
                    if (anthropic.value("signature"_L1) != want.value("signature"_L1))
                        diffs << u"reasoning_blocks[%1]: signature differs"_s.arg(i);
                }
            }
        }
    }
    if (expected.value("reasoning_items"_L1).isArray()) {
        const QJsonArray items = expected.value("reasoning_items"_L1).toArray();
        if (items.size() != t.reasoningBlocks.size()) {
            diffs << u"reasoning_items: expected %1, got %2"_s.arg(items.size()).arg(t.reasoningBlocks.size());
        } else {
            for (qsizetype i = 0; i < items.size(); ++i) {
                const QJsonObject want = items.at(i).toObject();
                const QJsonObject openai = t.reasoningBlocks.at(i).providerMetadata.value("openai"_L1).toObject();
                if (openai.value("itemId"_L1) != want.value("id"_L1))
                    diffs << u"reasoning_items[%1]: id differs"_s.arg(i);
                if (openai.contains("reasoningEncryptedContent"_L1) != want.value("has_encrypted_content"_L1).toBool())
                    diffs << u"reasoning_items[%1]: encrypted content presence differs"_s.arg(i);
            }
        }
    }
    if (expected.value("thought_signatures"_L1).isArray()) {
        QJsonArray want;
        for (const QJsonValue &entry : expected.value("thought_signatures"_L1).toArray())
            want.append(QJsonObject{{"on"_L1, entry.toObject().value("on"_L1)}, {"signature"_L1, entry.toObject().value("signature"_L1)}});
        if (want != t.thoughtSignatures)
            diffs << u"thought_signatures: expected %1, got %2"_s.arg(show(want), show(t.thoughtSignatures));
    }

    const QJsonArray calls = expected.value("tool_calls"_L1).toArray();
    if (calls.size() != t.toolCalls.size()) {
        diffs << u"tool_calls: expected %1, got %2"_s.arg(calls.size()).arg(t.toolCalls.size());
    } else {
        for (qsizetype i = 0; i < calls.size(); ++i) {
            const QJsonObject want = calls.at(i).toObject();
            const auto &got = t.toolCalls.at(i);
            if (want.value("id"_L1).isString() && want.value("id"_L1).toString() != got.id)
                diffs << u"tool_calls[%1].id: expected %2, got %3"_s.arg(i).arg(want.value("id"_L1).toString(), got.id);
            if (got.id.isEmpty())
                diffs << u"tool_calls[%1] has no id"_s.arg(i);
            if (want.value("name"_L1).toString() != got.name)
                diffs << u"tool_calls[%1].name: expected %2, got %3"_s.arg(i).arg(want.value("name"_L1).toString(), got.name);
            if (want.value("arguments_json"_L1).toString() != got.input)
                diffs << u"tool_calls[%1].arguments_json: expected %2, got %3"_s.arg(i).arg(want.value("arguments_json"_L1).toString().left(120), got.input.left(120));
            const QJsonValue arguments = want.value("arguments"_L1);
            if (arguments.isNull() != !got.parsedInput.has_value()
                || (got.parsedInput && !equalJson(arguments, *got.parsedInput)))
                diffs << u"tool_calls[%1].arguments differ"_s.arg(i);
            if (want.value("complete"_L1).toBool() != got.parsedInput.has_value())
                diffs << u"tool_calls[%1].complete differs"_s.arg(i);
            if (want.contains("item_id"_L1)
                && got.providerMetadata.value("openai"_L1).toObject().value("itemId"_L1) != want.value("item_id"_L1))
                diffs << u"tool_calls[%1].item_id differs"_s.arg(i);
        }
    }

    if (!t.finishStep) {
        diffs << u"no finish-step"_s;
    } else {
        const QString reason = finishReasonName(t.finishStep->reason);
        if (reason != expected.value("finish_reason"_L1).toString())
            diffs << u"finish_reason: expected %1, got %2"_s.arg(expected.value("finish_reason"_L1).toString(), reason);
        const QJsonValue raw = expected.value("raw_finish_reason"_L1);
        if (raw.isString() && raw.toString() != t.finishStep->rawReason)
            diffs << u"raw_finish_reason: expected %1, got %2"_s.arg(raw.toString(), t.finishStep->rawReason);

        const QJsonValue usage = expected.value("usage"_L1);
        const StreamUsage &u = t.finishStep->usage;
        if (usage.isNull()) {
            if (!u.isEmpty())
                diffs << u"usage: expected none, got some"_s;
        } else if (usage.isObject()) {
            const QJsonObject want = usage.toObject();
            compareCount(diffs, "input", u.input, want.value("input"_L1));
            compareCount(diffs, "output", u.output, want.value("output"_L1));
            compareCount(diffs, "cache_read", u.cacheRead, want.value("cache_read"_L1));
            compareCount(diffs, "cache_write", u.cacheWrite, want.value("cache_write"_L1));
            compareCount(diffs, "reasoning", u.reasoning, want.value("reasoning"_L1));
            compareCount(diffs, "input_total", u.inputTotal, want.value("input_total"_L1));
        }
    }

    const QJsonValue error = expected.value("error"_L1);
    if (error.isNull() || error.isUndefined()) {
        if (t.error)
            diffs << u"unexpected error: %1"_s.arg(t.error->sentence());
    } else if (!t.error) {
        diffs << u"expected an error, got none"_s;
    } else {
        const QString message = error.toObject().value("message"_L1).toString();
        if (!message.isEmpty() && !t.error->message.contains(message))
            diffs << u"error message: expected %1, got %2"_s.arg(message, t.error->message);
        const QJsonObject classification = expected.value("error_classification"_L1).toObject();
        if (!classification.isEmpty()) {
            if (classification.value("retryable"_L1).toBool() != t.error->retryable)
                diffs << u"error retryable: expected %1"_s.arg(classification.value("retryable"_L1).toBool());
            if (classification.value("context_overflow"_L1).toBool() != t.error->isContextOverflow())
                diffs << u"error context overflow: expected %1, got kind %2"_s.arg(classification.value("context_overflow"_L1).toBool())
                             .arg(ProviderError::kindName(t.error->kind));
            if (classification.value("http_status"_L1).toInt() != t.error->httpStatus)
                diffs << u"error http status: expected %1, got %2"_s.arg(classification.value("http_status"_L1).toInt()).arg(t.error->httpStatus);
        }
    }
    return diffs;
}

QList<ProviderEvent> parseInPieces(WireProtocol protocol, const QByteArray &body, const QList<qsizetype> &cuts)
{
    ProviderStreamParser parser(protocol);
    QList<ProviderEvent> events;
    qsizetype from = 0;
    for (qsizetype cut : cuts) {
        if (cut <= from || cut >= body.size())
            continue;
        events.append(parser.append(QByteArrayView(body).sliced(from, cut - from)));
        from = cut;
    }
    events.append(parser.append(QByteArrayView(body).sliced(from)));
    events.append(parser.finish());
    return events;
}

std::optional<WireProtocol> protocolForFolder(const QString &folderName)
{
    if (folderName == "anthropic"_L1)
        return WireProtocol::AnthropicMessages;
    if (folderName == "openai-chat"_L1)
        return WireProtocol::OpenAIChat;
    if (folderName == "openai-responses"_L1)
        return WireProtocol::OpenAIResponses;
    if (folderName == "gemini"_L1)
        return WireProtocol::Gemini;
    return std::nullopt;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QJsonObject readJsonObject(const QString &path)
{
    return QJsonDocument::fromJson(readFile(path)).object();
}

} // namespace qcode::test
