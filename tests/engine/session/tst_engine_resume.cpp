// Engine::resume: the Retry button after a failed turn runs the loop again
// on the history as it is, without a new user message.

#include <QSignalSpy>
#include <QTest>

#include "EngineHarness.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const char *const BadRequest = R"({"error":{"message":"bad request: no such thing","type":"invalid_request_error"}})";

int userMessages(const QList<MessageWithParts> &messages)
{
    int users = 0;
    for (const MessageWithParts &message : messages)
        users += message.info.isUser() ? 1 : 0;
    return users;
}

} // namespace

class EngineResumeTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aFailedTurnRunsAgainWithoutANewUserMessage();
    void anAbortedTurnResumesWithItsPartialAnswerSent();
    void anAnsweredPromptHasNothingToRetry();
    void aSessionWithoutPromptsHasNothingToRetry();
    void aBusySessionRefusesToResume();
};

void EngineResumeTest::aFailedTurnRunsAgainWithoutANewUserMessage()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn::httpError(400, BadRequest));
    const auto failed = h.prompt(u"explain the parser"_s);
    QVERIFY(failed && failed->error);

    h.server().enqueue(FakeTurn().text({u"Recovered."_s}));
    h.engine().resume(h.session());
    const auto resumed = h.waitFinished();
    QVERIFY(resumed);
    QVERIFY2(!resumed->error, qPrintable(resumed->error ? resumed->error->message() : QString()));
    QVERIFY(!resumed->aborted);

    const QList<MessageWithParts> messages = h.messages();
    QCOMPARE(userMessages(messages), 1);
    QCOMPARE(messages.size(), 3);
    QVERIFY(messages.at(1).info.assistant()->error);
    QCOMPARE(resumed->messageID, messages.at(2).info.id());
    QCOMPARE(messages.at(2).info.assistant()->parentID, messages.at(0).info.id());
    // The retry asks the same question again; the failed attempt is not sent.
    QCOMPARE(h.server().requests().size(), 2);
    QVERIFY(h.sentText(1).contains(u"explain the parser"_s));
    QCOMPARE(h.userTexts(), QStringList{u"explain the parser"_s});
}

void EngineResumeTest::anAbortedTurnResumesWithItsPartialAnswerSent()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"half an "_s, u"answer"_s}).stallAfter(3));
    h.send(u"write a poem"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!h.sink().all<PartDelta>().isEmpty(), 10000);
    h.engine().abort(h.session());
    const auto aborted = h.waitFinished();
    QVERIFY(aborted && aborted->aborted);

    h.server().enqueue(FakeTurn().text({u"the whole answer"_s}));
    h.engine().resume(h.session());
    const auto resumed = h.waitFinished();
    QVERIFY(resumed && !resumed->error && !resumed->aborted);
    QCOMPARE(userMessages(h.messages()), 1);
    // The interrupted answer is history the model continues from.
    QVERIFY(h.sentText(1).contains(u"half an "_s));
}

void EngineResumeTest::anAnsweredPromptHasNothingToRetry()
{
    EngineHarness h;
    h.server().enqueue(FakeTurn().text({u"Done."_s}));
    QVERIFY(h.prompt(u"hello"_s));

    h.engine().resume(h.session());
    const auto refused = h.waitFinished();
    QVERIFY(refused && refused->error);
    QVERIFY(refused->error->message().contains(u"nothing to retry"_s));
    QCOMPARE(h.server().requests().size(), 1);
    QCOMPARE(h.messages().size(), 2);
}

void EngineResumeTest::aSessionWithoutPromptsHasNothingToRetry()
{
    EngineHarness h;
    h.engine().resume(h.session());
    const auto refused = h.waitFinished();
    QVERIFY(refused && refused->error);
    QVERIFY(refused->error->message().contains(u"no prompt to retry"_s));
    QVERIFY(h.server().requests().isEmpty());

    h.engine().resume(u"ses_missing"_s);
    const auto missing = h.waitFinished();
    QVERIFY(missing && missing->error);
    QVERIFY(missing->error->message().contains(u"does not exist"_s));
}

void EngineResumeTest::aBusySessionRefusesToResume()
{
    EngineHarness h;
    QVERIFY(h.sendAndHold(u"first"_s, u"all done"_s));

    h.engine().resume(h.session());
    const auto refused = h.waitFinished();
    QVERIFY(refused && refused->error);
    QVERIFY(refused->error->message().contains(u"is busy"_s));

    h.tools().release();
    const auto finished = h.waitFinished();
    QVERIFY(finished && !finished->error);
    QCOMPARE(h.server().requests().size(), 2);
    QCOMPARE(userMessages(h.messages()), 1);
}

QTEST_GUILESS_MAIN(EngineResumeTest)
#include "tst_engine_resume.moc"
