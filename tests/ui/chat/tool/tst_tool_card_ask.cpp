// A call's ask answered in its card (issue 19): the card shows the ask with
// its choices and reads "Waiting for you"; its time leaves the wait out; an
// edit's change shows as a coloured diff; once answered or taken back, the
// ask leaves the card.

#include <QAbstractButton>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "ToolParts.h"
#include "ui/chat/tool/ToolCard.h"
#include "ui/chat/tool/ToolSpinner.h"
#include "ui/permission/AskQueue.h"
#include "ui/permission/PermissionAskPanel.h"
#include "ui/permission/PermissionDiffBox.h"
#include "ui/permission/QuestionAskPanel.h"
#include "ui/permission/QuestionPage.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

constexpr qint64 Start = 1'700'000'000'000;

const QJsonObject MakeInput{{"command"_L1, u"make -j2"_s}, {"description"_L1, u"Builds the project"_s}};

// What toolPart() calls: the card's own call.
const PermissionToolRef TheCall{u"msg_0001"_s, u"call_1"_s};

PermissionRequest bashAsk(const QString &id)
{
    PermissionRequest request;
    request.id = id;
    request.sessionID = u"ses_0001"_s;
    request.permission = u"bash"_s;
    request.patterns = {u"make -j2"_s};
    request.always = {u"make *"_s};
    request.metadata = MakeInput;
    request.tool = TheCall;
    return request;
}

} // namespace

class ToolCardAskTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void theCardShowsItsAskAndWaitsForYou();
    void anAskOfAnotherCallStaysOutOfTheCard();
    void theCardsTimeLeavesTheWaitOut();
    void anEditAskShowsTheChangeAsAColouredDiff();
    void answeringInTheCardAnswersTheQueueOnce();
    void anAskAnsweredElsewhereLeavesTheCard();
    void aQuestionAsksInItsCard();

private:
    ToolCardContext context();

    qint64 m_now = Start;
    QWidget *m_window = nullptr;
    AskQueue *m_asks = nullptr;
};

void ToolCardAskTest::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void ToolCardAskTest::init()
{
    m_now = Start;
    m_window = new QWidget;
    m_asks = new AskQueue(m_window);
    m_asks->setClock([this] { return m_now; });
    m_asks->setVisibleSessions(u"ses_0001"_s, {});
}

void ToolCardAskTest::cleanup()
{
    delete m_window;
    m_window = nullptr;
    m_asks = nullptr;
}

ToolCardContext ToolCardAskTest::context()
{
    return ToolCardContext{Project, [this] { return m_now; }, nullptr, m_asks, {}};
}

void ToolCardAskTest::theCardShowsItsAskAndWaitsForYou()
{
    ToolCard card(context());
    card.resize(600, 300);
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start)));
    QVERIFY(!card.askPanel());
    QVERIFY(card.findChild<ToolSpinner *>(u"toolSpinner"_s)->isAnimating());

    m_asks->addPermission(bashAsk(u"per_1"_s));
    auto *panel = qobject_cast<PermissionAskPanel *>(card.askPanel());
    QVERIFY(panel);
    QTRY_VERIFY(panel->isVisible());
    QCOMPARE(card.statusKind(), ToolStatus::Kind::Waiting);
    QCOMPARE(card.statusText(), u"Waiting for you"_s);
    QCOMPARE(card.findChild<QLabel *>(u"toolStatus"_s)->text(), u"Waiting for you"_s);
    QVERIFY(!card.findChild<ToolSpinner *>(u"toolSpinner"_s)->isAnimating());
    QCOMPARE(panel->findChild<QPushButton *>(u"allowOnceButton"_s)->text(), u"Allow &once"_s);
    QCOMPARE(panel->findChild<QPushButton *>(u"alwaysSessionButton"_s)->text(),
             u"&Always allow “make *” in this session"_s);
    QCOMPARE(panel->findChild<QPushButton *>(u"alwaysProjectButton"_s)->text(),
             u"Always allow “make *” in this &project"_s);
    QCOMPARE(panel->findChild<QPushButton *>(u"rejectButton"_s)->text(), u"&Reject"_s);
    const QString note = panel->findChild<QLabel *>(u"alwaysNote"_s)->text();
    QVERIFY2(note.contains(u"“make --help”"_s) && !note.contains(u'`'), qPrintable(note));
    // While it asks, the ask says what would happen: a command's details wait.
    QVERIFY(!card.isExpanded());
}

void ToolCardAskTest::anAskOfAnotherCallStaysOutOfTheCard()
{
    ToolCard card(context());
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start)));
    PermissionRequest other = bashAsk(u"per_1"_s);
    other.tool = PermissionToolRef{u"msg_0001"_s, u"call_2"_s};
    m_asks->addPermission(other);
    QVERIFY(!card.askPanel());
    other.id = u"per_2"_s;
    other.tool = PermissionToolRef{u"msg_0002"_s, u"call_1"_s}; // the same call id in another message
    m_asks->addPermission(other);
    QVERIFY(!card.askPanel());
    QCOMPARE(card.statusKind(), ToolStatus::Kind::Running);
}

void ToolCardAskTest::theCardsTimeLeavesTheWaitOut()
{
    ToolCard card(context());
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start)));
    m_now = Start + 1000;
    m_asks->addPermission(bashAsk(u"per_1"_s));
    m_now = Start + 61000; // a minute for the person to read
    QCOMPARE(card.statusText(), u"Waiting for you"_s);
    m_asks->answerPermission(u"per_1"_s, PermissionReply::Once, {}, ApprovalScope::Session);
    QVERIFY(!card.askPanel());
    QCOMPARE(card.statusText(), u"Running 1s"_s);
    m_now = Start + 63000;
    card.setPart(toolPart(u"bash"_s, completed(MakeInput, u"built"_s, {}, Start, Start + 63000)));
    QCOMPARE(card.statusText(), u"Done in 3.0s"_s);
}

