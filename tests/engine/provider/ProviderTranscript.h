#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

#include "engine/provider/ProviderEvent.h"
#include "engine/provider/WireProtocol.h"

namespace qcode::test {

// A provider event sequence folded into the normalized result the fixture
// corpus describes (README "How to use", wire formats §2), plus every way
// the sequence broke the event grammar. Tests compare the fold, not the
// raw events, so a fixture's expected.json is the whole specification.
struct ProviderTranscript {
    struct ToolCall {
        QString id;
        QString name;
        QString input;
        std::optional<QJsonObject> parsedInput;
        QJsonObject providerMetadata;
    };
    struct ReasoningBlock {
        QString text;
        QJsonObject providerMetadata; // start and end metadata merged
    };

    QString text;
    QString refusal;
    QString reasoning;
    QList<ReasoningBlock> reasoningBlocks;
    QList<ToolCall> toolCalls;
    QJsonArray thoughtSignatures; // [{on, signature}] in stream order
    std::optional<FinishStepEvent> finishStep;
    std::optional<ProviderError> error;
    qsizetype eventCount = 0;
    // Grammar violations: a delta outside its block, a block never closed,
    // events after finish, a missing start or finish.
    QStringList problems;

    static ProviderTranscript fold(const QList<ProviderEvent> &events);
};

// Every difference between a transcript and a fixture's expected.json, one
// line each; empty when they agree.
QStringList compareWithExpected(const ProviderTranscript &transcript, const QJsonObject &expected);

// The whole body through a ProviderStreamParser, read in pieces that end
// at the given offsets (sorted, inside the body).
QList<ProviderEvent> parseInPieces(WireProtocol protocol, const QByteArray &body, const QList<qsizetype> &cuts);

// The protocol a fixture folder holds (anthropic, openai-chat …).
std::optional<WireProtocol> protocolForFolder(const QString &folderName);

QByteArray readFile(const QString &path);
QJsonObject readJsonObject(const QString &path);

} // namespace qcode::test
