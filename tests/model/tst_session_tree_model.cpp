#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "TempDatabase.h"
#include "model/SessionListModel.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class SessionListModelTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsSessionsNewestFirst();
    void aNewSessionIsInsertedAtTheTopWithoutAReset();
    void anUpdatedSessionChangesItsRowInPlace();
    void aDeletedSessionRemovesOnlyItsRow();
    void sessionsOfOtherProjectsAreIgnored();
    void exposesTheSessionThroughItsRoles();
};

namespace {

QStringList idsOf(const SessionListModel &model)
{
    QStringList ids;
    for (int row = 0; row < model.rowCount(); ++row)
        ids.append(model.index(row).data(SessionListModel::IdRole).toString());
    return ids;
}

} // namespace

void SessionListModelTest::listsSessionsNewestFirst()
{
    const Session a = makeSession(), b = makeSession(), c = makeSession();
    SessionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {a, c, b});
    QCOMPARE(idsOf(model), (QStringList{c.id, b.id, a.id}));
}

void SessionListModelTest::aNewSessionIsInsertedAtTheTopWithoutAReset()
{
    const Session a = makeSession(), b = makeSession();
    SessionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {a, b});
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    const Session newest = makeSession();
    model.upsert(newest);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), 0);
    QCOMPARE(idsOf(model), (QStringList{newest.id, b.id, a.id}));
}

void SessionListModelTest::anUpdatedSessionChangesItsRowInPlace()
{
    Session a = makeSession();
    const Session b = makeSession();
    SessionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {a, b});
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    a.title = u"Fix the parser"_s;
    model.upsert(a);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().row(), 1);
    QCOMPARE(model.index(1).data().toString(), u"Fix the parser"_s);
}

void SessionListModelTest::aDeletedSessionRemovesOnlyItsRow()
{
    const Session a = makeSession(), b = makeSession(), c = makeSession();
    SessionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {a, b, c});
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.remove(b.id);
    model.remove(u"ses_unknown"_s);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.first().at(1).toInt(), 1);
    QCOMPARE(idsOf(model), (QStringList{c.id, a.id}));
}

void SessionListModelTest::sessionsOfOtherProjectsAreIgnored()
{
    SessionListModel model;
    model.setSessions(u"global"_s, {});
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.upsert(makeSession(u"elsewhere"_s));
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(model.rowCount(), 0);
}

void SessionListModelTest::exposesTheSessionThroughItsRoles()
{
    const Session parent = makeSession();
    const Session child = makeSession(u"global"_s, parent.id);
    SessionListModel model;
    model.setSessions(u"global"_s, {parent, child});
    const QModelIndex childIndex = model.index(model.rowOf(child.id));
    QCOMPARE(childIndex.data(SessionListModel::ParentIdRole).toString(), parent.id);
    QCOMPARE(childIndex.data(SessionListModel::TitleRole).toString(), child.title);
    QCOMPARE(childIndex.data(SessionListModel::SessionRole).value<Session>().id, child.id);
    QCOMPARE(model.roleNames().value(SessionListModel::IdRole), QByteArray("sessionId"));
}

QTEST_GUILESS_MAIN(SessionListModelTest)
#include "tst_session_list_model.moc"
