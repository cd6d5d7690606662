// The event bus's wire form: OpenCode's {type, properties} for every event,
// which `qcode run --format json` prints and OpenCode clients understand.

#include <QJsonArray>
#include <QTest>
#include <QVariant>

#include "TempDatabase.h"
#include "engine/session/SessionEvents.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class SessionEventsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyEventHasOpenCodesTypeName();
    void partDeltaCarriesSessionMessagePartFieldAndDelta();
    void retryStatusCarriesAttemptMessageAndNextTime();
    void permissionEventsUseOpenCodesReplyNames();
    void sessionErrorIsANamedError();
    void queuedPromptEventsCarryTheQueueIdAndWhy();
    void eventsTravelInsideQVariant();
};

void SessionEventsTest::everyEventHasOpenCodesTypeName()
{
    const Session session = makeSession();
    const Message message = makeUserMessage(session.id);
    const Part part = makeTextPart(session.id, message.id(), u"hi"_s);
    const QList<std::pair<SessionEvent, QString>> cases{
        {SessionCreated{session}, u"session.created"_s},
        {SessionUpdated{session}, u"session.updated"_s},
        {SessionDeleted{session}, u"session.deleted"_s},
        {SessionStatusChanged{session.id, SessionStatus::busy()}, u"session.status"_s},
        {MessageUpdated{message}, u"message.updated"_s},
        {MessageRemoved{session.id, message.id()}, u"message.removed"_s},
        {PartUpdated{part}, u"message.part.updated"_s},
        {PartRemoved{session.id, message.id(), part.id}, u"message.part.removed"_s},
        {PartDelta{session.id, message.id(), part.id, u"text"_s, u"h"_s}, u"message.part.delta"_s},
        {PermissionAsked{PermissionRequest{}}, u"permission.asked"_s},
        {PermissionReplied{session.id, u"per_1"_s, PermissionReply::Once}, u"permission.replied"_s},
        {TodoUpdated{session.id, {}}, u"todo.updated"_s},
        {SessionCompacted{session.id}, u"session.compacted"_s},
        {SessionError{session.id, NamedError{u"UnknownError"_s, {}}}, u"session.error"_s},
        {QuestionAsked{QuestionRequest{}}, u"question.asked"_s},
        {QuestionReplied{session.id, u"que_1"_s, {}}, u"question.replied"_s},
        {QuestionRejected{session.id, u"que_1"_s}, u"question.rejected"_s},
        {PromptQueued{session.id, u"queue_1"_s, u"hi"_s}, u"prompt.queued"_s},
        {PromptDequeued{session.id, u"queue_1"_s, DequeueReason::Taken}, u"prompt.dequeued"_s},
    };
    QCOMPARE(cases.size(), qsizetype(std::variant_size_v<SessionEvent>));
    for (const auto &[event, type] : cases) {
        QCOMPARE(sessionEventType(event), type);
        QCOMPARE(sessionEventToJson(event).value("type"_L1).toString(), type);
    }
    const QJsonObject created = sessionEventToJson(SessionCreated{session}).value("properties"_L1).toObject();
    QCOMPARE(created.value("info"_L1).toObject(), session.toJson());
    const QJsonObject updated = sessionEventToJson(PartUpdated{part}).value("properties"_L1).toObject();
    QCOMPARE(updated.value("part"_L1).toObject(), part.toJson());
}

void SessionEventsTest::partDeltaCarriesSessionMessagePartFieldAndDelta()
{
    const QJsonObject json = sessionEventToJson(PartDelta{u"ses_1"_s, u"msg_1"_s, u"prt_1"_s, u"text"_s, u"lo"_s});
    QCOMPARE(json.value("properties"_L1).toObject(),
             (QJsonObject{{"sessionID"_L1, "ses_1"_L1}, {"messageID"_L1, "msg_1"_L1}, {"partID"_L1, "prt_1"_L1},
                          {"field"_L1, "text"_L1}, {"delta"_L1, "lo"_L1}}));
}

