#include <QApplication>
#include <QClipboard>
#include <QDropEvent>
#include <QFileDialog>
#include <QGuiApplication>
#include <QImage>
#include <QInputMethodEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QToolButton>
#include <QTest>
#include <QVBoxLayout>

#include "TempTree.h"
#include "ui/prompt/AgentPicker.h"
#include "ui/prompt/AttachmentChip.h"
#include "ui/prompt/CompletionPopup.h"
#include "ui/prompt/ModelPicker.h"
#include "ui/prompt/ModelPopup.h"
#include "ui/prompt/ProjectFileIndex.h"
#include "ui/prompt/PromptBox.h"
#include "ui/prompt/PromptCompleter.h"
#include "ui/prompt/PromptEditor.h"
#include "ui/prompt/QueuedPromptList.h"
#include "ui/prompt/QueuedPromptRow.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

using Kind = PromptSubmission::Kind;

class PromptBoxTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void enterSendsAndClears();
    void shiftEnterAddsALine();
    void ctrlEnterSendsToo();
    void aBlankPromptIsNotSent();
    void enterDuringImeCompositionDoesNotSend();
    void upRecallsEarlierPromptsAndDownGoesBack();
    void upInsideAMultiLinePromptMovesTheCursor();
    void droppedFilesFoldersAndImagesBecomeChips();
    void aDropOnTheEditorBecomesChipsToo();
    void removingAChipDropsTheAttachment();
    void aRemoteUrlIsRefusedWithAMessage();
    void pastingAnImageMakesAnImageChip();
    void pastingTextPastesText();
    void pastingFileUrlsMakesChips();
    void chipsComeBeforeTheEditorForTheKeyboard();
    void attachmentsAreSentAsFileAndDataParts();
    void atOpensAFuzzyPickerOfProjectFiles();
    void tabOnAFolderListsWhatIsInside();
    void atNeverOffersFilesInsideGit();
    void theAttachButtonAddsChosenFilesAsChips();
    void ctrlEnterSendsEvenWithThePickerOpen();
    void thePickerListsAgentsAndMentionsThem();
    void escapeClosesThePickerWithoutStopping();
    void slashListsBuiltinAndCustomCommands();
    void aCustomCommandIsSubmittedWithItsArguments();
    void aBuiltinChosenInThePopupRunsAtOnce();
    void aBuiltinTypedWithArgumentsRunsOnSend();
    void aBangLineIsAShellCommand();
    void whileBusyStopReplacesSendAndEscapeStops();
    void queuedPromptsCanBeEditedAndRemoved();
    void ctrlPeriodCyclesThePrimaryAgents();
    void tabLeavesThePromptBox();
    void theModelPickerFiltersAndChooses();
    void theEditorGrowsUpToAShareOfTheWindow();
    void aLongModelNameDoesNotWidenTheBox();

private:
    void showBox();
    PromptEditor *editor() const { return static_cast<PromptEditor *>(m_box->editor()); }
    QList<PromptSubmission> submissions() const;
    void typeAndSend(const QString &text);
    // A drag that enters `target` and drops there, as a file manager sends it.
    static void drop(QWidget *target, const QMimeData *mime);
    void waitForFiles();
    // a.txt and b.txt, dropped on the window.
    void attachTwoFiles();

    TempTree m_tree;
    std::unique_ptr<PromptBox> m_box;
    std::unique_ptr<QSignalSpy> m_submitted;
};

void PromptBoxTest::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-tests"_s);
    qRegisterMetaType<PromptSubmission>();
    qRegisterMetaType<ModelChoice>();
}

void PromptBoxTest::init()
{
    QSettings().clear();
    QVERIFY(m_tree.reset());
    m_box = std::make_unique<PromptBox>();
    m_submitted = std::make_unique<QSignalSpy>(m_box.get(), &PromptBox::submitted);
}

void PromptBoxTest::cleanup()
{
    m_submitted.reset();
    m_box.reset();
}

void PromptBoxTest::showBox()
{
    m_box->resize(700, 300);
    m_box->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_box.get()));
}

QList<PromptSubmission> PromptBoxTest::submissions() const
{
    QList<PromptSubmission> out;
    for (const QList<QVariant> &arguments : *m_submitted)
        out.append(arguments.at(0).value<PromptSubmission>());
    return out;
}

void PromptBoxTest::typeAndSend(const QString &text)
{
    QTest::keyClicks(editor(), text);
    QTest::keyClick(editor(), Qt::Key_Return);
}

