// PermissionCenter: where "always" applies (this session, or the project,
// saved) and where it does not (another session, another project, a
// rule's deny), and what a reject does to the other questions waiting.

#include <QtTest>

#include <QCoro/QCoroTask>

#include <algorithm>
#include <memory>

#include "RecordingEventSink.h"
#include "TempDatabase.h"
#include "engine/session/loop/AbortSignal.h"
#include "engine/session/asks/PermissionCenter.h"
#include "model/Project.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

using Answer = std::shared_ptr<std::optional<PermissionAnswer>>;

PermissionRequest bashRequest(const QString &sessionID, const QString &command, const QString &always)
{
    PermissionRequest request;
    request.sessionID = sessionID;
    request.permission = u"bash"_s;
    request.patterns = {command};
    request.always = {always};
    return request;
}

PermissionRequest wholeLine(const QString &sessionID, const QString &line)
{
    PermissionRequest request = bashRequest(sessionID, line, line);
    request.judgedWhole = true;
    return request;
}

PermissionRuleset bashRules(PermissionAction star)
{
    return {PermissionRule{u"bash"_s, u"*"_s, star}, PermissionRule{u"bash"_s, u"echo *"_s, PermissionAction::Allow}};
}

const PermissionRuleset askForEverything{PermissionRule{u"*"_s, u"*"_s, PermissionAction::Ask}};

} // namespace

class PermissionCenterTest : public QObject
{
    Q_OBJECT

private:
    TempDatabase m_database;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<RecordingEventSink> m_sink;
    std::unique_ptr<PermissionCenter> m_center;
    std::unique_ptr<AbortSignal> m_abort;
    QList<Answer> m_asked; // by this test function

    Answer ask(const PermissionRequest &request, const QString &projectID,
               const PermissionRuleset &rules = askForEverything)
    {
        auto answer = std::make_shared<std::optional<PermissionAnswer>>();
        QCoro::connect(m_center->ask(request, rules, QPointer<AbortSignal>(m_abort.get()), projectID), this,
                       [answer](const PermissionAnswer &given) { *answer = given; });
        m_asked.append(answer);
        return answer;
    }

    QString lastAskedID() const { return m_sink->all<PermissionAsked>().constLast().request.id; }

private Q_SLOTS:
    void init()
    {
        m_abort = std::make_unique<AbortSignal>();
        m_sink = std::make_unique<RecordingEventSink>();
        m_store = m_database.open();
        // Approvals belong to a project the store knows.
        for (const QString &id : {u"prj_1"_s, u"prj_2"_s}) {
            Project project;
            project.id = id;
            project.worktree = u"/work/"_s + id;
            QVERIFY(m_store->upsertProject(project));
        }
        m_center = std::make_unique<PermissionCenter>(*m_sink, AskPolicy::Ask);
        m_center->setApprovalStore(m_store.get());
    }

    void cleanup()
    {
        // As the engine does before it goes: a stop answers what is still
        // asked, and the waiting coroutines end (their resumption is queued)
        // before the center goes.
        m_abort->abort();
        QTRY_VERIFY(std::all_of(m_asked.cbegin(), m_asked.cend(), [](const Answer &a) { return a->has_value(); }));
        m_asked.clear();
        m_center.reset();
        m_store.reset();
        m_abort.reset();
        m_sink.reset();
    }

    void alwaysForTheSessionCoversItButNoOtherSession()
    {
        Answer first = ask(bashRequest(u"ses_a"_s, u"git status"_s, u"git status *"_s), u"prj_1"_s);
        QVERIFY(m_center->reply(lastAskedID(), PermissionReply::Always));
        QTRY_VERIFY(first->has_value());
        QCOMPARE((*first)->reply, PermissionReply::Always);

        Answer again = ask(bashRequest(u"ses_a"_s, u"git status --short"_s, u"git status *"_s), u"prj_1"_s);
        QTRY_VERIFY(again->has_value());
        QCOMPARE((*again)->reply, PermissionReply::Once);
        QCOMPARE(m_sink->all<PermissionAsked>().size(), 1);

        Answer other = ask(bashRequest(u"ses_b"_s, u"git status"_s, u"git status *"_s), u"prj_1"_s);
        QCOMPARE(m_sink->all<PermissionAsked>().size(), 2);
        QVERIFY(!other->has_value());
        QVERIFY(m_center->projectApprovals(u"prj_1"_s).isEmpty());
        const Result<std::optional<QJsonArray>> saved = m_store->permission(u"prj_1"_s);
        QVERIFY(saved && !*saved);
    }