void SessionEventsTest::queuedPromptEventsCarryTheQueueIdAndWhy()
{
    QCOMPARE(sessionEventToJson(PromptQueued{u"ses_1"_s, u"queue_1"_s, u"fix it"_s}).value("properties"_L1).toObject(),
             (QJsonObject{{"sessionID"_L1, "ses_1"_L1}, {"queueID"_L1, "queue_1"_L1}, {"text"_L1, "fix it"_L1}}));
    QCOMPARE(sessionEventToJson(PromptDequeued{u"ses_1"_s, u"queue_1"_s, DequeueReason::Removed})
                 .value("properties"_L1)
                 .toObject(),
             (QJsonObject{{"sessionID"_L1, "ses_1"_L1}, {"queueID"_L1, "queue_1"_L1}, {"reason"_L1, "removed"_L1}}));
    QCOMPARE(dequeueReasonName(DequeueReason::Taken), u"taken"_s);
}

void SessionEventsTest::retryStatusCarriesAttemptMessageAndNextTime()
{
    const QJsonObject json =
        sessionEventToJson(SessionStatusChanged{u"ses_1"_s, SessionStatus::retry(2, u"Provider is overloaded"_s, 1234)});
    QCOMPARE(json.value("properties"_L1).toObject().value("status"_L1).toObject(),
             (QJsonObject{{"type"_L1, "retry"_L1}, {"attempt"_L1, 2}, {"message"_L1, "Provider is overloaded"_L1},
                          {"next"_L1, 1234}}));
    QCOMPARE(sessionStatusToJson(SessionStatus::idle()), (QJsonObject{{"type"_L1, "idle"_L1}}));
    QCOMPARE(sessionStatusToJson(SessionStatus::busy()), (QJsonObject{{"type"_L1, "busy"_L1}}));
}

void SessionEventsTest::permissionEventsUseOpenCodesReplyNames()
{
    QCOMPARE(permissionReplyName(PermissionReply::Once), u"once"_s);
    QCOMPARE(permissionReplyName(PermissionReply::Always), u"always"_s);
    QCOMPARE(permissionReplyName(PermissionReply::Reject), u"reject"_s);
    QCOMPARE(permissionReplyName(PermissionReply::RejectWithMessage), u"reject"_s);

    PermissionRequest request{u"per_1"_s, u"ses_1"_s, u"doom_loop"_s, {u"read"_s}, QJsonObject{{"tool"_L1, "read"_L1}},
                              {u"read"_s}, PermissionToolRef{u"msg_1"_s, u"call_1"_s}};
    const QJsonObject asked = sessionEventToJson(PermissionAsked{request}).value("properties"_L1).toObject();
    QCOMPARE(asked.value("permission"_L1).toString(), u"doom_loop"_s);
    QCOMPARE(asked.value("patterns"_L1).toArray(), QJsonArray{u"read"_s});
    QCOMPARE(asked.value("always"_L1).toArray(), QJsonArray{u"read"_s});
    QCOMPARE(asked.value("tool"_L1).toObject(), (QJsonObject{{"messageID"_L1, "msg_1"_L1}, {"callID"_L1, "call_1"_L1}}));
}

void SessionEventsTest::sessionErrorIsANamedError()
{
    const NamedError error{u"APIError"_s, QJsonObject{{"message"_L1, "slow down"_L1}, {"isRetryable"_L1, true}}};
    const QJsonObject json = sessionEventToJson(SessionError{u"ses_1"_s, error}).value("properties"_L1).toObject();
    QCOMPARE(json.value("sessionID"_L1).toString(), u"ses_1"_s);
    QCOMPARE(json.value("error"_L1).toObject(), error.toJson());
    QVERIFY(!sessionEventToJson(SessionError{std::nullopt, error}).value("properties"_L1).toObject().contains("sessionID"_L1));
}

void SessionEventsTest::eventsTravelInsideQVariant()
{
    const SessionEvent event = PartDelta{u"ses_1"_s, u"msg_1"_s, u"prt_1"_s, u"text"_s, u"x"_s};
    const QVariant carried = QVariant::fromValue(event);
    QCOMPARE(sessionEventToJson(carried.value<SessionEvent>()), sessionEventToJson(event));
}

QTEST_GUILESS_MAIN(SessionEventsTest)
#include "tst_session_events.moc"