void PromptBoxTest::drop(QWidget *target, const QMimeData *mime)
{
    QDragEnterEvent enter(QPoint(5, 5), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent dropped(QPointF(5, 5), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &dropped);
    QVERIFY(dropped.isAccepted());
}

void PromptBoxTest::attachTwoFiles()
{
    QVERIFY(m_tree.write(u"a.txt"_s, "a"));
    QVERIFY(m_tree.write(u"b.txt"_s, "b"));
    QMimeData files;
    files.setUrls({QUrl::fromLocalFile(m_tree.path(u"a.txt"_s)), QUrl::fromLocalFile(m_tree.path(u"b.txt"_s))});
    QVERIFY(m_box->addDroppedMimeData(&files));
}

void PromptBoxTest::waitForFiles()
{
    QSignalSpy ready(m_box->fileIndex(), &ProjectFileIndex::ready);
    m_box->fileIndex()->setBackend(FileSearch::Backend::InProcess);
    m_box->setProjectDirectory(m_tree.root());
    // A small tree can be listed before setProjectDirectory() returns.
    QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 10000);
}

void PromptBoxTest::enterSendsAndClears()
{
    typeAndSend(u"hello there"_s);
    QCOMPARE(m_submitted->count(), 1);
    const PromptSubmission sent = submissions().at(0);
    QCOMPARE(sent.kind, Kind::Prompt);
    QCOMPARE(sent.text, u"hello there"_s);
    QVERIFY(m_box->text().isEmpty());
}

void PromptBoxTest::shiftEnterAddsALine()
{
    QTest::keyClicks(editor(), u"one"_s);
    QTest::keyClick(editor(), Qt::Key_Return, Qt::ShiftModifier);
    QTest::keyClicks(editor(), u"two"_s);
    QCOMPARE(m_box->text(), u"one\ntwo"_s);
    QCOMPARE(m_submitted->count(), 0);
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(submissions().at(0).text, u"one\ntwo"_s);
}