void ToolCardAskTest::anEditAskShowsTheChangeAsAColouredDiff()
{
    const QJsonObject input{{"filePath"_L1, inProject(u"src/main.cpp"_s)},
                            {"oldString"_L1, u"return 1;"_s},
                            {"newString"_L1, u"return 0;"_s}};
    const QString diff = u"Index: src/main.cpp\n===\n--- src/main.cpp\n+++ src/main.cpp\n"
                         "@@ -1,3 +1,3 @@\n int main() {\n-    return 1;\n+    return 0;\n }\n"_s;
    ToolCard card(context());
    card.resize(600, 400);
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    card.setPart(toolPart(u"edit"_s, running(input, Start)));
    PermissionRequest request;
    request.id = u"per_1"_s;
    request.sessionID = u"ses_0001"_s;
    request.permission = u"edit"_s;
    request.patterns = {u"src/main.cpp"_s};
    request.always = {u"src/main.cpp"_s};
    request.metadata = QJsonObject{{"filepath"_L1, inProject(u"src/main.cpp"_s)}, {"diff"_L1, diff}};
    request.tool = TheCall;
    m_asks->addPermission(request);

    auto *box = card.askPanel()->findChild<PermissionDiffBox *>(u"askDiff"_s);
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    // Coloured line by line: the removed and the added line have their backgrounds.
    const QList<PermissionDiffBox::LineKind> kinds = PermissionDiffBox::classify(diff);
    QVERIFY(kinds.contains(PermissionDiffBox::LineKind::Added));
    QVERIFY(kinds.contains(PermissionDiffBox::LineKind::Removed));
    QVERIFY(box->background(PermissionDiffBox::LineKind::Added).isValid());
    QVERIFY(box->background(PermissionDiffBox::LineKind::Removed).isValid());
    QCOMPARE(box->extraSelections().size(), qsizetype(kinds.count(PermissionDiffBox::LineKind::Added)
                                                     + kinds.count(PermissionDiffBox::LineKind::Removed)
                                                     + kinds.count(PermissionDiffBox::LineKind::Hunk)
                                                     + kinds.count(PermissionDiffBox::LineKind::Header)));
}

void ToolCardAskTest::answeringInTheCardAnswersTheQueueOnce()
{
    ToolCard card(context());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start)));
    m_asks->addPermission(bashAsk(u"per_1"_s));
    QSignalSpy answered(m_asks, &AskQueue::permissionAnswered);
    auto *always = card.askPanel()->findChild<QPushButton *>(u"alwaysProjectButton"_s);
    QTRY_VERIFY(always->isVisible());
    QTest::mouseClick(always, Qt::LeftButton);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(0).toString(), u"per_1"_s);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), PermissionReply::Always);
    QCOMPARE(answered.first().at(3).value<ApprovalScope>(), ApprovalScope::Project);
    QVERIFY(!card.askPanel());
    QCOMPARE(card.statusKind(), ToolStatus::Kind::Running);
}

void ToolCardAskTest::anAskAnsweredElsewhereLeavesTheCard()
{
    ToolCard card(context());
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start)));
    m_asks->addPermission(bashAsk(u"per_1"_s));
    QVERIFY(card.askPanel());
    QSignalSpy answered(m_asks, &AskQueue::permissionAnswered);
    m_asks->resolve(u"per_1"_s); // the engine's report: answered in another window, or aborted
    QVERIFY(!card.askPanel());
    QVERIFY(answered.isEmpty());
}

void ToolCardAskTest::aQuestionAsksInItsCard()
{
    ToolCard card(context());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    const QJsonObject input{{"questions"_L1, QJsonArray{QJsonObject{{"question"_L1, u"Which one?"_s}}}}};
    card.setPart(toolPart(u"question"_s, running(input, Start)));
    QuestionInfo info;
    info.question = u"Which one?"_s;
    info.options = {{u"This"_s, {}}, {u"That"_s, {}}};
    m_asks->addQuestion(QuestionRequest{u"que_1"_s, u"ses_0001"_s, {info}, TheCall});
    auto *panel = qobject_cast<QuestionAskPanel *>(card.askPanel());
    QVERIFY(panel);
    QCOMPARE(card.statusText(), u"Waiting for you"_s);
    QSignalSpy answered(m_asks, &AskQueue::questionAnswered);
    QSignalSpy dismissed(m_asks, &AskQueue::questionDismissed);
    auto *answer = panel->findChild<QPushButton *>(u"answerButton"_s);
    QVERIFY(answer->isDefault());
    QVERIFY(!answer->isEnabled());
    QTest::keyClick(panel, Qt::Key_Return); // nothing picked: Enter answers nothing, dismisses nothing
    QVERIFY(answered.isEmpty() && dismissed.isEmpty());
    QAbstractButton *first = panel->pages().first()->choices().first();
    QTRY_VERIFY(first->isVisible());
    QTest::mouseClick(first, Qt::LeftButton);
    QVERIFY(first->isChecked());
    QTest::keyClick(panel, Qt::Key_Return);
    QCOMPARE(answered.size(), 1);
    QVERIFY(dismissed.isEmpty());
    QCOMPARE(answered.first().at(1).value<QList<QStringList>>(), QList<QStringList>{QStringList{u"This"_s}});
    QVERIFY(!card.askPanel());
}

QTEST_MAIN(ToolCardAskTest)
#include "tst_tool_card_ask.moc"
