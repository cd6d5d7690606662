#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "EngineHarness.h"
#include "engine/tool/QuestionTool.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QList<ToolPart> questionParts(const QList<MessageWithParts> &messages)
{
    QList<ToolPart> tools;
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            if (const ToolPart *found = part.as<ToolPart>(); found && found->tool == u"question"_s)
                tools.append(*found);
        }
    }
    return tools;
}

QJsonObject option(const QString &label, const QString &description)
{
    return QJsonObject{{u"label"_s, label}, {u"description"_s, description}};
}

QJsonObject twoQuestions()
{
    return QJsonObject{
        {u"questions"_s,
         QJsonArray{QJsonObject{{u"question"_s, u"Which database?"_s},
                                {u"header"_s, u"Database"_s},
                                {u"options"_s, QJsonArray{option(u"SQLite"_s, u"A file"_s),
                                                          option(u"Postgres"_s, u"A server"_s)}}},
                    QJsonObject{{u"question"_s, u"Which extras?"_s},
                                {u"header"_s, u"Extras"_s},
                                {u"multiple"_s, true},
                                {u"options"_s, QJsonArray{option(u"Docs"_s, u"Write docs"_s),
                                                          option(u"Tests"_s, u"Write tests"_s)}}}}},
    };
}

EngineHarness::Setup realTools(AskPolicy policy = AskPolicy::Ask)
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.askPolicy = policy;
    return setup;
}

} // namespace

class QuestionToolTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void answersReachTheModel()
    {
        EngineHarness h(realTools());
        QList<QuestionRequest> asked;
        h.onEvent<QuestionAsked>(this, [&h, &asked](const QuestionAsked &event) {
            asked.append(event.request);
            h.engine().replyQuestion(event.request.id, {{u"SQLite"_s}, {u"Docs"_s, u"Tests"_s}});
        });
        h.server().enqueue(FakeTurn().toolCall(u"question"_s, twoQuestions(), u"call_q"_s));
        h.server().enqueue(FakeTurn().text({u"SQLite it is."_s}));
        const auto outcome = h.prompt(u"set up storage"_s);
        QVERIFY(outcome);
        QVERIFY(!outcome->error);

        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first().sessionID, h.session());
        QCOMPARE(asked.first().questions.size(), 2);
        QCOMPARE(asked.first().questions.at(0).header, u"Database"_s);
        QCOMPARE(asked.first().questions.at(1).multiple, true);
        QCOMPARE(asked.first().questions.at(1).options.at(1).label, u"Tests"_s);
        QVERIFY(asked.first().tool);
        QCOMPARE(asked.first().tool->callID, u"call_q"_s);

        const QString expected = u"User has answered your questions: \"Which database?\"=\"SQLite\", "
                                 "\"Which extras?\"=\"Docs, Tests\". You can now continue with the user's answers "
                                 "in mind."_s;
        const QList<ToolPart> parts = questionParts(h.messages());
        QCOMPARE(parts.size(), 1);
        const auto *completed = std::get_if<ToolCompleted>(&parts.first().state);
        QVERIFY(completed);
        QCOMPARE(completed->output, expected);
        QCOMPARE(completed->title, u"Asked 2 questions"_s);
        QCOMPARE(h.sink().all<QuestionReplied>().size(), 1);
        QCOMPARE(h.sink().all<QuestionReplied>().first().answers.at(1), QStringList({u"Docs"_s, u"Tests"_s}));
        QVERIFY(QJsonDocument(h.requestBody(1)).toJson().contains("You can now continue with the user"));
    }

    void unansweredQuestionsSaySo()
    {
        const QList<QuestionInfo> questions{QuestionInfo{u"A?"_s, u"A"_s, {}, false},
                                            QuestionInfo{u"B?"_s, u"B"_s, {}, false}};
        QCOMPARE(QuestionTool::answerText(questions, {{u"yes"_s}}),
                 u"User has answered your questions: \"A?\"=\"yes\", \"B?\"=\"Unanswered\". You can now continue "
                 "with the user's answers in mind."_s);
    }

    void aDismissalStopsTheLoop()
    {
        EngineHarness h(realTools());
        h.onEvent<QuestionAsked>(this, [&h](const QuestionAsked &asked) { h.engine().rejectQuestion(asked.request.id); });
        h.server().enqueue(FakeTurn().toolCall(u"question"_s, twoQuestions()));
        h.server().enqueue(FakeTurn().text({u"never sent"_s}));
        const auto outcome = h.prompt(u"set up storage"_s);
        QVERIFY(outcome);
        QCOMPARE(h.server().requests().size(), 1);
        QCOMPARE(h.sink().all<QuestionRejected>().size(), 1);
        const QList<ToolPart> parts = questionParts(h.messages());
        QCOMPARE(parts.size(), 1);
        const auto *failed = std::get_if<ToolError>(&parts.first().state);
        QVERIFY(failed);
        QCOMPARE(failed->error, u"The user dismissed this question"_s);
    }

    void abortCancelsAPendingQuestion()
    {
        EngineHarness h(realTools());
        h.onEvent<QuestionAsked>(this, [&h](const QuestionAsked &asked) { h.engine().abort(asked.request.sessionID); });
        h.server().enqueue(FakeTurn().toolCall(u"question"_s, twoQuestions()));
        const auto outcome = h.prompt(u"set up storage"_s);
        QVERIFY(outcome);
        QVERIFY(outcome->aborted);
        QCOMPARE(h.sink().all<QuestionRejected>().size(), 1);
        for (const ToolPart &part : questionParts(h.messages()))
            QVERIFY(part.isFinished());
        // An answer that comes too late changes nothing.
        const QString id = h.sink().all<QuestionAsked>().first().request.id;
        h.engine().replyQuestion(id, {{u"SQLite"_s}});
        // Calls are queued in order: once a later one has run, this one has.
        bool handled = false;
        QMetaObject::invokeMethod(&h.engine(), [&handled] { handled = true; }, Qt::QueuedConnection);
        QTRY_VERIFY(handled);
        QCOMPARE(h.sink().all<QuestionReplied>().size(), 0);
    }

    void nobodyToAnswerDismissesWithAClearError()
    {
        // `qcode run` asks nobody: approving permissions does not make up answers.
        for (const AskPolicy policy : {AskPolicy::Refuse, AskPolicy::AutoApprove}) {
            EngineHarness h(realTools(policy));
            h.server().enqueue(FakeTurn().toolCall(u"question"_s, twoQuestions()));
            h.server().enqueue(FakeTurn().text({u"never sent"_s}));
            const auto outcome = h.prompt(u"set up storage"_s);
            QVERIFY(outcome);
            QCOMPARE(h.server().requests().size(), 1);
            QCOMPARE(h.sink().all<QuestionAsked>().size(), 1);
            QCOMPARE(h.sink().all<QuestionRejected>().size(), 1);
            bool reported = false;
            for (const SessionError &error : h.sink().all<SessionError>())
                reported = reported || (error.error.name == u"QuestionRefused"_s
                                        && error.error.message().contains(u"Which database?"_s));
            QVERIFY(reported);
        }
    }

    void eventsHaveOpenCodesShape()
    {
        QuestionRequest request;
        request.id = u"que_1"_s;
        request.sessionID = u"ses_1"_s;
        request.questions = {QuestionInfo{u"Q?"_s, u"H"_s, {QuestionOption{u"L"_s, u"D"_s}}, true}};
        request.tool = PermissionToolRef{u"msg_1"_s, u"call_1"_s};
        const QJsonObject asked = sessionEventToJson(QuestionAsked{request});
        QCOMPARE(asked.value(u"type"_s).toString(), u"question.asked"_s);
        const QJsonObject properties = asked.value(u"properties"_s).toObject();
        QCOMPARE(properties.value(u"id"_s).toString(), u"que_1"_s);
        const QJsonObject question = properties.value(u"questions"_s).toArray().first().toObject();
        QCOMPARE(question.value(u"header"_s).toString(), u"H"_s);
        QCOMPARE(question.value(u"multiple"_s).toBool(), true);
        QCOMPARE(question.value(u"options"_s).toArray().first().toObject().value(u"label"_s).toString(), u"L"_s);
        QCOMPARE(properties.value(u"tool"_s).toObject().value(u"callID"_s).toString(), u"call_1"_s);
        const QJsonObject replied = sessionEventToJson(QuestionReplied{u"ses_1"_s, u"que_1"_s, {{u"L"_s}}});
        QCOMPARE(replied.value(u"type"_s).toString(), u"question.replied"_s);
        QCOMPARE(replied.value(u"properties"_s).toObject().value(u"answers"_s).toArray().first().toArray().first().toString(),
                 u"L"_s);
        QCOMPARE(sessionEventToJson(QuestionRejected{u"ses_1"_s, u"que_1"_s}).value(u"type"_s).toString(),
                 u"question.rejected"_s);
    }
};

QTEST_GUILESS_MAIN(QuestionToolTest)
#include "tst_question_tool.moc"
