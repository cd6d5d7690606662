#include <QDateTime>
#include <QTest>
#include <QTreeView>

#include "TempDatabase.h"
#include "model/Identifier.h"
#include "model/SessionTreeModel.h"
#include "ui/window/RelativeTime.h"
#include "ui/window/SessionItemDelegate.h"
#include "ui/window/SessionSidebar.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// Noon, so "an hour ago" and "an hour later" stay on the same day.
const QDateTime Now(QDate(2026, 3, 18), QTime(12, 0));

Session sessionAt(const QString &title, const QDateTime &created)
{
    Session session = makeSession(u"global"_s);
    session.title = title;
    session.time.created = session.time.updated = created.toMSecsSinceEpoch();
    return session;
}

} // namespace

// The session list says when each session began, in words, grouped by day,
// and tells sessions with the same title apart.
class SessionListTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void timesAreSaidAsPeopleSayThem()
    {
        const qint64 now = Now.toMSecsSinceEpoch();
        QCOMPARE(RelativeTime::describe(now - 20 * 1000, now), u"just now"_s);
        QCOMPARE(RelativeTime::describe(now - 2 * 60 * 1000, now), u"2 min ago"_s);
        QCOMPARE(RelativeTime::describe(now - 3 * 3600 * 1000, now), u"3 h ago"_s);
        QCOMPARE(RelativeTime::describe(Now.addDays(-1).toMSecsSinceEpoch(), now), u"yesterday"_s);
        QCOMPARE(RelativeTime::describe(Now.addDays(-4).toMSecsSinceEpoch(), now), u"4 days ago"_s);
        QCOMPARE(RelativeTime::describe(Now.addDays(-30).toMSecsSinceEpoch(), now),
                 QLocale().toString(Now.addDays(-30).date(), QLocale::ShortFormat));
        QCOMPARE(RelativeTime::group(now - 60 * 1000, now), RelativeTime::Group::Today);
        QCOMPARE(RelativeTime::group(Now.addDays(-1).toMSecsSinceEpoch(), now), RelativeTime::Group::Yesterday);
        QCOMPARE(RelativeTime::group(Now.addDays(-9).toMSecsSinceEpoch(), now), RelativeTime::Group::Earlier);
    }

    void theListIsGroupedTodayYesterdayEarlierWithATimeOnEachRow()
    {
        SessionTreeModel model;
        // Made oldest first: the list orders by id, and ids descend with time.
        Session older = sessionAt(u"Old idea"_s, Now.addDays(-10));
        Session yesterday = sessionAt(u"Plan the release"_s, Now.addDays(-1));
        Session todayToo = sessionAt(u"Write the docs"_s, Now.addSecs(-3 * 3600));
        Session today = sessionAt(u"Fix the build"_s, Now.addSecs(-120));
        model.setSessions(u"global"_s, {today, todayToo, yesterday, older});
        SessionSidebar sidebar(&model);
        SessionItemDelegate *delegate = sidebar.delegate();
        delegate->setClock([] { return Now.toMSecsSinceEpoch(); });
        QAbstractItemModel *shown = sidebar.view()->model();
        QCOMPARE(shown->rowCount(), 4);
        const auto row = [shown](int r) { return shown->index(r, 0); };
        QCOMPARE(row(0).data().toString(), u"Fix the build"_s);

        QCOMPARE(delegate->groupStartingAt(row(0)), std::optional(RelativeTime::Group::Today));
        QCOMPARE(delegate->groupStartingAt(row(1)), std::nullopt);
        QCOMPARE(delegate->groupStartingAt(row(2)), std::optional(RelativeTime::Group::Yesterday));
        QCOMPARE(delegate->groupStartingAt(row(3)), std::optional(RelativeTime::Group::Earlier));
        QCOMPARE(RelativeTime::groupTitle(RelativeTime::Group::Today), u"Today"_s);
        QCOMPARE(delegate->timeText(row(0)), u"2 min ago"_s);
        QCOMPARE(delegate->timeText(row(1)), u"3 h ago"_s);
        QCOMPARE(delegate->timeText(row(2)), u"yesterday"_s);

        // A heading makes its row taller than the rows without one.
        QStyleOptionViewItem option;
        option.initFrom(sidebar.view());
        QVERIFY(delegate->sizeHint(option, row(0)).height() > delegate->sizeHint(option, row(1)).height());
    }

    void sessionsWithTheSameTitleAreToldApart()
    {
        SessionTreeModel model;
        Session other = sessionAt(u"Something else"_s, Now.addSecs(-9000));
        Session second = sessionAt(u"Fix the build"_s, Now.addSecs(-7200));
        Session first = sessionAt(u"Fix the build"_s, Now.addSecs(-600));
        model.setSessions(u"global"_s, {first, second, other});
        SessionSidebar sidebar(&model);
        SessionItemDelegate *delegate = sidebar.delegate();
        delegate->setClock([] { return Now.toMSecsSinceEpoch(); });
        QAbstractItemModel *shown = sidebar.view()->model();
        const QString a = delegate->titleText(shown->index(0, 0));
        const QString b = delegate->titleText(shown->index(1, 0));
        QVERIFY(a != b);
        QVERIFY(a.startsWith(u"Fix the build · "_s));
        QVERIFY(a.contains(QLocale().toString(Now.addSecs(-600).time(), QLocale::ShortFormat)));
        QCOMPARE(delegate->titleText(shown->index(2, 0)), u"Something else"_s);
    }
};

QTEST_MAIN(SessionListTest)
#include "tst_session_list.moc"
