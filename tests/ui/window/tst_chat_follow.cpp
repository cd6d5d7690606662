#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "model/Identifier.h"
#include "model/Store.h"
#include "ui/chat/tool/ToolCardHeader.h"
#include "ui/prompt/PromptBox.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

// Where the conversation view goes when the person sends and asks for the
// latest message.
class ChatFollowTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sendingJumpsToTheBottomAndFollowsTheAnswerWhereverTheViewWas();
    void ctrlEndJumpsToTheLatestMessageEvenFromThePromptBox();
    void expandingACardAtTheBottomLeavesItUnderTheMouse();
    void expandingACardInTheMiddleKeepsItsTopWhereItWas();
    void expandingACardAtTheBottomByKeyboardLeavesItInPlace();
    void followingTheBottomResumesWhenTheMouseLeavesAndNewOutputFollows();

private:
    // A stored session of the project, long enough to scroll; with
    // `readAt` >= 0, the exchange at that index is a file read (a card).
    static QString longSession(EngineHarness &h, int readAt = -1);
    // A question and an answer that reads a 60-line file: a card, collapsed.
    static bool storeReadExchange(EngineHarness &h, const QString &sessionID, qint64 time);
    static ToolCard *cardIn(ChatView *chat, int row);
    static bool scrolledToTop(ChatView *chat);
};

void ChatFollowTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

QString ChatFollowTest::longSession(EngineHarness &h, int readAt)
{
    if (!h.store().upsertProject(makeProject(u"global"_s, u"/"_s)))
        return {};
    Session session = makeSession(u"global"_s);
    session.directory = h.projectDirectory();
    session.title = u"A long talk"_s;
    if (!h.store().upsertSession(session))
        return {};
    QString paragraph;
    for (int i = 0; i < 12; ++i)
        paragraph += u"A line of the answer that takes room on the screen.\n\n"_s;
    for (int i = 0; i < 20; ++i) {
        if (i == readAt && !storeReadExchange(h, session.id, 1000 + i * 10 - 3))
            return {};
        const Message user = makeUserMessage(session.id, 1000 + i * 10);
        const Message answer = makeAssistantMessage(session.id, user.id(), 1000 + i * 10 + 5);
        if (!h.store().updateMessage(user) || !h.store().updateMessage(answer)
            || !h.store().updatePart(makeTextPart(session.id, user.id(), u"Question %1"_s.arg(i)))
            || !h.store().updatePart(makeTextPart(session.id, answer.id(), paragraph)))
            return {};
    }
    return session.id;
}

bool ChatFollowTest::scrolledToTop(ChatView *chat)
{
    chat->scrollToRow(0);
    chat->layoutNow();
    return chat->verticalScrollBar()->value() == 0 && !chat->isAtBottom();
}

void ChatFollowTest::sendingJumpsToTheBottomAndFollowsTheAnswerWhereverTheViewWas()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    const QString sessionID = longSession(h);
    QVERIFY(!sessionID.isEmpty());
    QStringList pieces;
    for (int i = 0; i < 40; ++i)
        pieces.append(u"Streaming line %1 of the answer.\n\n"_s.arg(i));
    h.server().enqueue(FakeTurn().text(pieces).usage(10, 5));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QCOMPARE(window.controller()->currentSession(), sessionID);
    ChatView *chat = window.pane()->chatView();
    QVERIFY(scrolledToTop(chat));

    PromptBox *box = window.pane()->promptBox();
    box->setText(u"One more question"_s);
    box->submit();
    QVERIFY(chat->isAtBottom());
    QTRY_COMPARE_WITH_TIMEOUT(chat->model()->rowCount(), 42, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(sessionID), 15000);
    chat->layoutNow();
    QVERIFY(chat->isAtBottom());
    QVERIFY(chat->verticalScrollBar()->value() > 0);
}

void ChatFollowTest::ctrlEndJumpsToTheLatestMessageEvenFromThePromptBox()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    QVERIFY(!longSession(h).isEmpty());
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    ChatView *chat = window.pane()->chatView();
    QVERIFY(scrolledToTop(chat));

    QPlainTextEdit *editor = window.pane()->promptBox()->editor();
    editor->setFocus();
    editor->setPlainText(u"draft"_s);
    QTRY_VERIFY(editor->hasFocus());
    QTest::keyClick(editor, Qt::Key_End, Qt::ControlModifier);
    QTRY_VERIFY(chat->isAtBottom());
    QCOMPARE(editor->toPlainText(), u"draft"_s);
}

