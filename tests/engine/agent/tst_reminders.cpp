#include <QTest>

#include "engine/agent/PromptLibrary.h"
#include "engine/agent/Reminders.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

MessageWithParts user(const QString &id, const QString &agent, const QString &text)
{
    UserMessage info;
    info.id = id;
    info.sessionID = u"ses_1"_s;
    info.agent = agent;
    Part part;
    part.id = u"prt_"_s + id;
    part.sessionID = info.sessionID;
    part.messageID = id;
    part.body = TextPart{text, {}, {}, {}, {}};
    return {Message(info), {part}};
}

MessageWithParts assistant(const QString &id, const QString &agent)
{
    AssistantMessage info;
    info.id = id;
    info.sessionID = u"ses_1"_s;
    info.agent = agent;
    info.mode = agent;
    info.finish = u"stop"_s;
    return {Message(info), {}};
}

QString planText()
{
    return PromptLibrary::text(PromptText::PlanReminder);
}

QString buildSwitchText()
{
    return PromptLibrary::text(PromptText::BuildSwitch);
}

} // namespace

// Reference §2.7, OpenCode's default mode: reminders for the plan agent and
// for switching from plan to build, added in memory only.
class TestReminders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void buildWithoutAPlanBeforeGetsNoReminder()
    {
        const QList<MessageWithParts> history{user(u"msg_1"_s, u"build"_s, u"hi"_s), assistant(u"msg_2"_s, u"build"_s),
                                              user(u"msg_3"_s, u"build"_s, u"again"_s)};
        QVERIFY(Reminders::forStep(history, u"build"_s).isEmpty());
        QCOMPARE(Reminders::withReminders(history, u"build"_s).last().parts.size(), 1);
    }

    void thePlanAgentIsRemindedItIsReadOnly()
    {
        const QList<MessageWithParts> history{user(u"msg_1"_s, u"plan"_s, u"design a cache"_s)};
        QCOMPARE(Reminders::forStep(history, u"plan"_s), QStringList({planText()}));
        QVERIFY(planText().contains(u"read-only"_s));
        QVERIFY(planText().contains(u"does not want you to carry out the plan yet"_s));
    }

    void thePlanReminderRepeatsOnEveryPlanStep()
    {
        const QList<MessageWithParts> history{user(u"msg_1"_s, u"plan"_s, u"a"_s), assistant(u"msg_2"_s, u"plan"_s),
                                              user(u"msg_3"_s, u"plan"_s, u"b"_s)};
        QCOMPARE(Reminders::forStep(history, u"plan"_s), QStringList({planText()}));
    }

    void buildAfterPlanIsToldItMayNowChangeThings()
    {
        const QList<MessageWithParts> history{user(u"msg_1"_s, u"plan"_s, u"plan it"_s), assistant(u"msg_2"_s, u"plan"_s),
                                              user(u"msg_3"_s, u"build"_s, u"do it"_s)};
        QCOMPARE(Reminders::forStep(history, u"build"_s), QStringList({buildSwitchText()}));
        // Still true later in the session: OpenCode looks at the whole history.
        QList<MessageWithParts> longer = history;
        longer << assistant(u"msg_4"_s, u"build"_s) << user(u"msg_5"_s, u"build"_s, u"more"_s);
        QCOMPARE(Reminders::forStep(longer, u"build"_s), QStringList({buildSwitchText()}));
    }

    void onlyAnAnswerByPlanCountsNotAUserMessageAddressedToIt()
    {
        const QList<MessageWithParts> history{user(u"msg_1"_s, u"plan"_s, u"plan it"_s),
                                              user(u"msg_2"_s, u"build"_s, u"do it"_s)};
        QVERIFY(Reminders::forStep(history, u"build"_s).isEmpty());
    }

    void otherAgentsAfterPlanGetNoSwitchReminder()
    {
        const QList<MessageWithParts> history{user(u"msg_1"_s, u"plan"_s, u"x"_s), assistant(u"msg_2"_s, u"plan"_s),
                                              user(u"msg_3"_s, u"review"_s, u"y"_s)};
        QVERIFY(Reminders::forStep(history, u"review"_s).isEmpty());
    }

    void withoutAUserMessageThereIsNothingToRemind()
    {
        QVERIFY(Reminders::forStep({}, u"plan"_s).isEmpty());
        QVERIFY(Reminders::forStep({assistant(u"msg_1"_s, u"plan"_s)}, u"build"_s).isEmpty());
    }

    void remindersGoOnTheLastUserMessageAsSyntheticTextWithoutTouchingTheInput()
    {
        const QList<MessageWithParts> history{user(u"msg_1"_s, u"plan"_s, u"plan it"_s), assistant(u"msg_2"_s, u"plan"_s),
                                              user(u"msg_3"_s, u"build"_s, u"do it"_s), assistant(u"msg_4"_s, u"build"_s)};
        const QList<MessageWithParts> sent = Reminders::withReminders(history, u"build"_s);
        QCOMPARE(history.at(2).parts.size(), 1); // the stored history is unchanged
        QCOMPARE(sent.size(), history.size());
        const QList<Part> &parts = sent.at(2).parts;
        QCOMPARE(parts.size(), 2);
        const TextPart *reminder = parts.last().as<TextPart>();
        QVERIFY(reminder);
        QCOMPARE(reminder->text, buildSwitchText());
        QCOMPARE(reminder->synthetic, true);
        QCOMPARE(parts.last().messageID, u"msg_3"_s);
        QCOMPARE(parts.last().sessionID, u"ses_1"_s);
        QVERIFY(parts.last().id.startsWith(u"prt_"_s));
        QVERIFY(parts.last().id != parts.first().id);
        QCOMPARE(sent.at(0).parts.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestReminders)
#include "tst_reminders.moc"