void PromptBoxTest::ctrlEnterSendsToo()
{
    QTest::keyClicks(editor(), u"go"_s);
    QTest::keyClick(editor(), Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(m_submitted->count(), 1);
}

void PromptBoxTest::aBlankPromptIsNotSent()
{
    m_box->setText(u"   \n  "_s);
    QTest::keyClick(editor(), Qt::Key_Return);
    m_box->submit();
    QCOMPARE(m_submitted->count(), 0);
    QCOMPARE(m_box->text(), u"   \n  "_s);
}

void PromptBoxTest::enterDuringImeCompositionDoesNotSend()
{
    QTest::keyClicks(editor(), u"say "_s);
    QInputMethodEvent composing(u"nihao"_s, {});
    QCoreApplication::sendEvent(editor(), &composing);
    QVERIFY(editor()->isComposing());
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(m_submitted->count(), 0);

    QInputMethodEvent commit(QString(), {});
    commit.setCommitString(u"你好"_s);
    QCoreApplication::sendEvent(editor(), &commit);
    QVERIFY(!editor()->isComposing());
    // The Enter that confirmed the composition arrives right after it.
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(m_submitted->count(), 0);
    QCOMPARE(m_box->text(), u"say 你好"_s);

    // Once the event loop has moved on, Enter is the person's again.
    QTRY_VERIFY(!editor()->isGuardingCommitEnter());
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(m_submitted->count(), 1);
    QCOMPARE(submissions().at(0).text, u"say 你好"_s);
}

void PromptBoxTest::upRecallsEarlierPromptsAndDownGoesBack()
{
    m_box->setProjectDirectory(m_tree.root());
    typeAndSend(u"first"_s);
    typeAndSend(u"second with two lines"_s);
    QTest::keyClicks(editor(), u"draft"_s);
    QTest::keyClick(editor(), Qt::Key_Up);
    QCOMPARE(m_box->text(), u"second with two lines"_s);
    QTest::keyClick(editor(), Qt::Key_Up);
    QCOMPARE(m_box->text(), u"first"_s);
    QTest::keyClick(editor(), Qt::Key_Up);
    QCOMPARE(m_box->text(), u"first"_s);
    QTest::keyClick(editor(), Qt::Key_Down);
    QCOMPARE(m_box->text(), u"second with two lines"_s);
    QTest::keyClick(editor(), Qt::Key_Down);
    QCOMPARE(m_box->text(), u"draft"_s);

    // Another box on the same project remembers them.
    PromptBox again;
    again.setProjectDirectory(m_tree.root());
    QTest::keyClick(again.editor(), Qt::Key_Up);
    QCOMPARE(again.text(), u"second with two lines"_s);
}

void PromptBoxTest::upInsideAMultiLinePromptMovesTheCursor()
{
    typeAndSend(u"earlier"_s);
    m_box->setText(u"line one\nline two"_s);
    QTest::keyClick(editor(), Qt::Key_Up);
    QCOMPARE(m_box->text(), u"line one\nline two"_s);
    QCOMPARE(editor()->textCursor().blockNumber(), 0);
    QTest::keyClick(editor(), Qt::Key_Up);
    QCOMPARE(m_box->text(), u"earlier"_s);
}

void PromptBoxTest::droppedFilesFoldersAndImagesBecomeChips()
{
    QVERIFY(m_tree.write(u"a.txt"_s, "a"));
    QVERIFY(m_tree.write(u"docs/b.md"_s, "b"));
    QMimeData files;
    files.setUrls({QUrl::fromLocalFile(m_tree.path(u"a.txt"_s)), QUrl::fromLocalFile(m_tree.path(u"docs"_s))});
    drop(m_box.get(), &files);
    QCOMPARE(m_box->attachments().size(), 2);
    QCOMPARE(m_box->attachments().at(0).kind, PromptAttachment::Kind::File);
    QCOMPARE(m_box->attachments().at(0).name, u"a.txt"_s);
    QCOMPARE(m_box->attachments().at(1).kind, PromptAttachment::Kind::Folder);
    QCOMPARE(m_box->chips().size(), 2);

    QImage image(16, 16, QImage::Format_RGB32);
    image.fill(Qt::green);
    QMimeData picture;
    picture.setImageData(image);
    drop(m_box.get(), &picture);
    QCOMPARE(m_box->attachments().size(), 3);
    QCOMPARE(m_box->attachments().at(2).kind, PromptAttachment::Kind::Image);
    QVERIFY(m_box->attachments().at(2).data.startsWith("\x89PNG"));
    QTRY_VERIFY(m_box->chips().at(2)->hasThumbnail());

    // The same files again change nothing.
    drop(m_box.get(), &files);
    QCOMPARE(m_box->attachments().size(), 3);
    QVERIFY(m_box->notice().isEmpty());
}

void PromptBoxTest::aDropOnTheEditorBecomesChipsToo()
{
    QVERIFY(m_tree.write(u"a.txt"_s, "a"));
    m_box->setText(u"keep this"_s);
    QMimeData files;
    files.setUrls({QUrl::fromLocalFile(m_tree.path(u"a.txt"_s))});
    drop(editor()->viewport(), &files);
    QCOMPARE(m_box->attachments().size(), 1);
    QCOMPARE(m_box->text(), u"keep this"_s);
    // And through the window's own drop handling.
    QVERIFY(m_tree.write(u"b.txt"_s, "b"));
    QMimeData more;
    more.setUrls({QUrl::fromLocalFile(m_tree.path(u"b.txt"_s))});
    QVERIFY(m_box->addDroppedMimeData(&more));
    QVERIFY(!m_box->addDroppedMimeData(&more));
    QCOMPARE(m_box->attachments().size(), 2);
}

void PromptBoxTest::removingAChipDropsTheAttachment()
{
    attachTwoFiles();
    QCOMPARE(m_box->attachments().size(), 2);
    QTest::mouseClick(m_box->chips().at(0)->removeButton(), Qt::LeftButton);
    QCOMPARE(m_box->attachments().size(), 1);
    QCOMPARE(m_box->attachments().at(0).name, u"b.txt"_s);
    // From the keyboard: Delete on the chip's remove button.
    QTest::keyClick(m_box->chips().at(0)->removeButton(), Qt::Key_Delete);
    QVERIFY(m_box->attachments().isEmpty());
    QVERIFY(m_box->chips().isEmpty());
}

void PromptBoxTest::aRemoteUrlIsRefusedWithAMessage()
{
    QMimeData remote;
    remote.setUrls({QUrl(u"https://example.com/picture.png"_s)});
    drop(m_box.get(), &remote);
    QVERIFY(m_box->attachments().isEmpty());
    QVERIFY(m_box->notice().contains(u"https://example.com/picture.png"_s));
    QVERIFY(m_box->notice().contains(u"only local files and folders"_s));
}

void PromptBoxTest::pastingAnImageMakesAnImageChip()
{
    QImage image(20, 10, QImage::Format_ARGB32);
    image.fill(Qt::magenta);
    QGuiApplication::clipboard()->setImage(image);
    QVERIFY(QGuiApplication::clipboard()->mimeData()->hasImage());
    QTest::keyClick(editor(), Qt::Key_V, Qt::ControlModifier);
    QCOMPARE(m_box->attachments().size(), 1);
    const PromptAttachment pasted = m_box->attachments().at(0);
    QCOMPARE(pasted.kind, PromptAttachment::Kind::Image);
    QCOMPARE(QImage::fromData(pasted.data).size(), QSize(20, 10));
    QVERIFY(m_box->text().isEmpty());
}

void PromptBoxTest::pastingTextPastesText()
{
    QGuiApplication::clipboard()->setText(u"plain words"_s);
    QTest::keyClick(editor(), Qt::Key_V, Qt::ControlModifier);
    QCOMPARE(m_box->text(), u"plain words"_s);
    QVERIFY(m_box->attachments().isEmpty());
}

void PromptBoxTest::pastingFileUrlsMakesChips()
{
    QVERIFY(m_tree.write(u"copied.txt"_s, "c"));
    auto *mime = new QMimeData;
    mime->setUrls({QUrl::fromLocalFile(m_tree.path(u"copied.txt"_s))});
    mime->setText(m_tree.path(u"copied.txt"_s));
    QGuiApplication::clipboard()->setMimeData(mime);
    QTest::keyClick(editor(), Qt::Key_V, Qt::ControlModifier);
    QCOMPARE(m_box->attachments().size(), 1);
    QCOMPARE(m_box->attachments().at(0).name, u"copied.txt"_s);
    QVERIFY(m_box->text().isEmpty());
}

void PromptBoxTest::chipsComeBeforeTheEditorForTheKeyboard()
{
    attachTwoFiles();
    const QList<AttachmentChip *> chips = m_box->chips();
    QCOMPARE(chips.at(0)->removeButton()->nextInFocusChain(), chips.at(1)->removeButton());
    QCOMPARE(chips.at(1)->removeButton()->nextInFocusChain(), m_box->editor());
    QVERIFY(chips.at(0)->removeButton()->focusPolicy() & Qt::TabFocus);
    QVERIFY(chips.at(0)->removeButton()->toolTip().contains(u"a.txt"_s));
}

void PromptBoxTest::attachmentsAreSentAsFileAndDataParts()
{
    QVERIFY(m_tree.write(u"a.txt"_s, "a"));
    QMimeData files;
    files.setUrls({QUrl::fromLocalFile(m_tree.path(u"a.txt"_s))});
    QVERIFY(m_box->addDroppedMimeData(&files));
    QImage image(4, 4, QImage::Format_RGB32);
    image.fill(Qt::black);
    QMimeData picture;
    picture.setImageData(image);
    QVERIFY(m_box->addDroppedMimeData(&picture));

    // Attachments alone can be sent.
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(m_submitted->count(), 1);
    QVERIFY(m_box->attachments().isEmpty());
    const QList<PromptPart> parts = submissions().at(0).toPromptParts(m_tree.root());
    QCOMPARE(parts.size(), 2);
    QCOMPARE(std::get<FilePart>(parts.at(0).body).url, QUrl::fromLocalFile(m_tree.path(u"a.txt"_s)).toString());
    QVERIFY(std::get<FilePart>(parts.at(1).body).url.startsWith("data:image/png;base64,"_L1));
}

void PromptBoxTest::atNeverOffersFilesInsideGit()
{
    QVERIFY(m_tree.write(u".git/config"_s, "[core]"));
    QVERIFY(m_tree.write(u".git/refs/heads/main"_s, "abc"));
    QVERIFY(m_tree.write(u"vendor/lib/.git/HEAD"_s, "ref"));
    QVERIFY(m_tree.write(u"src/config.cpp"_s, "x"));
    QVERIFY(m_tree.write(u".gitignore"_s, "build/"));
    waitForFiles();
    const QStringList paths = m_box->fileIndex()->paths();
    QVERIFY2(paths.contains(u"src/config.cpp"_s), qPrintable(paths.join(u", "_s)));
    QVERIFY(paths.contains(u".gitignore"_s));
    for (const QString &path : paths)
        QVERIFY2(!path.startsWith(u".git/"_s) && !path.contains(u"/.git/"_s), qPrintable(path));
    showBox();
    QTest::keyClicks(editor(), u"@config"_s);
    QVERIFY(m_box->completer()->isOpen());
    for (const CompletionItem &item : m_box->completer()->popup()->items())
        QVERIFY2(!item.value.contains(u".git/"_s), qPrintable(item.value));
}

void PromptBoxTest::theAttachButtonAddsChosenFilesAsChips()
{
    showBox();
    QVERIFY(m_box->attachButton()->isVisible());
    QVERIFY(!m_box->attachButton()->text().isEmpty());
    m_box->attachButton()->click();
    auto *chooser = m_box->findChild<QFileDialog *>(u"attachDialog"_s);
    QVERIFY(chooser);
    QCOMPARE(chooser->fileMode(), QFileDialog::ExistingFiles);
    QVERIFY(m_tree.write(u"notes.txt"_s, "n"));
    QVERIFY(m_tree.write(u"plan.md"_s, "p"));
    Q_EMIT chooser->filesSelected({m_tree.path(u"notes.txt"_s), m_tree.path(u"plan.md"_s)});
    chooser->close();
    QCOMPARE(m_box->chips().size(), 2);
    QCOMPARE(m_box->attachments().size(), 2);
}

void PromptBoxTest::atOpensAFuzzyPickerOfProjectFiles()
{
    QVERIFY(m_tree.write(u"src/ui/prompt/PromptBox.cpp"_s, "x"));
    QVERIFY(m_tree.write(u"src/engine/Loop.cpp"_s, "x"));
    QVERIFY(m_tree.write(u"docs/problem-base.md"_s, "x"));
    QVERIFY(m_tree.write(u"README.md"_s, "x"));
    waitForFiles();
    showBox();

    QTest::keyClicks(editor(), u"fix @pbox"_s);
    QVERIFY(m_box->completer()->isOpen());
    const QList<CompletionItem> items = m_box->completer()->popup()->items();
    QVERIFY(!items.isEmpty());
    QCOMPARE(items.at(0).value, u"src/ui/prompt/PromptBox.cpp"_s);
    for (const CompletionItem &item : items)
        QVERIFY(item.value != u"README.md"_s && item.value != u"src/engine/Loop.cpp"_s);

    QTest::keyClick(editor(), Qt::Key_Return);
    QVERIFY(!m_box->completer()->isOpen());
    QCOMPARE(m_box->text(), u"fix @src/ui/prompt/PromptBox.cpp "_s);
    QCOMPARE(m_submitted->count(), 0);

    QTest::keyClicks(editor(), u"now"_s);
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(m_submitted->count(), 1);
    QCOMPARE(submissions().at(0).mentionedFiles, (QStringList{u"src/ui/prompt/PromptBox.cpp"_s}));
}

void PromptBoxTest::tabOnAFolderListsWhatIsInside()
{
    QVERIFY(m_tree.write(u"src/ui/prompt/PromptBox.cpp"_s, "x"));
    QVERIFY(m_tree.write(u"src/ui/window/MainWindow.cpp"_s, "x"));
    QVERIFY(m_tree.write(u"tests/unit.cpp"_s, "x"));
    waitForFiles();
    showBox();
    QTest::keyClicks(editor(), u"@ui"_s);
    const CompletionItem first = m_box->completer()->popup()->items().at(0);
    QCOMPARE(first.value, u"src/ui/"_s);
    QCOMPARE(first.kind, CompletionItem::Kind::Folder);
    QTest::keyClick(editor(), Qt::Key_Tab);
    QCOMPARE(m_box->text(), u"@src/ui/"_s);
    QVERIFY(m_box->completer()->isOpen());
    for (const CompletionItem &item : m_box->completer()->popup()->items())
        QVERIFY2(item.value.startsWith(u"src/ui/"_s) || item.kind == CompletionItem::Kind::Agent, qPrintable(item.value));
    // Enter on a folder mentions it.
    QTest::keyClick(editor(), Qt::Key_Escape);
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(submissions().at(0).mentionedFiles, (QStringList{u"src/ui/"_s}));
    const QList<PromptPart> parts = submissions().at(0).toPromptParts(m_tree.root());
    QCOMPARE(std::get<FilePart>(parts.at(1).body).mime, u"application/x-directory"_s);
}

void PromptBoxTest::ctrlEnterSendsEvenWithThePickerOpen()
{
    showBox();
    m_box->setAgents({{u"build"_s, {}, true}});
    QTest::keyClicks(editor(), u"hi @bu"_s);
    QVERIFY(m_box->completer()->isOpen());
    QTest::keyClick(editor(), Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(m_submitted->count(), 1);
    QCOMPARE(submissions().at(0).text, u"hi @bu"_s);
    QVERIFY(!m_box->completer()->isOpen());
}

void PromptBoxTest::thePickerListsAgentsAndMentionsThem()
{
    showBox();
    m_box->setAgents({{u"build"_s, u"Builds things"_s, true},
                      {u"plan"_s, u"Plans"_s, true},
                      {u"explore"_s, u"Finds code"_s, false}});
    QTest::keyClicks(editor(), u"@exp"_s);
    QVERIFY(m_box->completer()->isOpen());
    const CompletionItem first = m_box->completer()->popup()->items().at(0);
    QCOMPARE(first.value, u"explore"_s);
    QCOMPARE(first.kind, CompletionItem::Kind::Subagent);
    QVERIFY(first.detail.contains(u"subagent"_s));
    QTest::keyClick(editor(), Qt::Key_Tab);
    QCOMPARE(m_box->text(), u"@explore "_s);
    QCOMPARE(m_box->currentAgent(), u"build"_s); // Tab chose, it did not cycle

    QTest::keyClicks(editor(), u"where is the lexer"_s);
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(submissions().at(0).mentionedAgents, (QStringList{u"explore"_s}));
    QCOMPARE(submissions().at(0).agent, u"build"_s);
}

void PromptBoxTest::escapeClosesThePickerWithoutStopping()
{
    showBox();
    m_box->setAgents({{u"build"_s, {}, true}});
    m_box->setBusy(true);
    QSignalSpy stop(m_box.get(), &PromptBox::stopRequested);
    QTest::keyClicks(editor(), u"@b"_s);
    QVERIFY(m_box->completer()->isOpen());
    QTest::keyClick(editor(), Qt::Key_Escape);
    QVERIFY(!m_box->completer()->isOpen());
    QCOMPARE(stop.count(), 0);
    // It stays closed while the same mention is typed on.
    QTest::keyClicks(editor(), u"u"_s);
    QVERIFY(!m_box->completer()->isOpen());
    QTest::keyClick(editor(), Qt::Key_Escape);
    QCOMPARE(stop.count(), 1);
}

void PromptBoxTest::slashListsBuiltinAndCustomCommands()
{
    showBox();
    m_box->setCommands({{u"review"_s, u"Review the changes"_s, true}, {u"new"_s, u"shadows a built-in"_s, false}});
    QTest::keyClicks(editor(), u"/"_s);
    QVERIFY(m_box->completer()->isOpen());
    QStringList names;
    for (const CompletionItem &item : m_box->completer()->popup()->items())
        names.append(item.value);
    QCOMPARE(names, (QStringList{u"new"_s, u"compact"_s, u"undo"_s, u"redo"_s, u"export"_s, u"models"_s,
                                 u"agents"_s, u"review"_s}));
    QCOMPARE(m_box->completer()->popup()->items().last().kind, CompletionItem::Kind::CustomCommand);

    QTest::keyClicks(editor(), u"rvw"_s);
    QCOMPARE(m_box->completer()->popup()->items().at(0).value, u"review"_s);
    // Enter on a custom command writes it out for its arguments.
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(m_box->text(), u"/review "_s);
    QCOMPARE(m_submitted->count(), 0);
}

void PromptBoxTest::aCustomCommandIsSubmittedWithItsArguments()
{
    showBox();
    m_box->setCommands({{u"review"_s, u"Review the changes"_s, false}});
    QSignalSpy builtin(m_box.get(), &PromptBox::builtinCommandRequested);
    typeAndSend(u"/review fix it"_s);
    QCOMPARE(m_submitted->count(), 1);
    const PromptSubmission sent = submissions().at(0);
    QCOMPARE(sent.kind, Kind::Command);
    QCOMPARE(sent.command, u"review"_s);
    QCOMPARE(sent.text, u"fix it"_s);
    QCOMPARE(builtin.count(), 0);
}

void PromptBoxTest::aBuiltinChosenInThePopupRunsAtOnce()
{
    showBox();
    QSignalSpy builtin(m_box.get(), &PromptBox::builtinCommandRequested);
    QTest::keyClicks(editor(), u"/ne"_s);
    QCOMPARE(m_box->completer()->popup()->items().at(0).value, u"new"_s);
    QTest::keyClick(editor(), Qt::Key_Return);
    QCOMPARE(builtin.count(), 1);
    QCOMPARE(builtin.at(0).at(0).toString(), u"new"_s);
    QVERIFY(builtin.at(0).at(1).toString().isEmpty());
    QCOMPARE(m_submitted->count(), 0);
    QVERIFY(m_box->text().isEmpty());
}

void PromptBoxTest::aBuiltinTypedWithArgumentsRunsOnSend()
{
    showBox();
    QSignalSpy builtin(m_box.get(), &PromptBox::builtinCommandRequested);
    typeAndSend(u"/export notes.md"_s);
    QCOMPARE(builtin.count(), 1);
    QCOMPARE(builtin.at(0).at(0).toString(), u"export"_s);
    QCOMPARE(builtin.at(0).at(1).toString(), u"notes.md"_s);
    QCOMPARE(m_submitted->count(), 0);
}

void PromptBoxTest::aBangLineIsAShellCommand()
{
    typeAndSend(u"!ls -la"_s);
    QCOMPARE(m_submitted->count(), 1);
    QCOMPARE(submissions().at(0).kind, Kind::Shell);
    QCOMPARE(submissions().at(0).text, u"ls -la"_s);
    // A bare "!" runs nothing and says why.
    typeAndSend(u"!"_s);
    QCOMPARE(m_submitted->count(), 1);
    QVERIFY(m_box->notice().contains(u"shell command"_s));
}

void PromptBoxTest::whileBusyStopReplacesSendAndEscapeStops()
{
    showBox();
    auto *send = m_box->findChild<QPushButton *>(u"sendButton"_s);
    auto *stopButton = m_box->findChild<QPushButton *>(u"stopButton"_s);
    QVERIFY(send->isVisible());
    QVERIFY(!stopButton->isVisible());
    QVERIFY(stopButton->toolTip().contains(QKeySequence(Qt::Key_Escape).toString(QKeySequence::NativeText)));

    QSignalSpy stop(m_box.get(), &PromptBox::stopRequested);
    QTest::keyClick(editor(), Qt::Key_Escape);
    QCOMPARE(stop.count(), 0);

    m_box->setBusy(true);
    QVERIFY(!send->isVisible());
    QVERIFY(stopButton->isVisible());
    QTest::keyClick(editor(), Qt::Key_Escape);
    QCOMPARE(stop.count(), 1);
    QTest::mouseClick(stopButton, Qt::LeftButton);
    QCOMPARE(stop.count(), 2);
    // Sending while busy still works: the window queues it.
    typeAndSend(u"later"_s);
    QCOMPARE(m_submitted->count(), 1);

    m_box->setBusy(false);
    QVERIFY(send->isVisible());
}

void PromptBoxTest::queuedPromptsCanBeEditedAndRemoved()
{
    showBox();
    QSignalSpy edited(m_box.get(), &PromptBox::queuedEdited);
    QSignalSpy removed(m_box.get(), &PromptBox::queuedRemoved);
    m_box->setQueued({{u"q1"_s, u"first queued"_s}, {u"q2"_s, u"second queued"_s}});
    QVERIFY(m_box->queuedList()->isVisible());
    QCOMPARE(m_box->queuedList()->rows().size(), 2);

    QTest::mouseClick(m_box->queuedList()->rows().at(0)->removeButton(), Qt::LeftButton);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.at(0).at(0).toString(), u"q1"_s);

    QueuedPromptRow *row = m_box->queuedList()->rows().at(1);
    QTest::mouseClick(row->editButton(), Qt::LeftButton);
    QVERIFY(row->isEditing());
    QCOMPARE(row->editor()->toPlainText(), u"second queued"_s);
    row->editor()->selectAll();
    QTest::keyClicks(row->editor(), u"changed"_s);
    QTest::keyClick(row->editor(), Qt::Key_Return);
    QVERIFY(!row->isEditing());
    QCOMPARE(edited.count(), 1);
    QCOMPARE(edited.at(0).at(0).toString(), u"q2"_s);
    QCOMPARE(edited.at(0).at(1).toString(), u"changed"_s);

    // Escape leaves the prompt as it was.
    QTest::mouseClick(row->editButton(), Qt::LeftButton);
    QTest::keyClicks(row->editor(), u" more"_s);
    QTest::keyClick(row->editor(), Qt::Key_Escape);
    QVERIFY(!row->isEditing());
    QCOMPARE(edited.count(), 1);

    m_box->setQueued({});
    QVERIFY(!m_box->queuedList()->isVisible());
}

void PromptBoxTest::tabLeavesThePromptBox()
{
    m_box->setAgents({{u"build"_s, {}, true}, {u"plan"_s, {}, true}});
    showBox();
    editor()->setFocus();
    QTRY_VERIFY(editor()->hasFocus());
    QTest::keyClicks(editor(), u"fix it"_s);
    QTest::keyClick(editor(), Qt::Key_Tab);
    QTRY_VERIFY(!editor()->hasFocus());
    QVERIFY(m_box->isAncestorOf(QApplication::focusWidget()));
    QCOMPARE(m_box->text(), u"fix it"_s); // no tab typed into it
    QCOMPARE(m_box->currentAgent(), u"build"_s);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab, Qt::ShiftModifier);
    QTRY_VERIFY(editor()->hasFocus());
}

