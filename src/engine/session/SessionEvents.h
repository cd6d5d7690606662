#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

#include "model/Message.h"
#include "model/Part.h"
#include "model/Session.h"
#include "model/Todo.h"

namespace qcode {

// The engine's event bus (reference §10), as values. Everything a view, the
// headless `qcode run` or a test learns about a running session arrives as
// one of these, in the order the engine produced it. Each event is
// published after the database write it reports (reference §1.5), except
// PartDelta, which runs ahead of the database on purpose: deltas reach
// listeners at once, and PartWriter persists the text at a bounded interval.
//
// A typical prompt: MessageUpdated (user) → PartUpdated×n → SessionStatus
// busy → MessageUpdated (assistant created) → PartUpdated (step-start) →
// PartUpdated (text, empty) → PartDelta×n → PartUpdated (text final) → tool
// parts pending / running / completed (with PermissionAsked/Replied,
// QuestionAsked/Replied/Rejected and TodoUpdated) → PartUpdated (step-finish) → MessageUpdated (usage) → …
// → SessionStatus idle.
//
// Payloads are copies, never pointers into the engine's state, so a queued
// signal can carry them to the GUI thread.

// session.created / session.updated / session.deleted: {info}
struct SessionCreated {
    Session info;
};
struct SessionUpdated {
    Session info;
};
struct SessionDeleted {
    Session info;
};

// What a session is doing (`session.status`): idle, busy, or waiting to
// retry a provider call.
struct SessionStatus {
    enum class Type { Idle, Busy, Retry };

    Type type = Type::Idle;
    int attempt = 0;   // Retry: the retry number, 1-based
    QString message;   // Retry: why, for the status line ("Provider is overloaded")
    qint64 next = 0;   // Retry: when the next call starts, ms since the epoch

