#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

#include "Message.h"
#include "Result.h"

namespace qcode {

struct PartTime {
    qint64 start = 0;
    std::optional<qint64> end;
};

struct TextPart {
    QString text;
    std::optional<bool> synthetic; // injected by qcode, not typed by the person
    std::optional<bool> ignored;   // kept, but never sent to the model
    std::optional<PartTime> time;
    std::optional<QJsonObject> metadata;
};

struct ReasoningPart {
    QString text;
    std::optional<QJsonObject> metadata;
    PartTime time;
};

struct FilePart {
    QString mime;
    std::optional<QString> filename;
    QString url; // data:, file:, http(s):
    std::optional<QJsonObject> source;
};

// A file a tool returned; a part of its own, with its own id.
struct FileAttachment {
    QString id;
    QString sessionID;
    QString messageID;
    FilePart file;
    QJsonObject extra;

    QJsonObject toJson() const;
    static FileAttachment fromJson(const QJsonObject &json);
};

// The tool state machine (reference 1.4):
// pending → running → completed | error, and pending → error on abort.
struct ToolPending {
    QJsonObject input;
    QString raw;
};
struct ToolRunning {
    QJsonObject input;
    std::optional<QString> title;
    std::optional<QJsonObject> metadata;
    qint64 start = 0;
};
struct ToolCompleted {
    QJsonObject input;
    QString output;
    QString title;
    QJsonObject metadata;
    qint64 start = 0;
    qint64 end = 0;
    std::optional<qint64> compacted; // set when pruning cleared the output
    std::optional<QList<FileAttachment>> attachments;
};
struct ToolError {
    QJsonObject input;
    QString error;
    std::optional<QJsonObject> metadata;
    qint64 start = 0;
    qint64 end = 0;
};
using ToolState = std::variant<ToolPending, ToolRunning, ToolCompleted, ToolError>;

QString toolStatusName(const ToolState &state);

struct ToolPart {
    QString callID;
    QString tool;
    ToolState state = ToolPending{};
    std::optional<QJsonObject> metadata; // provider call metadata
    QJsonObject stateExtra;              // unknown fields inside "state"

    bool isFinished() const;
    const QJsonObject &input() const;

    // Transitions; each refuses a move the state machine does not allow and
    // leaves the part unchanged.
    Result<void> start(const QJsonObject &input, qint64 now);
    Result<void> updateRunning(std::optional<QString> title, std::optional<QJsonObject> metadata);
    Result<void> complete(QString output, QString title, QJsonObject metadata, qint64 now,
                          std::optional<QList<FileAttachment>> attachments = std::nullopt);
    Result<void> fail(QString error, qint64 now);
};

struct StepStartPart {
    std::optional<QString> snapshot;
};

struct StepFinishPart {
    QString reason;
    std::optional<QString> snapshot;
    double cost = 0;
    TokenUsage tokens;
};

struct SnapshotPart {
    QString snapshot;
};

struct PatchPart {
    QString hash;
    QStringList files;
};

struct AgentPart {
    QString name;
    std::optional<QJsonObject> source;
};

struct SubtaskPart {
    QString prompt;
    QString description;
    QString agent;
    std::optional<ModelRef> model;
    std::optional<QString> command;
};

struct RetryPart {
    int attempt = 0;
    QJsonObject error;
    qint64 created = 0;
};

struct CompactionPart {
    bool automatic = false; // OpenCode's "auto"
    std::optional<bool> overflow;
};

// A part type from a newer OpenCode; all its fields live in Part::extra.
struct UnknownPart {
    QString type;
};

using PartBody = std::variant<TextPart, ReasoningPart, FilePart, ToolPart, StepStartPart, StepFinishPart,
                              SnapshotPart, PatchPart, AgentPart, SubtaskPart, RetryPart, CompactionPart,
                              UnknownPart>;

// MessageV2.Part: the common ids plus one body.
struct Part {
    QString id;
    QString sessionID;
    QString messageID;
    PartBody body;
    QJsonObject extra;

    QString type() const;

    template <typename T>
    const T *as() const { return std::get_if<T>(&body); }
    template <typename T>
    T *as() { return std::get_if<T>(&body); }

    QJsonObject toJson() const;
    // toJson() without id, sessionID and messageID: the part table's data column.
    QJsonObject toDataJson() const;
    static Result<Part> fromJson(const QJsonObject &json);

    friend bool operator==(const Part &a, const Part &b) { return a.toJson() == b.toJson(); }
};

// MessageV2.WithParts.
struct MessageWithParts {
    Message info;
    QList<Part> parts;

    QJsonObject toJson() const;
    static Result<MessageWithParts> fromJson(const QJsonObject &json);
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::Part)
Q_DECLARE_METATYPE(qcode::MessageWithParts)
