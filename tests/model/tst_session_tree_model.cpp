#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include "TempDatabase.h"
#include "model/SessionTreeModel.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class SessionTreeModelTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsRootSessionsNewestFirst();
    void childSessionsAreNestedUnderTheirParentAtAnyDepth();
    void aNewSessionIsInsertedWithoutAReset();
    void aNewChildGoesUnderItsParent();
    void aChildThatCameBeforeItsParentMovesBelowItLater();
    void anUpdatedSessionChangesItsRowInPlace();
    void deletingASessionRemovesItsWholeSubtree();
    void sessionsOfOtherProjectsAreIgnored();
    void busyAndWaitingAreShownPerSession();
    void rootAndDescendantsAreFound();
    void searchKeepsTheParentsOfMatchingChildren();
    void editingATitleRequestsARenameAndChangesNothingYet();
};

namespace {

QStringList idsUnder(const QAbstractItemModel &model, const QModelIndex &parent = {})
{
    QStringList ids;
    for (int row = 0; row < model.rowCount(parent); ++row)
        ids.append(model.index(row, 0, parent).data(SessionTreeModel::IdRole).toString());
    return ids;
}

} // namespace

void SessionTreeModelTest::listsRootSessionsNewestFirst()
{
    const Session a = makeSession(), b = makeSession(), c = makeSession();
    SessionTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {a, c, b});
    QCOMPARE(idsUnder(model), (QStringList{c.id, b.id, a.id}));
    QCOMPARE(model.sessionCount(), 3);
}

void SessionTreeModelTest::childSessionsAreNestedUnderTheirParentAtAnyDepth()
{
    const Session parent = makeSession();
    const Session child = makeSession(u"global"_s, parent.id);
    const Session grandchild = makeSession(u"global"_s, child.id);
    const Session other = makeSession();
    SessionTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Children listed before their parents must still nest.
    model.setSessions(u"global"_s, {grandchild, child, other, parent});
    QCOMPARE(idsUnder(model), (QStringList{other.id, parent.id}));
    const QModelIndex parentIndex = model.indexOf(parent.id);
    QCOMPARE(idsUnder(model, parentIndex), QStringList{child.id});
    QCOMPARE(idsUnder(model, model.indexOf(child.id)), QStringList{grandchild.id});
    QCOMPARE(model.indexOf(grandchild.id).parent(), model.indexOf(child.id));
    QCOMPARE(model.indexOf(grandchild.id).data(SessionTreeModel::ParentIdRole).toString(), child.id);
}

void SessionTreeModelTest::aNewSessionIsInsertedWithoutAReset()
{
    const Session a = makeSession(), b = makeSession();
    SessionTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {a, b});
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    const Session newest = makeSession();
    model.upsert(newest);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), 0);
    QCOMPARE(idsUnder(model), (QStringList{newest.id, b.id, a.id}));
}

void SessionTreeModelTest::aNewChildGoesUnderItsParent()
{
    const Session parent = makeSession();
    SessionTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {parent});
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    const Session child = makeSession(u"global"_s, parent.id);
    model.upsert(child);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.first().at(0).toModelIndex(), model.indexOf(parent.id));
    QCOMPARE(idsUnder(model), QStringList{parent.id});
    QCOMPARE(idsUnder(model, model.indexOf(parent.id)), QStringList{child.id});
}

void SessionTreeModelTest::aChildThatCameBeforeItsParentMovesBelowItLater()
{
    Session parent = makeSession();
    const Session child = makeSession(u"global"_s, parent.id);
    SessionTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {});
    model.upsert(child);
    QCOMPARE(idsUnder(model), QStringList{child.id});
    model.upsert(parent);
    QCOMPARE(idsUnder(model), QStringList{parent.id});
    QCOMPARE(idsUnder(model, model.indexOf(parent.id)), QStringList{child.id});
}

void SessionTreeModelTest::anUpdatedSessionChangesItsRowInPlace()
{
    Session a = makeSession();
    const Session b = makeSession();
    SessionTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {a, b});
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    a.title = u"Fix the parser"_s;
    model.upsert(a);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().row(), 1);
    QCOMPARE(model.index(1, 0).data().toString(), u"Fix the parser"_s);
}