    static SessionStatus idle() { return {}; }
    static SessionStatus busy() { return {Type::Busy, 0, {}, 0}; }
    static SessionStatus retry(int attempt, QString message, qint64 next)
    {
        return {Type::Retry, attempt, std::move(message), next};
    }
    bool operator==(const SessionStatus &) const = default;
};

// session.status: {sessionID, status}. Idle is also OpenCode's session.idle.
struct SessionStatusChanged {
    QString sessionID;
    SessionStatus status;
};

// message.updated: {info}
struct MessageUpdated {
    Message info;
};

// message.removed: {sessionID, messageID}
struct MessageRemoved {
    QString sessionID;
    QString messageID;
};

// message.part.updated: {part}, the whole part as just saved.
struct PartUpdated {
    Part part;
};

// message.part.removed: {sessionID, messageID, partID}
struct PartRemoved {
    QString sessionID;
    QString messageID;
    QString partID;
};

// message.part.delta: text appended to a streaming text or reasoning part.
// `field` is the part field that grows ("text").
struct PartDelta {
    QString sessionID;
    QString messageID;
    QString partID;
    QString field;
    QString delta;
};

// Which tool call a permission request is about.
struct PermissionToolRef {
    QString messageID;
    QString callID;
    bool operator==(const PermissionToolRef &) const = default;
};

// A question to the person (reference §9): may `permission` be used on
// `patterns`? `always` lists the patterns an "always" answer approves.
struct PermissionRequest {
    QString id; // per_…; given by whoever asks the person
    QString sessionID;
    QString permission; // "bash", "edit", "doom_loop" …
    QStringList patterns;
    QJsonObject metadata;
    QStringList always;
    std::optional<PermissionToolRef> tool;
    // The patterns are whole lines nobody could read command by command
    // (a bash line with eval, sh -c, a parse error …): only the rule for
    // "*" decides, never a narrower one like "echo *", and an "always"
    // approval covers exactly the same pattern.
    bool judgedWhole = false;
};

// The person's answer. RejectWithMessage carries feedback for the model;
// on the bus it is OpenCode's reply "reject".
enum class PermissionReply { Once, Always, Reject, RejectWithMessage };

// permission.asked: the request.
struct PermissionAsked {
    PermissionRequest request;
};

// permission.replied: {sessionID, requestID, reply}
struct PermissionReplied {
    QString sessionID;
    QString requestID;
    PermissionReply reply = PermissionReply::Once;
};

// todo.updated: {sessionID, todos}
struct TodoUpdated {
    QString sessionID;
    QList<Todo> todos;
};

// session.compacted: {sessionID}
struct SessionCompacted {
    QString sessionID;
};

// session.error: {sessionID?, error}, a named error as messages store it
// ({name, data}).
struct SessionError {
    std::optional<QString> sessionID;
    NamedError error;
};

// One choice offered with a question; the label is the answer's text.
struct QuestionOption {
    QString label;
    QString description;
};

// A question the model puts to the person (reference §8.11): the full
// text, a short header (at most 30 characters) for a tab or a title, the
// options, and whether several may be picked. The person may also answer
// in words of their own.
struct QuestionInfo {
    QString question;
    QString header;
    QList<QuestionOption> options;
    bool multiple = false;
};

// The question tool's request: one or more questions, answered together.
struct QuestionRequest {
    QString id; // que_…; given by the engine
    QString sessionID;
    QList<QuestionInfo> questions;
    std::optional<PermissionToolRef> tool;
};

// question.asked: the request.
struct QuestionAsked {
    QuestionRequest request;
};

// question.replied: {sessionID, requestID, answers}, one list of picked
// labels (or typed words) per question, in the request's order.
struct QuestionReplied {
    QString sessionID;
    QString requestID;
    QList<QStringList> answers;
};

// question.rejected: {sessionID, requestID}: the person dismissed the
// question, the prompt was stopped, or nobody can answer here.
struct QuestionRejected {
    QString sessionID;
    QString requestID;
};

// Not on OpenCode's bus, where a prompt sent while the session is busy is
// stored at once. qcode holds it until the running loop takes it, so the
// person can still edit or remove it.
//
// prompt.queued: {sessionID, queueID, text}: a prompt waits for the
// session (or, after an edit, its new text). `text` is its text parts,
// joined by blank lines.
struct PromptQueued {
    QString sessionID;
    QString queueID;
    QString text;
};

// Why a queued prompt left the queue: the loop took it (it is now a stored
// user message), or the person removed it.
enum class DequeueReason { Taken, Removed };

// prompt.dequeued: {sessionID, queueID, reason: "taken" | "removed"}
struct PromptDequeued {
    QString sessionID;
    QString queueID;
    DequeueReason reason = DequeueReason::Taken;
};

using SessionEvent = std::variant<SessionCreated, SessionUpdated, SessionDeleted, SessionStatusChanged, MessageUpdated,
                                  MessageRemoved, PartUpdated, PartRemoved, PartDelta, PermissionAsked,
                                  PermissionReplied, TodoUpdated, SessionCompacted, SessionError, QuestionAsked,
                                  QuestionReplied, QuestionRejected, PromptQueued, PromptDequeued>;

// OpenCode's event type ("message.part.delta", "session.status" …).
QString sessionEventType(const SessionEvent &event);
// OpenCode's wire form, {type, properties}: what `qcode run --format json`
// prints, one per line.
QJsonObject sessionEventToJson(const SessionEvent &event);
// "taken" or "removed".
QString dequeueReasonName(DequeueReason reason);
// OpenCode's spelling of a reply: once, always or reject.
QString permissionReplyName(PermissionReply reply);
QJsonObject sessionStatusToJson(const SessionStatus &status);
// A question request as question.asked carries it.
QJsonObject questionRequestToJson(const QuestionRequest &request);

// Where the engine publishes. The Engine object implements it by emitting
// one signal per event type; tests implement it by recording. publish()
// is called on the engine thread, synchronously, in event order; it must
// not call back into the code that published.
class SessionEventSink
{
public:
    virtual ~SessionEventSink() = default;
    virtual void publish(const SessionEvent &event) = 0;

protected:
    SessionEventSink() = default;
    SessionEventSink(const SessionEventSink &) = default;
    SessionEventSink &operator=(const SessionEventSink &) = default;
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::SessionCreated)
Q_DECLARE_METATYPE(qcode::SessionUpdated)
Q_DECLARE_METATYPE(qcode::SessionDeleted)
Q_DECLARE_METATYPE(qcode::SessionStatus)
Q_DECLARE_METATYPE(qcode::SessionStatusChanged)
Q_DECLARE_METATYPE(qcode::MessageUpdated)
Q_DECLARE_METATYPE(qcode::MessageRemoved)
Q_DECLARE_METATYPE(qcode::PartUpdated)
Q_DECLARE_METATYPE(qcode::PartRemoved)
Q_DECLARE_METATYPE(qcode::PartDelta)
Q_DECLARE_METATYPE(qcode::PermissionRequest)
Q_DECLARE_METATYPE(qcode::PermissionAsked)
Q_DECLARE_METATYPE(qcode::PermissionReplied)
Q_DECLARE_METATYPE(qcode::TodoUpdated)
Q_DECLARE_METATYPE(qcode::SessionCompacted)
Q_DECLARE_METATYPE(qcode::SessionError)
Q_DECLARE_METATYPE(qcode::QuestionRequest)
Q_DECLARE_METATYPE(qcode::QuestionAsked)
Q_DECLARE_METATYPE(qcode::QuestionReplied)
Q_DECLARE_METATYPE(qcode::QuestionRejected)
Q_DECLARE_METATYPE(qcode::PromptQueued)
Q_DECLARE_METATYPE(qcode::DequeueReason)
Q_DECLARE_METATYPE(qcode::PromptDequeued)
Q_DECLARE_METATYPE(qcode::SessionEvent)
