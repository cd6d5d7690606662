// Which session `qcode run --session ID` and `--continue` continue.

#include <QTest>

#include "RunSessionLookup.h"
#include "TempDatabase.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class RunSessionLookupTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sessionByIDIsFound();
    void unknownSessionIDIsAnErrorNamingIt();
    void continuePicksTheMostRecentlyUpdatedTopLevelSession();
    void continueSkipsChildSessions();
    void continueOutsideGitOnlyPicksSessionsOfTheSameFolder();
    void continueWithNothingToContinueIsAnError();

private:
    static Session sessionIn(const QString &projectID, const QString &directory, qint64 updated,
                             const QString &parentID = {});
};

Session RunSessionLookupTest::sessionIn(const QString &projectID, const QString &directory, qint64 updated,
                                        const QString &parentID)
{
    Session session = makeSession(projectID, parentID);
    session.directory = directory;
    session.time.updated = updated;
    return session;
}

void RunSessionLookupTest::sessionByIDIsFound()
{
    TempDatabase db;
    auto store = db.open();
    QVERIFY(store->upsertProject(makeProject()).ok());
    const Session session = makeSession();
    QVERIFY(store->upsertSession(session).ok());
    Result<Session> found = RunSessionLookup::byID(*store, session.id);
    QVERIFY2(found.ok(), qPrintable(found.errorMessage()));
    QCOMPARE(found->id, session.id);
}

void RunSessionLookupTest::unknownSessionIDIsAnErrorNamingIt()
{
    TempDatabase db;
    auto store = db.open();
    Result<Session> found = RunSessionLookup::byID(*store, u"ses_nothere"_s);
    QVERIFY(!found.ok());
    QVERIFY2(found.error().message.contains(u"ses_nothere"_s), qPrintable(found.error().message));
}

void RunSessionLookupTest::continuePicksTheMostRecentlyUpdatedTopLevelSession()
{
    TempDatabase db;
    auto store = db.open();
    QVERIFY(store->upsertProject(makeProject(u"abc123"_s, u"/repo"_s)).ok());
    const Session older = sessionIn(u"abc123"_s, u"/repo"_s, 1000);
    const Session touched = sessionIn(u"abc123"_s, u"/repo/sub"_s, 5000); // created earlier, updated later
    const Session newest = sessionIn(u"abc123"_s, u"/repo"_s, 3000);
    for (const Session &s : {older, touched, newest})
        QVERIFY(store->upsertSession(s).ok());
    Result<Session> found = RunSessionLookup::newest(*store, u"abc123"_s, u"/repo"_s);
    QVERIFY2(found.ok(), qPrintable(found.errorMessage()));
    // In a git project every folder of the worktree shares its sessions.
    QCOMPARE(found->id, touched.id);
}

void RunSessionLookupTest::continueSkipsChildSessions()
{
    TempDatabase db;
    auto store = db.open();
    QVERIFY(store->upsertProject(makeProject(u"abc123"_s, u"/repo"_s)).ok());
    const Session parent = sessionIn(u"abc123"_s, u"/repo"_s, 1000);
    const Session child = sessionIn(u"abc123"_s, u"/repo"_s, 9000, parent.id);
    QVERIFY(store->upsertSession(parent).ok());
    QVERIFY(store->upsertSession(child).ok());
    Result<Session> found = RunSessionLookup::newest(*store, u"abc123"_s, u"/repo"_s);
    QVERIFY(found.ok());
    QCOMPARE(found->id, parent.id);
}

void RunSessionLookupTest::continueOutsideGitOnlyPicksSessionsOfTheSameFolder()
{
    TempDatabase db;
    auto store = db.open();
    QVERIFY(store->upsertProject(makeProject(u"global"_s, u"/"_s)).ok());
    const Session mine = sessionIn(u"global"_s, u"/tmp/notes"_s, 1000);
    const Session elsewhere = sessionIn(u"global"_s, u"/tmp/other"_s, 9000);
    QVERIFY(store->upsertSession(mine).ok());
    QVERIFY(store->upsertSession(elsewhere).ok());
    Result<Session> found = RunSessionLookup::newest(*store, u"global"_s, u"/tmp/notes/"_s);
    QVERIFY2(found.ok(), qPrintable(found.errorMessage()));
    QCOMPARE(found->id, mine.id);
}

void RunSessionLookupTest::continueWithNothingToContinueIsAnError()
{
    TempDatabase db;
    auto store = db.open();
    QVERIFY(store->upsertProject(makeProject(u"global"_s, u"/"_s)).ok());
    QVERIFY(store->upsertSession(sessionIn(u"global"_s, u"/tmp/other"_s, 9000)).ok());
    Result<Session> found = RunSessionLookup::newest(*store, u"global"_s, u"/tmp/empty"_s);
    QVERIFY(!found.ok());
    QVERIFY2(found.error().message.contains(u"/tmp/empty"_s), qPrintable(found.error().message));
    QVERIFY(!RunSessionLookup::newest(*store, u"nosuchproject"_s, u"/x"_s).ok());
}

QTEST_GUILESS_MAIN(RunSessionLookupTest)
#include "tst_run_session_lookup.moc"