void PromptBoxTest::ctrlPeriodCyclesThePrimaryAgents()
{
    QSignalSpy changed(m_box.get(), &PromptBox::agentChanged);
    m_box->setAgents({{u"build"_s, {}, true}, {u"explore"_s, {}, false}, {u"plan"_s, {}, true}});
    QCOMPARE(m_box->currentAgent(), u"build"_s);
    QCOMPARE(m_box->agentPicker()->primaryAgents(), (QStringList{u"build"_s, u"plan"_s}));
    QTest::keyClick(editor(), Qt::Key_Period, Qt::ControlModifier);
    QCOMPARE(m_box->currentAgent(), u"plan"_s);
    QTest::keyClick(editor(), Qt::Key_Period, Qt::ControlModifier);
    QCOMPARE(m_box->currentAgent(), u"build"_s);
    QTest::keyClick(editor(), Qt::Key_Greater, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(m_box->currentAgent(), u"plan"_s);
    QCOMPARE(changed.count(), 3);
    QCOMPARE(changed.at(2).at(0).toString(), u"plan"_s);
    QVERIFY(m_box->text().isEmpty());
    QVERIFY(m_box->agentPicker()->toolTip().contains(u"Ctrl+."_s));

    m_box->setCurrentAgent(u"build"_s);
    QCOMPARE(changed.count(), 3);
}

void PromptBoxTest::theModelPickerFiltersAndChooses()
{
    showBox();
    const ModelChoice sonnet{u"anthropic"_s, u"claude-sonnet-4-5"_s, u"Claude Sonnet 4.5"_s, u"Catalogue"_s};
    const ModelChoice gpt{u"openai"_s, u"gpt-5"_s, u"GPT-5"_s, u"Catalogue"_s};
    const ModelChoice local{u"ollama"_s, u"qwen3:8b"_s, u"Qwen3 8B"_s, u"Local servers"_s};
    m_box->setModels({sonnet, gpt, local});
    m_box->setCurrentModel(gpt);
    QSignalSpy changed(m_box.get(), &PromptBox::modelChanged);
    QVERIFY(m_box->modelPicker()->text().contains(u"GPT-5"_s));
    QVERIFY(m_box->modelPicker()->toolTip().contains(ModelPicker::shortcut().toString(QKeySequence::NativeText)));

    m_box->openModelPicker();
    ModelPopup *popup = m_box->modelPicker()->popup();
    QVERIFY(popup->isVisible());
    QCOMPARE(popup->visibleModels().size(), 3);
    QTest::keyClicks(popup->searchField(), u"sonnet"_s);
    QCOMPARE(popup->visibleModels().size(), 1);
    QTest::keyClick(popup->searchField(), Qt::Key_Return);
    QVERIFY(!popup->isVisible());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).value<ModelChoice>().modelID, u"claude-sonnet-4-5"_s);

    typeAndSend(u"hi"_s);
    QCOMPARE(submissions().at(0).model->modelID, u"claude-sonnet-4-5"_s);
}