bool ChatFollowTest::storeReadExchange(EngineHarness &h, const QString &sessionID, qint64 time)
{
    const Message user = makeUserMessage(sessionID, time);
    const Message answer = makeAssistantMessage(sessionID, user.id(), time + 1);
    QStringList lines;
    for (int i = 1; i <= 60; ++i)
        lines.append(u"%1: line %1 of the file"_s.arg(i));
    ToolPart read;
    read.callID = u"call_read_%1"_s.arg(time);
    read.tool = u"read"_s;
    read.state = ToolCompleted{QJsonObject{{u"filePath"_s, QString(h.projectDirectory() + u"/notes.txt"_s)}},
                               u"<path>notes.txt</path>\n<type>file</type>\n<content>\n"_s + lines.join(u'\n')
                                   + u"\n</content>"_s,
                               u"notes.txt"_s, {}, time + 1, time + 2, std::nullopt, std::nullopt};
    return h.store().updateMessage(user) && h.store().updatePart(makeTextPart(sessionID, user.id(), u"Read the notes"_s))
           && h.store().updateMessage(answer)
           && h.store().updatePart(Part{Identifier::ascending(Identifier::Prefix::Part), sessionID, answer.id(), read, {}});
}

ToolCard *ChatFollowTest::cardIn(ChatView *chat, int row)
{
    MessageWidget *message = chat->widgetAt(row);
    auto *tool = message ? message->findChild<ToolPartWidget *>() : nullptr;
    return tool ? tool->card() : nullptr;
}

void ChatFollowTest::expandingACardAtTheBottomLeavesItUnderTheMouse()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    const QString sessionID = longSession(h);
    QVERIFY(!sessionID.isEmpty());
    // The last answer reads a file: a card, collapsed, at the very bottom.
    QVERIFY(storeReadExchange(h, sessionID, 5000));

    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    ChatView *chat = window.pane()->chatView();
    chat->layoutNow();
    QVERIFY(chat->isAtBottom());
    ToolCard *card = newestCard(chat);
    QVERIFY(card);
    QVERIFY(!card->isExpanded());
    QWidget *header = card->findChild<ToolCardHeader *>();
    QVERIFY(header);
    const int before = card->mapTo(chat->viewport(), QPoint(0, 0)).y();
    const int heightBefore = chat->verticalScrollBar()->maximum();

    QTest::mouseClick(header, Qt::LeftButton, Qt::NoModifier, QPoint(20, header->height() / 2));
    QTRY_VERIFY(card->isExpanded());
    // The conversation grew below the card, where the person looks next …
    QTRY_VERIFY_WITH_TIMEOUT((chat->layoutNow(), chat->verticalScrollBar()->maximum() > heightBefore + 50), 5000);
    // … and the card stayed under the mouse.
    const int after = card->mapTo(chat->viewport(), QPoint(0, 0)).y();
    QVERIFY2(std::abs(after - before) <= 8, qPrintable(u"moved from %1 to %2"_s.arg(before).arg(after)));
    QVERIFY(!chat->isAtBottom());
}

