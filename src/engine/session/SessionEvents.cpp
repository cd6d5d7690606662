#include "SessionEvents.h"

#include <QJsonArray>

#include "model/Overloaded.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QJsonObject requestJson(const PermissionRequest &r)
{
    QJsonObject o{{"id"_L1, r.id},
                  {"sessionID"_L1, r.sessionID},
                  {"permission"_L1, r.permission},
                  {"patterns"_L1, QJsonArray::fromStringList(r.patterns)},
                  {"metadata"_L1, r.metadata},
                  {"always"_L1, QJsonArray::fromStringList(r.always)}};
    if (r.tool)
        o.insert("tool"_L1, QJsonObject{{"messageID"_L1, r.tool->messageID}, {"callID"_L1, r.tool->callID}});
    return o;
}

QJsonArray todosJson(const QList<Todo> &todos)
{
    QJsonArray list;
    for (const Todo &t : todos)
        list.append(QJsonObject{{"content"_L1, t.content}, {"status"_L1, t.status}, {"priority"_L1, t.priority}});
    return list;
}

} // namespace

QString sessionEventType(const SessionEvent &event)
{
    // In SessionEvent's order.
    static const QLatin1StringView names[] = {
        "session.created"_L1,      "session.updated"_L1,      "session.deleted"_L1,      "session.status"_L1,
        "message.updated"_L1,      "message.removed"_L1,      "message.part.updated"_L1, "message.part.removed"_L1,
        "message.part.delta"_L1,   "permission.asked"_L1,     "permission.replied"_L1,   "todo.updated"_L1,
        "session.compacted"_L1,    "session.error"_L1,        "question.asked"_L1,       "question.replied"_L1,
        "question.rejected"_L1,    "prompt.queued"_L1,        "prompt.dequeued"_L1,
    };
    static_assert(std::size(names) == std::variant_size_v<SessionEvent>);
    return names[event.index()];
}

QString permissionReplyName(PermissionReply reply)
{
    switch (reply) {
    case PermissionReply::Once: return u"once"_s;
    case PermissionReply::Always: return u"always"_s;
    case PermissionReply::Reject:
    case PermissionReply::RejectWithMessage: return u"reject"_s;
    }
    return u"reject"_s;
}

QString dequeueReasonName(DequeueReason reason)
{
    return reason == DequeueReason::Removed ? u"removed"_s : u"taken"_s;
}

QJsonObject sessionStatusToJson(const SessionStatus &status)
{
    switch (status.type) {
    case SessionStatus::Type::Idle: return QJsonObject{{"type"_L1, "idle"_L1}};
    case SessionStatus::Type::Busy: return QJsonObject{{"type"_L1, "busy"_L1}};
    case SessionStatus::Type::Retry:
        return QJsonObject{{"type"_L1, "retry"_L1},
                           {"attempt"_L1, status.attempt},
                           {"message"_L1, status.message},
                           {"next"_L1, status.next}};
    }
    return QJsonObject{{"type"_L1, "idle"_L1}};
}

QJsonObject questionRequestToJson(const QuestionRequest &request)
{
    QJsonArray questions;
    for (const QuestionInfo &info : request.questions) {
        QJsonArray options;
        for (const QuestionOption &option : info.options)
            options.append(QJsonObject{{"label"_L1, option.label}, {"description"_L1, option.description}});
        QJsonObject question{{"question"_L1, info.question}, {"header"_L1, info.header}, {"options"_L1, options}};
        if (info.multiple)
            question.insert("multiple"_L1, true);
        questions.append(question);
    }
    QJsonObject o{{"id"_L1, request.id}, {"sessionID"_L1, request.sessionID}, {"questions"_L1, questions}};
    if (request.tool)
        o.insert("tool"_L1, QJsonObject{{"messageID"_L1, request.tool->messageID}, {"callID"_L1, request.tool->callID}});
    return o;
}

QJsonObject sessionEventToJson(const SessionEvent &event)
{
    const QJsonObject properties = std::visit(
        Overloaded{
            [](const SessionCreated &e) { return QJsonObject{{"info"_L1, e.info.toJson()}}; },
            [](const SessionUpdated &e) { return QJsonObject{{"info"_L1, e.info.toJson()}}; },
            [](const SessionDeleted &e) { return QJsonObject{{"info"_L1, e.info.toJson()}}; },
            [](const SessionStatusChanged &e) {
                return QJsonObject{{"sessionID"_L1, e.sessionID}, {"status"_L1, sessionStatusToJson(e.status)}};
            },
            [](const MessageUpdated &e) { return QJsonObject{{"info"_L1, e.info.toJson()}}; },
            [](const MessageRemoved &e) {
                return QJsonObject{{"sessionID"_L1, e.sessionID}, {"messageID"_L1, e.messageID}};
            },
            [](const PartUpdated &e) { return QJsonObject{{"part"_L1, e.part.toJson()}}; },
            [](const PartRemoved &e) {
                return QJsonObject{{"sessionID"_L1, e.sessionID}, {"messageID"_L1, e.messageID}, {"partID"_L1, e.partID}};
            },
            [](const PartDelta &e) {
                return QJsonObject{{"sessionID"_L1, e.sessionID}, {"messageID"_L1, e.messageID},
                                   {"partID"_L1, e.partID},       {"field"_L1, e.field},
                                   {"delta"_L1, e.delta}};
            },
            [](const PermissionAsked &e) { return requestJson(e.request); },
            [](const PermissionReplied &e) {
                return QJsonObject{{"sessionID"_L1, e.sessionID},
                                   {"requestID"_L1, e.requestID},
                                   {"reply"_L1, permissionReplyName(e.reply)}};
            },
            [](const TodoUpdated &e) {
                return QJsonObject{{"sessionID"_L1, e.sessionID}, {"todos"_L1, todosJson(e.todos)}};
            },
            [](const SessionCompacted &e) { return QJsonObject{{"sessionID"_L1, e.sessionID}}; },
            [](const SessionError &e) {
                QJsonObject o{{"error"_L1, e.error.toJson()}};
                if (e.sessionID)
                    o.insert("sessionID"_L1, *e.sessionID);
                return o;
            },
            [](const QuestionAsked &e) { return questionRequestToJson(e.request); },
            [](const QuestionReplied &e) {
                QJsonArray answers;
                for (const QStringList &answer : e.answers)
                    answers.append(QJsonArray::fromStringList(answer));
                return QJsonObject{{"sessionID"_L1, e.sessionID}, {"requestID"_L1, e.requestID}, {"answers"_L1, answers}};
            },
            [](const QuestionRejected &e) {
                return QJsonObject{{"sessionID"_L1, e.sessionID}, {"requestID"_L1, e.requestID}};
            },
            [](const PromptQueued &e) {
                return QJsonObject{{"sessionID"_L1, e.sessionID}, {"queueID"_L1, e.queueID}, {"text"_L1, e.text}};
            },
            [](const PromptDequeued &e) {
                return QJsonObject{{"sessionID"_L1, e.sessionID}, {"queueID"_L1, e.queueID},
                                   {"reason"_L1, dequeueReasonName(e.reason)}};
            },
        },
        event);
    return QJsonObject{{"type"_L1, sessionEventType(event)}, {"properties"_L1, properties}};
}

} // namespace qcode
