// A step whose stream is cut and retried leaves one answer (issue 17.2):
// what the cut attempt streamed gives way to the retried attempt, so the
// window shows the text once and the next request carries one assistant
// message for the step, as OpenCode's. The cut comes with no retry-after
// header, so each test waits the first backoff (2 s).

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "EngineHarness.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QStringList roles(const QJsonObject &request)
{
    QStringList roles;
    for (const QJsonValue &message : request.value(u"messages"_s).toArray())
        roles.append(message.toObject().value(u"role"_s).toString());
    return roles;
}

QStringList partTypes(const MessageWithParts &message)
{
    QStringList types;
    for (const Part &part : message.parts)
        types.append(part.type());
    return types;
}

} // namespace

class RetriedStepTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aRetriedStepLeavesOneAssistantMessageForTheModelAndTheWindow();
    void aRetryStoppedWhileItWaitsKeepsWhatTheCutAttemptSaid();
};

void RetriedStepTest::aRetriedStepLeavesOneAssistantMessageForTheModelAndTheWindow()
{
    EngineHarness h;
    h.tools().script(u"read"_s, ToolOutput{u"file text"_s, u"a.txt"_s, {}, {}});
    const QJsonObject input{{u"filePath"_s, u"a.txt"_s}};
    // The role chunk, both text deltas and the call's first chunk — then
    // the server hangs up.
    h.server().enqueue(FakeTurn().text({u"Let me "_s, u"look."_s}).toolCall(u"read"_s, input, u"call_1"_s).disconnectAfter(4));
    h.server().enqueue(FakeTurn().text({u"Let me "_s, u"look."_s}).toolCall(u"read"_s, input, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"It says file text."_s}));
    const auto outcome = h.prompt(u"read a.txt"_s, {}, 20000);
    QVERIFY(outcome);
    QVERIFY(!outcome->error);
    QCOMPARE(h.server().requests().size(), 3);

    // The model: user, then one assistant turn with the text and the call,
    // then the call's result — not the cut attempt as a turn of its own.
    QStringList sent = roles(h.requestBody(2));
    sent.removeAll(u"system"_s);
    QCOMPARE(sent, (QStringList{u"user"_s, u"assistant"_s, u"tool"_s}));
    QCOMPARE(QString::fromUtf8(QJsonDocument(h.requestBody(2)).toJson(QJsonDocument::Compact)).count(u"Let me look."_s), 1);

    // The window: the cut attempt's parts were taken back, so the text is
    // there once, with one step and one call.
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(messages.size(), 3);
    QCOMPARE(partTypes(messages.at(1)), (QStringList{u"step-start"_s, u"text"_s, u"tool"_s, u"step-finish"_s}));
    QCOMPARE(messages.at(1).parts.at(1).as<TextPart>()->text, u"Let me look."_s);
    QSet<QString> removed;
    for (const PartRemoved &part : h.sink().all<PartRemoved>()) {
        QCOMPARE(part.messageID, messages.at(1).info.id());
        removed.insert(part.partID);
    }
    QSet<QString> shown;
    for (const PartUpdated &updated : h.sink().all<PartUpdated>()) {
        if (updated.part.messageID == messages.at(1).info.id() && !removed.contains(updated.part.id))
            shown.insert(updated.part.id);
    }
    QSet<QString> stored;
    for (const Part &part : messages.at(1).parts)
        stored.insert(part.id);
    QCOMPARE(shown, stored);
    QCOMPARE(removed.size(), 3); // the cut attempt's step-start, text and announced call
}

void RetriedStepTest::aRetryStoppedWhileItWaitsKeepsWhatTheCutAttemptSaid()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"Half an "_s, u"answer"_s}).disconnectAfter(2));
    h.send(u"say something"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!h.sink().all<SessionStatusChanged>().isEmpty()
                                 && h.sink().all<SessionStatusChanged>().last().status.type == SessionStatus::Type::Retry,
                             10000);
    h.engine().abort(h.session());
    const auto outcome = h.waitFinished();
    QVERIFY(outcome);
    QVERIFY(outcome->aborted);
    // Nothing replaced it: the partial answer stays, for the person and
    // the model (an interrupted answer that said something is sent).
    QVERIFY(h.sink().all<PartRemoved>().isEmpty());
    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(messages.size(), 2);
    QCOMPARE(partTypes(messages.at(1)), (QStringList{u"step-start"_s, u"text"_s}));
    QCOMPARE(messages.at(1).parts.at(1).as<TextPart>()->text, u"Half an"_s);
}

QTEST_GUILESS_MAIN(RetriedStepTest)
#include "tst_retried_step.moc"