    void alwaysForTheProjectCoversItsSessionsIsSavedAndStaysInIt()
    {
        Answer first = ask(bashRequest(u"ses_a"_s, u"npm test"_s, u"npm test *"_s), u"prj_1"_s);
        QVERIFY(m_center->reply(lastAskedID(), PermissionReply::Always, {}, ApprovalScope::Project));
        QTRY_VERIFY(first->has_value());

        // Another session of the project: not asked.
        Answer sameProject = ask(bashRequest(u"ses_b"_s, u"npm test --watch"_s, u"npm test *"_s), u"prj_1"_s);
        QTRY_VERIFY(sameProject->has_value());
        QCOMPARE((*sameProject)->reply, PermissionReply::Once);
        QCOMPARE(m_sink->all<PermissionAsked>().size(), 1);

        // Another project: asked, never covered.
        Answer otherProject = ask(bashRequest(u"ses_c"_s, u"npm test"_s, u"npm test *"_s), u"prj_2"_s);
        QCOMPARE(m_sink->all<PermissionAsked>().size(), 2);
        QVERIFY(!otherProject->has_value());

        // Saved: a center started later (qcode restarted) knows it.
        const Result<std::optional<QJsonArray>> saved = m_store->permission(u"prj_1"_s);
        QVERIFY(saved && *saved);
        const PermissionRuleset expected{PermissionRule{u"bash"_s, u"npm test *"_s, PermissionAction::Allow}};
        QCOMPARE(rulesetFromJson(**saved), expected);
        PermissionCenter restarted(*m_sink, AskPolicy::Ask);
        restarted.setApprovalStore(m_store.get());
        auto later = std::make_shared<std::optional<PermissionAnswer>>();
        QCoro::connect(restarted.ask(bashRequest(u"ses_d"_s, u"npm test"_s, u"npm test *"_s), askForEverything,
                                     QPointer<AbortSignal>(m_abort.get()), u"prj_1"_s),
                       this, [later](const PermissionAnswer &given) { *later = given; });
        QTRY_VERIFY(later->has_value());
        QCOMPARE((*later)->reply, PermissionReply::Once);
    }

    void anAlwaysForTheProjectAnswersThePendingQuestionsOfItsOtherSessions()
    {
        Answer a = ask(bashRequest(u"ses_a"_s, u"make"_s, u"make *"_s), u"prj_1"_s);
        const QString first = lastAskedID();
        Answer b = ask(bashRequest(u"ses_b"_s, u"make all"_s, u"make *"_s), u"prj_1"_s);
        Answer elsewhere = ask(bashRequest(u"ses_c"_s, u"make all"_s, u"make *"_s), u"prj_2"_s);
        QVERIFY(m_center->reply(first, PermissionReply::Always, {}, ApprovalScope::Project));
        QTRY_VERIFY(a->has_value() && b->has_value());
        QCOMPARE((*b)->reply, PermissionReply::Always);
        QVERIFY(!elsewhere->has_value());
        QCOMPARE(m_center->pending().size(), 1);
    }

    void alwaysNeverBeatsARuleThatDenies()
    {
        const PermissionRuleset rules{PermissionRule{u"bash"_s, u"*"_s, PermissionAction::Ask},
                                      PermissionRule{u"bash"_s, u"git push *"_s, PermissionAction::Deny}};
        Answer first = ask(bashRequest(u"ses_a"_s, u"git log"_s, u"git *"_s), u"prj_1"_s, rules);
        QVERIFY(m_center->reply(lastAskedID(), PermissionReply::Always, {}, ApprovalScope::Project));
        QTRY_VERIFY(first->has_value());

        Answer push = ask(bashRequest(u"ses_a"_s, u"git push origin"_s, u"git push *"_s), u"prj_1"_s, rules);
        QTRY_VERIFY(push->has_value());
        QCOMPARE((*push)->reply, PermissionReply::Reject);
        QVERIFY((*push)->byRule);
        QCOMPARE(m_sink->all<PermissionAsked>().size(), 1);
    }

