#include <QDropEvent>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "EngineHarness.h"
#include "WindowTestSupport.h"
#include "model/Store.h"
#include "ui/chat/ChatView.h"
#include "ui/chat/MessageWidget.h"
#include "ui/chat/parts/ToolPartWidget.h"
#include "ui/chat/tool/ToolCard.h"
#include "ui/prompt/AttachmentChip.h"
#include "ui/prompt/PromptBox.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

EngineHarness::Setup askingBash()
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.ownThread = true;
    setup.config.insert(u"permission"_s, QJsonObject{{u"bash"_s, u"ask"_s}});
    return setup;
}

FakeTurn bashCall(const QString &command, const QString &callID)
{
    return FakeTurn().toolCall(u"bash"_s, QJsonObject{{u"command"_s, command}, {u"description"_s, u"Print"_s}}, callID);
}

// A button of the ask in the newest tool card, once on screen.
QPushButton *askButton(MainWindow &window, const QString &name)
{
    ToolCard *card = newestCard(window.pane()->chatView());
    QWidget *panel = card ? card->askPanel() : nullptr;
    auto *button = panel ? panel->findChild<QPushButton *>(name) : nullptr;
    return button && button->isVisible() ? button : nullptr;
}

} // namespace

class WindowFlowsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void aToolCardGoesFromPendingThroughRunningToDone();
    void rejectingInTheCardStopsTheTurn();
    void aDropOnTheWindowBecomesChipsAndThenFileParts();

private:
};

void WindowFlowsTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    QSettings().clear();
}

void WindowFlowsTest::aToolCardGoesFromPendingThroughRunningToDone()
{
    EngineHarness h(askingBash());
    h.server().enqueue(bashCall(u"echo from-the-tool"_s, u"call_1"_s));
    h.server().enqueue(FakeTurn().text({u"All done."_s}));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QList<QString> states;
    h.onEvent<PartUpdated>(this, [&states](const PartUpdated &updated) {
        if (const ToolPart *tool = updated.part.as<ToolPart>(); tool && (states.isEmpty() || states.last() != toolStatusName(tool->state)))
            states.append(toolStatusName(tool->state));
    });

    window.pane()->promptBox()->setText(u"run it"_s);
    window.pane()->promptBox()->submit();
    ChatView *chat = window.pane()->chatView();
    // The ask in its card holds the call while it runs.
    QTRY_VERIFY_WITH_TIMEOUT(askButton(window, u"allowOnceButton"_s), 10000);
    QCOMPARE(newestCard(chat)->statusKind(), ToolStatus::Kind::Waiting);
    QVERIFY(newestCard(chat)->title().contains(u"echo from-the-tool"_s));
    askButton(window, u"allowOnceButton"_s)->click();
    QTRY_COMPARE_WITH_TIMEOUT(newestCard(chat)->statusKind(), ToolStatus::Kind::Done, 10000);
    QVERIFY(newestCard(chat)->statusText().startsWith(u"Done"_s));
    QCOMPARE(states.first(), u"pending"_s);
    QVERIFY(states.contains(u"running"_s));
    QCOMPARE(states.last(), u"completed"_s);
    QTRY_VERIFY(!window.controller()->isBusy(window.controller()->currentSession()));
}

void WindowFlowsTest::rejectingInTheCardStopsTheTurn()
{
    EngineHarness h(askingBash());
    h.server().enqueue(bashCall(u"rm -rf build"_s, u"call_1"_s));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));
    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    window.pane()->promptBox()->setText(u"clean up"_s);
    window.pane()->promptBox()->submit();
    QTRY_VERIFY_WITH_TIMEOUT(askButton(window, u"rejectButton"_s), 10000);
    // The session waits for the person: the sidebar says so.
    const QString session = window.controller()->currentSession();
    QTRY_VERIFY(window.controller()->sessions()->indexOf(session).data(SessionTreeModel::WaitingRole).toBool());
    // The stop needs nothing more of the server (on this thread): the
    // engine's thread may finish before a wait() would begin.
    askButton(window, u"rejectButton"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 10000);
    QCOMPARE(h.server().requests().size(), 1); // the loop stopped: no second model call
    QTRY_COMPARE(newestCard(window.pane()->chatView())->statusKind(), ToolStatus::Kind::Rejected);
    QTRY_VERIFY(!window.controller()->sessions()->indexOf(session).data(SessionTreeModel::WaitingRole).toBool());
}

void WindowFlowsTest::aDropOnTheWindowBecomesChipsAndThenFileParts()
{
    EngineHarness::Setup setup;
    setup.ownThread = true;
    EngineHarness h(setup);
    h.server().enqueue(FakeTurn().text({u"Seen."_s}));
    QVERIFY(h.tree().write(u"project/notes.txt"_s, "some notes\n"));
    MainWindow window(&h.store(), &h.engine());
    QVERIFY(showWithProject(window, h.projectDirectory()));

    // As a real drag does it: enter (accepted: the window takes drops), then drop.
    const auto drop = [&window](QMimeData *mime) {
        QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QDropEvent dropped(QPointF(200, 200), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &dropped);
        return enter.isAccepted() && dropped.isAccepted();
    };
    QMimeData files;
    files.setUrls({QUrl::fromLocalFile(h.projectDirectory() + u"/notes.txt"_s)});
    QVERIFY(drop(&files));
    QImage image(8, 8, QImage::Format_RGB32);
    image.fill(Qt::red);
    QMimeData picture;
    picture.setImageData(image);
    QVERIFY(drop(&picture));

    PromptBox *box = window.pane()->promptBox();
    QVERIFY2(box->chips().size() == 2, qPrintable(u"%1 chips; notice: %2"_s.arg(box->chips().size()).arg(box->notice())));
    QCOMPARE(box->attachments().at(0).kind, PromptAttachment::Kind::File);
    QCOMPARE(box->attachments().at(1).kind, PromptAttachment::Kind::Image);

    box->setText(u"look at these"_s);
    box->submit();
    // The engine writes the message, then its parts: wait for the files.
    const auto storedUrls = [&window, &h] {
        QStringList urls;
        const QString sessionID = window.controller()->currentSession();
        const auto index = sessionID.isEmpty() ? Result<QList<MessageCursor>>(QList<MessageCursor>{})
                                               : h.store().messageIndex(sessionID);
        if (!index || index->isEmpty())
            return urls;
        const auto user = h.store().message(index->first().id);
        if (!user.ok() || !user->has_value())
            return urls;
        for (const Part &part : (*user)->parts) {
            if (const FilePart *file = part.as<FilePart>(); file && !part.extra.value(u"synthetic"_s).toBool())
                urls.append(file->url.left(22));
        }
        return urls;
    };
    QTRY_VERIFY_WITH_TIMEOUT(storedUrls().size() >= 2, 10000);
    const QStringList urls = storedUrls();
    QVERIFY2(urls.contains(QUrl::fromLocalFile(h.projectDirectory() + u"/notes.txt"_s).toString().left(22)),
             qPrintable(urls.join(u", "_s)));
    QVERIFY2(urls.contains(u"data:image/png;base64,"_s), qPrintable(urls.join(u", "_s)));
}

QTEST_MAIN(WindowFlowsTest)
#include "tst_window_flows.moc"