void SessionTreeModelTest::deletingASessionRemovesItsWholeSubtree()
{
    const Session a = makeSession(), b = makeSession();
    const Session child = makeSession(u"global"_s, b.id);
    const Session grandchild = makeSession(u"global"_s, child.id);
    SessionTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSessions(u"global"_s, {a, b, child, grandchild});
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    model.remove(b.id);
    model.remove(u"ses_unknown"_s);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(idsUnder(model), QStringList{a.id});
    QCOMPARE(model.sessionCount(), 1);
    QVERIFY(!model.indexOf(grandchild.id).isValid());
    QVERIFY(!model.session(child.id));
}

void SessionTreeModelTest::sessionsOfOtherProjectsAreIgnored()
{
    SessionTreeModel model;
    model.setSessions(u"global"_s, {});
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.upsert(makeSession(u"elsewhere"_s));
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(model.rowCount(), 0);
}

void SessionTreeModelTest::busyAndWaitingAreShownPerSession()
{
    const Session a = makeSession(), b = makeSession();
    SessionTreeModel model;
    model.setSessions(u"global"_s, {a, b});
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setBusy(a.id, true);
    model.setBusy(a.id, true); // no change, no signal
    model.setWaiting({b.id});
    QCOMPARE(changed.count(), 2);
    QVERIFY(model.indexOf(a.id).data(SessionTreeModel::BusyRole).toBool());
    QVERIFY(!model.indexOf(b.id).data(SessionTreeModel::BusyRole).toBool());
    QVERIFY(model.indexOf(b.id).data(SessionTreeModel::WaitingRole).toBool());
    QVERIFY(model.indexOf(b.id).data(Qt::ToolTipRole).toString().contains("Waiting for your answer"_L1));
    model.setWaiting({});
    QVERIFY(!model.indexOf(b.id).data(SessionTreeModel::WaitingRole).toBool());
}

void SessionTreeModelTest::rootAndDescendantsAreFound()
{
    const Session parent = makeSession();
    const Session child = makeSession(u"global"_s, parent.id);
    const Session grandchild = makeSession(u"global"_s, child.id);
    SessionTreeModel model;
    model.setSessions(u"global"_s, {parent, child, grandchild});
    QCOMPARE(model.rootOf(grandchild.id), parent.id);
    QCOMPARE(model.rootOf(parent.id), parent.id);
    QCOMPARE(model.descendants(parent.id), (QSet<QString>{child.id, grandchild.id}));
    QVERIFY(model.descendants(grandchild.id).isEmpty());
}

void SessionTreeModelTest::searchKeepsTheParentsOfMatchingChildren()
{
    Session parent = makeSession();
    parent.title = u"Refactor the store"_s;
    Session child = makeSession(u"global"_s, parent.id);
    child.title = u"Find the parser tests (@explore subagent)"_s;
    Session other = makeSession();
    other.title = u"Write docs"_s;
    SessionTreeModel model;
    model.setSessions(u"global"_s, {parent, child, other});
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setRecursiveFilteringEnabled(true);
    proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy.setFilterFixedString(u"PARSER"_s);
    QCOMPARE(idsUnder(proxy), QStringList{parent.id});
    QCOMPARE(idsUnder(proxy, proxy.index(0, 0)), QStringList{child.id});
}

void SessionTreeModelTest::editingATitleRequestsARenameAndChangesNothingYet()
{
    Session a = makeSession();
    a.title = u"Old"_s;
    SessionTreeModel model;
    model.setSessions(u"global"_s, {a});
    QSignalSpy requested(&model, &SessionTreeModel::renameRequested);
    const QModelIndex index = model.indexOf(a.id);
    QVERIFY(model.flags(index).testFlag(Qt::ItemIsEditable));
    QVERIFY(model.setData(index, u"  New   title "_s));
    QVERIFY(!model.setData(index, u"   "_s)); // an empty title is no title
    QVERIFY(!model.setData(index, u"Old"_s));
    QCOMPARE(requested.count(), 1);
    QCOMPARE(requested.first().at(0).toString(), a.id);
    QCOMPARE(requested.first().at(1).toString(), u"New title"_s);
    QCOMPARE(index.data().toString(), u"Old"_s);
}

QTEST_GUILESS_MAIN(SessionTreeModelTest)
#include "tst_session_tree_model.moc"