    // A line judged whole is decided by the rule for "*" alone: "echo *"
    // matches its text, and must not allow it.
    void aLineJudgedWholeIsDeniedByTheStarRuleWhateverElseMatches()
    {
        Answer answer = ask(wholeLine(u"ses_a"_s, u"echo $(eval x)"_s), u"prj_1"_s, bashRules(PermissionAction::Deny));
        QTRY_VERIFY(answer->has_value());
        QCOMPARE((*answer)->reply, PermissionReply::Reject);
        QVERIFY((*answer)->byRule);
        QVERIFY(m_sink->all<PermissionAsked>().isEmpty());
    }

    void aLineJudgedWholeIsAskedWhenTheStarRuleAsks()
    {
        Answer answer = ask(wholeLine(u"ses_a"_s, u"echo $(eval x)"_s), u"prj_1"_s, bashRules(PermissionAction::Ask));
        QTRY_COMPARE(m_sink->all<PermissionAsked>().size(), 1);
        QVERIFY(!answer->has_value());
    }

    void aLineJudgedWholeIsAllowedWhenTheStarRuleAllows()
    {
        const PermissionRuleset rules{PermissionRule{u"bash"_s, u"*"_s, PermissionAction::Allow},
                                      PermissionRule{u"bash"_s, u"echo *"_s, PermissionAction::Deny}};
        Answer answer = ask(wholeLine(u"ses_a"_s, u"echo $(eval x)"_s), u"prj_1"_s, rules);
        QTRY_VERIFY(answer->has_value());
        QCOMPARE((*answer)->reply, PermissionReply::Once);
        // Without a bash rule for "*" the default asks; a bare action counts.
        Answer noStar = ask(wholeLine(u"ses_a"_s, u"eval x"_s), u"prj_1"_s,
                            {PermissionRule{u"bash"_s, u"eval *"_s, PermissionAction::Allow}});
        QTRY_COMPARE(m_sink->all<PermissionAsked>().size(), 1);
        Answer bare = ask(wholeLine(u"ses_a"_s, u"eval y"_s), u"prj_1"_s,
                          {PermissionRule{u"*"_s, u"*"_s, PermissionAction::Deny}});
        QTRY_VERIFY(bare->has_value());
        QCOMPARE((*bare)->reply, PermissionReply::Reject);
    }

    void anAlwaysForALineJudgedWholeCoversThatLineOnly()
    {
        Answer first = ask(wholeLine(u"ses_a"_s, u"eval x"_s), u"prj_1"_s);
        QVERIFY(m_center->reply(lastAskedID(), PermissionReply::Always));
        QTRY_VERIFY(first->has_value());
        Answer same = ask(wholeLine(u"ses_a"_s, u"eval x"_s), u"prj_1"_s);
        QTRY_VERIFY(same->has_value());
        QCOMPARE((*same)->reply, PermissionReply::Once);
        // An approval of "echo *" covers no line judged whole.
        Answer echo = ask(bashRequest(u"ses_a"_s, u"echo a"_s, u"echo *"_s), u"prj_1"_s);
        QVERIFY(m_center->reply(lastAskedID(), PermissionReply::Always));
        QTRY_VERIFY(echo->has_value());
        Answer other = ask(wholeLine(u"ses_a"_s, u"echo $(eval y)"_s), u"prj_1"_s);
        QTRY_COMPARE(m_sink->all<PermissionAsked>().size(), 3);
        QVERIFY(!other->has_value());
    }