void ChatFollowTest::expandingACardInTheMiddleKeepsItsTopWhereItWas()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    const QString sessionID = longSession(h, 10);
    QVERIFY(!sessionID.isEmpty());
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    ChatView *chat = window.pane()->chatView();
    constexpr int CardRow = 21; // ten exchanges, then the question and the answer that reads
    QCOMPARE(chat->model()->rowCount(), 42);
    // The card's message at the top, then half a screen down: mid-view.
    chat->scrollToRow(CardRow);
    chat->layoutNow();
    chat->verticalScrollBar()->setValue(chat->verticalScrollBar()->value() - chat->viewport()->height() / 2);
    chat->layoutNow();
    ToolCard *card = cardIn(chat, CardRow);
    QVERIFY(card);
    QVERIFY(!card->isExpanded());
    const int before = card->mapTo(chat->viewport(), QPoint(0, 0)).y();
    QVERIFY2(before > chat->viewport()->height() / 4 && before < chat->viewport()->height() * 3 / 4,
             qPrintable(u"the card is at %1 of %2"_s.arg(before).arg(chat->viewport()->height())));
    const int heightBefore = chat->verticalScrollBar()->maximum();

    QWidget *header = card->findChild<ToolCardHeader *>();
    QVERIFY(header);
    QTest::mouseClick(header, Qt::LeftButton, Qt::NoModifier, QPoint(20, header->height() / 2));
    QTRY_VERIFY(card->isExpanded());
    QTRY_VERIFY_WITH_TIMEOUT((chat->layoutNow(), chat->verticalScrollBar()->maximum() > heightBefore + 50), 5000);
    QCOMPARE(cardIn(chat, CardRow), card);
    QCOMPARE(card->mapTo(chat->viewport(), QPoint(0, 0)).y(), before);
    // Collapsing it again keeps it too.
    QTest::mouseClick(header, Qt::LeftButton, Qt::NoModifier, QPoint(20, header->height() / 2));
    QTRY_VERIFY(!card->isExpanded());
    QTRY_VERIFY_WITH_TIMEOUT((chat->layoutNow(), chat->verticalScrollBar()->maximum() < heightBefore + 50), 5000);
    QCOMPARE(card->mapTo(chat->viewport(), QPoint(0, 0)).y(), before);
}

void ChatFollowTest::expandingACardAtTheBottomByKeyboardLeavesItInPlace()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    const QString sessionID = longSession(h);
    QVERIFY(!sessionID.isEmpty());
    QVERIFY(storeReadExchange(h, sessionID, 5000));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    ChatView *chat = window.pane()->chatView();
    chat->layoutNow();
    QVERIFY(chat->isAtBottom());
    ToolCard *card = newestCard(chat);
    QVERIFY(card);
    QWidget *header = card->findChild<ToolCardHeader *>();
    header->setFocus();
    QTRY_VERIFY(header->hasFocus());
    const int before = card->mapTo(chat->viewport(), QPoint(0, 0)).y();

    QTest::keyClick(header, Qt::Key_Space);
    QVERIFY(card->isExpanded());
    chat->layoutNow();
    // Rows still settling at the bottom may nudge it a little; following the
    // bottom would lift it by the details' height.
    const int after = card->mapTo(chat->viewport(), QPoint(0, 0)).y();
    QVERIFY2(std::abs(after - before) <= 8, qPrintable(u"moved from %1 to %2"_s.arg(before).arg(after)));
}

void ChatFollowTest::followingTheBottomResumesWhenTheMouseLeavesAndNewOutputFollows()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    const QString sessionID = longSession(h);
    QVERIFY(!sessionID.isEmpty());
    QVERIFY(storeReadExchange(h, sessionID, 5000));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    ChatView *chat = window.pane()->chatView();
    chat->layoutNow();
    QVERIFY(chat->isAtBottom());

    // A click in the conversation holds it still …
    ToolCard *card = newestCard(chat);
    QVERIFY(card);
    QWidget *header = card->findChild<ToolCardHeader *>();
    QTest::mouseClick(header, Qt::LeftButton, Qt::NoModifier, QPoint(20, header->height() / 2));
    QTRY_VERIFY(card->isExpanded());
    QTRY_VERIFY_WITH_TIMEOUT((chat->layoutNow(), !chat->isAtBottom()), 5000);
    // … until the mouse leaves it: then it is back at the bottom …
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(chat->viewport(), &leave);
    chat->layoutNow();
    QVERIFY(chat->isAtBottom());

    // … and, with nobody touching it, follows an answer as it streams.
    QStringList pieces;
    for (int i = 0; i < 40; ++i)
        pieces.append(u"Streaming line %1 of the answer.\n\n"_s.arg(i));
    h.server().enqueue(FakeTurn().text(pieces).usage(10, 5));
    const int rowsBefore = chat->model()->rowCount();
    const int maximumBefore = chat->verticalScrollBar()->maximum();
    window.pane()->promptBox()->setText(u"And then?"_s);
    window.pane()->promptBox()->submit();
    QTRY_COMPARE_WITH_TIMEOUT(chat->model()->rowCount(), rowsBefore + 2, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(sessionID), 15000);
    chat->layoutNow();
    QVERIFY(chat->verticalScrollBar()->maximum() > maximumBefore);
    QVERIFY(chat->isAtBottom());
}

QTEST_MAIN(ChatFollowTest)
#include "tst_chat_follow.moc"