void PromptBoxTest::theEditorGrowsUpToAShareOfTheWindow()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *box = new PromptBox(&window);
    layout->addStretch();
    layout->addWidget(box);
    window.resize(800, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const int empty = box->editor()->height();
    box->setText(u"a\nb\nc\nd"_s);
    QTRY_VERIFY(box->editor()->height() > empty);
    QStringList many;
    for (int i = 0; i < 200; ++i)
        many.append(u"line %1"_s.arg(i));
    box->setText(many.join(u'\n'));
    QTRY_COMPARE(box->editor()->height(), int(window.height() * 0.4));
    window.resize(800, 1000);
    QTRY_COMPARE(box->editor()->height(), 400);
}

void PromptBoxTest::aLongModelNameDoesNotWidenTheBox()
{
    const QString label = u"Ein außerordentlich langes Sprachmodell mit sehr ausführlicher Bezeichnung"_s;
    const ModelChoice model{u"lokal"_s, u"modell"_s, label, u"Lokale Server"_s};
    m_box->setModels({model});
    m_box->setCurrentModel(model);
    QVERIFY(m_box->modelPicker()->text().size() < label.size());
    QVERIFY(m_box->modelPicker()->toolTip().contains(label));
    QVERIFY(m_box->modelPicker()->sizeHint().width() < m_box->fontMetrics().horizontalAdvance(label));
}

QTEST_MAIN(PromptBoxTest)
#include "tst_prompt_box.moc"