    void aRejectAnswersTheSessionsOtherQuestionsToo()
    {
        Answer a = ask(bashRequest(u"ses_a"_s, u"rm -rf build"_s, u"rm *"_s), u"prj_1"_s);
        const QString first = lastAskedID();
        Answer b = ask(bashRequest(u"ses_a"_s, u"ls"_s, u"ls *"_s), u"prj_1"_s);
        Answer otherSession = ask(bashRequest(u"ses_b"_s, u"ls"_s, u"ls *"_s), u"prj_1"_s);
        QVERIFY(m_center->reply(first, PermissionReply::RejectWithMessage, u"use make clean"_s));
        QTRY_VERIFY(a->has_value() && b->has_value());
        QCOMPARE((*a)->reply, PermissionReply::RejectWithMessage);
        QCOMPARE((*a)->message, u"use make clean"_s);
        QCOMPARE((*b)->reply, PermissionReply::Reject);
        QVERIFY(!otherSession->has_value());
        // The second question waited its turn behind the first: it never
        // reached the bus, so nothing says it was answered either.
        QCOMPARE(m_sink->all<PermissionReplied>().size(), 1);
        QCOMPARE(m_sink->all<PermissionReplied>().first().requestID, first);
        QCOMPARE(m_sink->all<PermissionAsked>().size(), 2); // ses_a's first and ses_b's
    }

    // The tools of one step run at once and may ask together; the window
    // shows whatever is published, so a session's questions come one by one.
    void aSessionsQuestionsAreShownOneAtATimeInTheOrderAsked()
    {
        // (Other tests approve make, npm and cargo for prj_1 in the shared
        // database; these commands are asked about.)
        Answer first = ask(bashRequest(u"ses_a"_s, u"ninja one"_s, u"ninja *"_s), u"prj_1"_s);
        Answer second = ask(bashRequest(u"ses_a"_s, u"rm two"_s, u"rm *"_s), u"prj_1"_s);
        Answer third = ask(bashRequest(u"ses_a"_s, u"cp three"_s, u"cp *"_s), u"prj_1"_s);
        Answer otherSession = ask(bashRequest(u"ses_b"_s, u"ls"_s, u"ls *"_s), u"prj_1"_s);
        const auto askedCommands = [this] {
            QStringList commands;
            for (const PermissionAsked &asked : m_sink->all<PermissionAsked>())
                commands.append(asked.request.patterns.join(u' '));
            return commands;
        };
        // Another session does not wait for this one.
        QCOMPARE(askedCommands(), (QStringList{u"ninja one"_s, u"ls"_s}));
        QCOMPARE(m_center->pending().size(), 4);
        // A question not shown yet cannot be answered by its id.
        QVERIFY(!m_center->reply(m_center->pending().at(1).id, PermissionReply::Once));

        QVERIFY(m_center->reply(m_sink->all<PermissionAsked>().first().request.id, PermissionReply::Once));
        QTRY_COMPARE(askedCommands(), (QStringList{u"ninja one"_s, u"ls"_s, u"rm two"_s}));
        QVERIFY(first->has_value());
        QVERIFY(!second->has_value() && !third->has_value());

        QVERIFY(m_center->reply(lastAskedID(), PermissionReply::Once));
        QTRY_COMPARE(askedCommands(), (QStringList{u"ninja one"_s, u"ls"_s, u"rm two"_s, u"cp three"_s}));
        QVERIFY(m_center->reply(lastAskedID(), PermissionReply::Once));
        QTRY_VERIFY(second->has_value() && third->has_value());
        QCOMPARE((*third)->reply, PermissionReply::Once);
        QVERIFY(!otherSession->has_value());
        // Each shown question was answered before the next one came.
        QStringList order;
        for (const SessionEvent &event : m_sink->events()) {
            if (const auto *asked = std::get_if<PermissionAsked>(&event); asked && asked->request.sessionID == u"ses_a"_s)
                order.append(u"asked"_s);
            else if (const auto *replied = std::get_if<PermissionReplied>(&event); replied && replied->sessionID == u"ses_a"_s)
                order.append(u"replied"_s);
        }
        QCOMPARE(order, (QStringList{u"asked"_s, u"replied"_s, u"asked"_s, u"replied"_s, u"asked"_s, u"replied"_s}));
    }

