#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include "ui/prompt/PromptHistory.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class PromptHistoryTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void upWalksBackAndDownBringsTheDraftBack();
    void stopsAtTheOldestPrompt();
    void downDoesNothingUnlessWalking();
    void anEmptyHistoryRecallsNothing();
    void aRepeatOfTheNewestPromptIsKeptOnce();
    void blankPromptsAreNotKept();
    void keepsAtMostAHundredPrompts();
    void survivesARestart();
    void eachProjectHasItsOwnHistory();
    void addingEndsTheWalk();
};

void PromptHistoryTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
}

void PromptHistoryTest::init()
{
    QSettings().clear();
}

void PromptHistoryTest::upWalksBackAndDownBringsTheDraftBack()
{
    PromptHistory history;
    history.setProject(u"/p"_s);
    history.add(u"first"_s);
    history.add(u"second"_s);
    QCOMPARE(history.previous(u"draft"_s), u"second"_s);
    QCOMPARE(history.previous(u"edited second"_s), u"first"_s);
    QCOMPARE(history.next(), u"second"_s);
    QCOMPARE(history.next(), u"draft"_s);
    QVERIFY(!history.isWalking());
    // The edit of a recalled prompt changed nothing.
    QCOMPARE(history.entries(), (QStringList{u"first"_s, u"second"_s}));
}

void PromptHistoryTest::stopsAtTheOldestPrompt()
{
    PromptHistory history;
    history.setProject(u"/p"_s);
    history.add(u"only"_s);
    QCOMPARE(history.previous(QString()), u"only"_s);
    QVERIFY(!history.previous(u"only"_s));
    QVERIFY(history.isWalking());
}

void PromptHistoryTest::downDoesNothingUnlessWalking()
{
    PromptHistory history;
    history.setProject(u"/p"_s);
    history.add(u"one"_s);
    QVERIFY(!history.next());
}

void PromptHistoryTest::anEmptyHistoryRecallsNothing()
{
    PromptHistory history;
    history.setProject(u"/p"_s);
    QVERIFY(!history.previous(u"draft"_s));
    QVERIFY(!history.isWalking());
}

void PromptHistoryTest::aRepeatOfTheNewestPromptIsKeptOnce()
{
    PromptHistory history;
    history.setProject(u"/p"_s);
    history.add(u"again"_s);
    history.add(u"again"_s);
    history.add(u"other"_s);
    history.add(u"again"_s);
    QCOMPARE(history.entries(), (QStringList{u"again"_s, u"other"_s, u"again"_s}));
}

void PromptHistoryTest::blankPromptsAreNotKept()
{
    PromptHistory history;
    history.setProject(u"/p"_s);
    history.add(u"  \n "_s);
    QVERIFY(history.entries().isEmpty());
}

void PromptHistoryTest::keepsAtMostAHundredPrompts()
{
    PromptHistory history;
    history.setProject(u"/p"_s);
    for (int i = 0; i < 130; ++i)
        history.add(u"prompt %1"_s.arg(i));
    QCOMPARE(history.entries().size(), PromptHistory::MaxEntries);
    QCOMPARE(history.entries().constFirst(), u"prompt 30"_s);
    QCOMPARE(history.entries().constLast(), u"prompt 129"_s);
}

void PromptHistoryTest::survivesARestart()
{
    {
        PromptHistory history;
        history.setProject(u"/work/project"_s);
        history.add(u"remember me"_s);
    }
    PromptHistory again;
    again.setProject(u"/work/project/"_s);
    QCOMPARE(again.entries(), (QStringList{u"remember me"_s}));
}

void PromptHistoryTest::eachProjectHasItsOwnHistory()
{
    PromptHistory history;
    history.setProject(u"/a"_s);
    history.add(u"in a"_s);
    history.setProject(u"/b"_s);
    QVERIFY(history.entries().isEmpty());
    history.add(u"in b"_s);
    history.setProject(u"/a"_s);
    QCOMPARE(history.entries(), (QStringList{u"in a"_s}));
}

void PromptHistoryTest::addingEndsTheWalk()
{
    PromptHistory history;
    history.setProject(u"/p"_s);
    history.add(u"one"_s);
    QVERIFY(history.previous(QString()));
    history.add(u"two"_s);
    QVERIFY(!history.isWalking());
    QCOMPARE(history.previous(QString()), u"two"_s);
}

QTEST_GUILESS_MAIN(PromptHistoryTest)
#include "tst_prompt_history.moc"
