#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "model/SessionSearch.h"
#include "model/Store.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionSidebar.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

// The sidebar's search finds sessions by title and by what was said in
// them, says when nothing matches, clears on Esc, and keeps the open
// session highlighted.
class SessionSearchTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(u"qcode-tests"_s);
        QSettings().clear();
    }

    void theDatabaseSearchFindsSessionsByTheirMessagesText()
    {
        EngineHarness h;
        const QString beta = stored(h, u"Beta"_s, u"Nothing to see here"_s);
        const QString alpha = stored(h, u"Alpha"_s, u"Where is the Flux_Capacitor 100% defined?"_s);
        const auto search = [&](const QString &text) {
            return SessionSearch::sessionsContaining(h.store().path(), u"global"_s, text);
        };
        QCOMPARE(*search(u"flux_capacitor"_s), QStringList{alpha});
        QCOMPARE(*search(u"100%"_s), QStringList{alpha});
        QVERIFY(search(u"_c"_s)->contains(alpha));
        QVERIFY(search(u"zzz"_s)->isEmpty());
        QVERIFY(search(u"%"_s)->contains(alpha) && !search(u"%"_s)->contains(beta));
        QVERIFY(search(u"   "_s)->isEmpty());
        QVERIFY(SessionSearch::sessionsContaining(h.store().path(), u"another-project"_s, u"flux"_s)->isEmpty());
    }

    void searchingFindsByMessageTextSaysWhenNothingMatchesAndEscClears()
    {
        EngineHarness::Setup setup;
        setup.ownThread = true;
        EngineHarness h(setup);
        const QString beta = stored(h, u"Beta"_s, u"Nothing to see here"_s);
        const QString alpha = stored(h, u"Alpha"_s, u"Where is the flux capacitor defined?"_s);
        MainWindow window(&h.store(), &h.engine());
        QVERIFY(showWithProject(window, h.projectDirectory()));
        QCOMPARE(window.controller()->currentSession(), alpha);
        SessionSidebar *sidebar = window.sidebar();
        QTreeView *list = sidebar->view();
        QCOMPARE(list->model()->rowCount(), 2);

        QLineEdit *search = sidebar->searchField();
        search->setFocus();
        QTest::keyClicks(search, u"capacitor"_s);
        // Not in a title: found in the messages, once typing pauses.
        QTRY_COMPARE_WITH_TIMEOUT(list->model()->rowCount(), 1, 5000);
        QCOMPARE(list->model()->index(0, 0).data(SessionTreeModel::IdRole).toString(), alpha);
        QCOMPARE(list->currentIndex().data(SessionTreeModel::IdRole).toString(), alpha);
        QVERIFY(!sidebar->noMatchLabel()->isVisible());

        search->clear();
        QTest::keyClicks(search, u"zzz nothing"_s);
        QCOMPARE(list->model()->rowCount(), 0);
        QVERIFY(sidebar->noMatchLabel()->isVisible());
        QCOMPARE(sidebar->noMatchLabel()->text(), u"No sessions match"_s);

        QTest::keyClick(search, Qt::Key_Escape);
        QVERIFY(search->text().isEmpty());
        QCOMPARE(list->model()->rowCount(), 2);
        QVERIFY(!sidebar->noMatchLabel()->isVisible());
        QCOMPARE(list->currentIndex().data(SessionTreeModel::IdRole).toString(), alpha);
        // A title still matches by itself.
        QTest::keyClicks(search, u"bet"_s);
        QCOMPARE(list->model()->rowCount(), 1);
        QCOMPARE(list->model()->index(0, 0).data(SessionTreeModel::IdRole).toString(), beta);
    }

private:
    static QString stored(EngineHarness &h, const QString &title, const QString &text)
    {
        if (!h.store().upsertProject(makeProject(u"global"_s, u"/"_s)))
            return {};
        Session session = makeSession(u"global"_s);
        session.title = title;
        session.directory = h.projectDirectory();
        if (!h.store().upsertSession(session))
            return {};
        const Message user = makeUserMessage(session.id);
        if (!h.store().updateMessage(user) || !h.store().updatePart(makeTextPart(session.id, user.id(), text)))
            return {};
        return session.id;
    }
};

QTEST_MAIN(SessionSearchTest)
#include "tst_session_search.moc"