    void anAlwaysAnswersTheQuestionsWaitingBehindItThatItCovers()
    {
        Answer first = ask(bashRequest(u"ses_a"_s, u"ninja one"_s, u"ninja *"_s), u"prj_1"_s);
        Answer covered = ask(bashRequest(u"ses_a"_s, u"ninja two"_s, u"ninja *"_s), u"prj_1"_s);
        Answer other = ask(bashRequest(u"ses_a"_s, u"rm three"_s, u"rm *"_s), u"prj_1"_s);
        QVERIFY(m_center->reply(lastAskedID(), PermissionReply::Always));
        QTRY_VERIFY(first->has_value() && covered->has_value());
        QCOMPARE((*covered)->reply, PermissionReply::Always);
        // The one it does not cover is shown next, and only it.
        QTRY_COMPARE(m_sink->all<PermissionAsked>().size(), 2);
        QCOMPARE(m_sink->all<PermissionAsked>().last().request.patterns, QStringList{u"rm three"_s});
        QVERIFY(!other->has_value());
    }

    void anAbortAnswersTheQuestionsWaitingTheirTurnWithoutShowingThem()
    {
        Answer first = ask(bashRequest(u"ses_a"_s, u"ninja one"_s, u"ninja *"_s), u"prj_1"_s);
        Answer second = ask(bashRequest(u"ses_a"_s, u"rm two"_s, u"rm *"_s), u"prj_1"_s);
        m_abort->abort();
        QTRY_VERIFY(first->has_value() && second->has_value());
        QCOMPARE((*second)->reply, PermissionReply::Reject);
        QVERIFY(m_center->pending().isEmpty());
        // What was posted meanwhile has run: nothing more is shown.
        QCoreApplication::processEvents();
        QCOMPARE(m_sink->all<PermissionReplied>().size(), 1);
        QCOMPARE(m_sink->all<PermissionAsked>().size(), 1);
    }

    void settingsCanTakeAProjectApprovalBack()
    {
        Answer first = ask(bashRequest(u"ses_a"_s, u"cargo build"_s, u"cargo build *"_s), u"prj_1"_s);
        QSignalSpy changed(m_center.get(), &PermissionCenter::projectApprovalsChanged);
        QVERIFY(m_center->reply(lastAskedID(), PermissionReply::Always, {}, ApprovalScope::Project));
        QCOMPARE(changed.size(), 1);
        QVERIFY(m_center->setProjectApprovals(u"prj_1"_s, {}));
        QCOMPARE(changed.size(), 2);
        QVERIFY(m_center->projectApprovals(u"prj_1"_s).isEmpty());

        Answer again = ask(bashRequest(u"ses_a"_s, u"cargo build"_s, u"cargo build *"_s), u"prj_1"_s);
        QCOMPARE(m_sink->all<PermissionAsked>().size(), 2);
        QVERIFY(!again->has_value());
    }

    void savedRulesOtherThanAllowAreNotApprovals()
    {
        // A damaged or hand-edited table must not turn into permissions.
        QVERIFY(m_store->setPermission(u"prj_1"_s, QJsonArray{QJsonObject{{u"permission"_s, u"bash"_s},
                                                                          {u"pattern"_s, u"*"_s},
                                                                          {u"action"_s, u"deny"_s}},
                                                              QJsonObject{{u"permission"_s, u"bash"_s}},
                                                              u"not a rule"_s}));
        QVERIFY(m_center->projectApprovals(u"prj_1"_s).isEmpty());
        Answer asked = ask(bashRequest(u"ses_a"_s, u"ls"_s, u"ls *"_s), u"prj_1"_s);
        QCOMPARE(m_sink->all<PermissionAsked>().size(), 1);
        QVERIFY(!asked->has_value());
    }

    void abortRejectsWhatIsPending()
    {
        Answer pending = ask(bashRequest(u"ses_a"_s, u"sleep 100"_s, u"sleep *"_s), u"prj_1"_s);
        m_abort->abort();
        QTRY_VERIFY(pending->has_value());
        QCOMPARE((*pending)->reply, PermissionReply::Reject);
        QVERIFY(m_center->pending().isEmpty());
    }
};

QTEST_GUILESS_MAIN(PermissionCenterTest)
#include "tst_permission_center.moc"
