#include <QFontInfo>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QToolButton>

#include "ToolParts.h"
#include "ui/chat/tool/DiffView.h"
#include "ui/chat/tool/OutputText.h"
#include "ui/chat/tool/OutputView.h"
#include "ui/chat/tool/ToolCard.h"
#include "ui/chat/tool/ToolColors.h"
#include "ui/chat/tool/ToolSpinner.h"
#include "ui/highlight/CodeHighlighter.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

constexpr qint64 Start = 1'700'000'000'000;

const QJsonObject MakeInput{{"command"_L1, u"make -j2"_s}, {"description"_L1, u"Builds the project"_s}};

QString numberedLines(int from, int count)
{
    QString text;
    for (int i = from; i < from + count; ++i)
        text += u"line %1\n"_s.arg(i);
    return text;
}

} // namespace

class ToolCardTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void walksFromPendingThroughRunningToDone();
    void theElapsedTimeTicksWithTheClock();
    void theSpinnerRestsWhileTheCardIsHidden();
    void aFailureShowsItsErrorInRed();
    void anAbortedCallSaysStopped();
    void bashShowsItsCommandAndTheLiveOutput();
    void bashOutputIsAppendedAsItGrows();
    void aHugeOutputIsCappedAndSaysHowManyLinesWereLeftOut();
    void bashSaysItsExitCodeAndTimeout();
    void longOutputShowsTenLinesAndAMoreButton();
    void aCommandsEarlierLinesButtonSitsAboveItsOutput();
    void aReadShowsTheFilesLinesNumberedFromTheOffsetRead();
    void aReadIsColouredAsItsLanguageWhenTheHighlighterKnowsIt();
    void theKeyboardExpandsAndCollapses();
    void aTaskCardOpensItsSubagentSession();
    void todosShowAsAChecklist();
    void anEditShowsItsDiffAndAPendingEditTheProposedOne();
    void aWriteOfANewFileShowsEveryLineAdded();
    void aClearedOutputSaysSo();
    void malformedInputOrMetadataShowsTheRawJson();
    void thePersonsChoiceToCollapseSticks();

private:
    ToolCardContext context();

    qint64 m_now = Start;
    EnglishPlurals m_plurals;
};

void ToolCardTest::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCoreApplication::installTranslator(&m_plurals);
}

void ToolCardTest::init()
{
    m_now = Start;
}

ToolCardContext ToolCardTest::context()
{
    return ToolCardContext{Project, [this] { return m_now; }};
}

void ToolCardTest::walksFromPendingThroughRunningToDone()
{
    ToolCard card(context());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    auto *spinner = card.findChild<ToolSpinner *>(u"toolSpinner"_s);
    QVERIFY(spinner);

    card.setPart(toolPart(u"read"_s, ToolPending{}));
    QCOMPARE(card.statusText(), u"Pending"_s);
    QVERIFY(!spinner->isAnimating());

    card.setPart(toolPart(u"read"_s, running({{"filePath"_L1, inProject(u"src/main.cpp"_s)}}, Start)));
    QCOMPARE(card.title(), u"Read src/main.cpp"_s);
    QCOMPARE(card.statusText(), u"Running 0s"_s);
    QVERIFY(spinner->isAnimating());

    card.setPart(toolPart(u"read"_s, completed({{"filePath"_L1, inProject(u"src/main.cpp"_s)}}, u"1: x"_s, {},
                                               Start, Start + 1200)));
    QCOMPARE(card.statusText(), u"Done in 1.2s"_s);
    QVERIFY(!spinner->isAnimating());
    QVERIFY(!card.isExpanded());
}

void ToolCardTest::theElapsedTimeTicksWithTheClock()
{
    ToolCard card(context());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start)));
    QCOMPARE(card.statusText(), u"Running 0s"_s);
    m_now = Start + 3400;
    QTRY_COMPARE(card.statusText(), u"Running 3s"_s);
    m_now = Start + 65000;
    QTRY_COMPARE(card.statusText(), u"Running 1m 5s"_s);
}

void ToolCardTest::theSpinnerRestsWhileTheCardIsHidden()
{
    ToolCard card(context());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start)));
    auto *spinner = card.findChild<ToolSpinner *>(u"toolSpinner"_s);
    QVERIFY(spinner->isAnimating());
    card.hide();
    QVERIFY(!spinner->isAnimating());
    card.show();
    QVERIFY(spinner->isAnimating());
    card.setPart(toolPart(u"bash"_s, failed(MakeInput, u"boom"_s, Start, Start + 10)));
    QVERIFY(!spinner->isAnimating());
}

void ToolCardTest::aFailureShowsItsErrorInRed()
{
    ToolCard card(context());
    card.show();
    card.setPart(toolPart(u"read"_s, running({{"filePath"_L1, u"/etc/shadow"_s}}, Start)));
    card.setPart(toolPart(u"read"_s, failed({{"filePath"_L1, u"/etc/shadow"_s}}, u"Permission denied: /etc/shadow"_s,
                                            Start, Start + 20)));
    QCOMPARE(card.statusText(), u"Failed"_s);
    QVERIFY(card.isExpanded());
    auto *error = card.findChild<QLabel *>(u"toolError"_s);
    QVERIFY(error);
    QVERIFY(error->isVisible());
    QCOMPARE(error->text(), u"Permission denied: /etc/shadow"_s);
    QVERIFY(error->textInteractionFlags() & Qt::TextSelectableByMouse);
    const QColor red = error->palette().color(QPalette::WindowText);
    QCOMPARE(red, ToolColors::error(card.palette()));
    QVERIFY(red.red() > red.green() && red.red() > red.blue());
    auto *status = card.findChild<QLabel *>(u"toolStatus"_s);
    QCOMPARE(status->palette().color(QPalette::WindowText), red);

    // In a dark theme the red is lighter, to stay readable.
    QPalette dark = card.palette();
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Base, QColor(0x18, 0x18, 0x18));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    card.setPalette(dark);
    const QColor darkRed = error->palette().color(QPalette::WindowText);
    QCOMPARE(darkRed, ToolColors::error(dark));
    QVERIFY(darkRed.lightness() > red.lightness());
}

void ToolCardTest::anAbortedCallSaysStopped()
{
    ToolCard card(context());
    card.show();
    QJsonObject metadata{{"output"_L1, u"compiling…\n"_s}, {"description"_L1, u"Builds the project"_s}};
    card.setPart(toolPart(u"bash"_s, failed(MakeInput, u"Tool execution aborted"_s, Start, Start + 5, metadata)));
    QCOMPARE(card.statusText(), u"Stopped"_s);
    auto *error = card.findChild<QLabel *>(u"toolError"_s);
    QCOMPARE(error->text(), u"Stopped before it finished."_s);
    QCOMPARE(error->palette().color(QPalette::WindowText), ToolColors::muted(card.palette()));
    // What it printed before it was stopped is still there.
    auto *output = card.findChild<OutputView *>(u"toolOutput"_s);
    QCOMPARE(output->textView()->toPlainText(), u"compiling…"_s);
}

void ToolCardTest::bashShowsItsCommandAndTheLiveOutput()
{
    ToolCard card(context());
    card.show();
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start, QJsonObject{{"output"_L1, u"[1/3] a.o\n"_s}})));
    QCOMPARE(card.title(), u"Run `make -j2`"_s);
    QVERIFY(card.isExpanded());
    // The title quotes the whole command: it is shown once, not again below.
    auto *input = card.findChild<OutputView *>(u"toolInput"_s);
    QVERIFY(!input || !input->isVisible());
    // A command too long for the title is shown whole below it.
    ToolCard script(context());
    script.show();
    script.setPart(toolPart(u"bash"_s, running(QJsonObject{{"command"_L1, u"cd build\nmake -j2"_s}}, Start)));
    auto *whole = script.findChild<OutputView *>(u"toolInput"_s);
    QVERIFY(whole && whole->isVisible());
    QCOMPARE(whole->textView()->toPlainText(), u"cd build\nmake -j2"_s);
    QVERIFY(whole->textView()->font().fixedPitch() || QFontInfo(whole->textView()->font()).fixedPitch());
    auto *output = card.findChild<OutputView *>(u"toolOutput"_s);
    QVERIFY(output && output->isVisible());
    QCOMPARE(output->textView()->toPlainText(), u"[1/3] a.o"_s);
}

void ToolCardTest::bashOutputIsAppendedAsItGrows()
{
    ToolCard card(context());
    card.show();
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start, QJsonObject{{"output"_L1, u"[1/3] a.o\n"_s}})));
    auto *output = card.findChild<OutputView *>(u"toolOutput"_s);
    QTextDocument *document = output->textView()->document();
    QSignalSpy changes(document, &QTextDocument::contentsChange);
    const int before = document->characterCount();
    card.setPart(
        toolPart(u"bash"_s, running(MakeInput, Start, QJsonObject{{"output"_L1, u"[1/3] a.o\n[2/3] b.o\n"_s}})));
    QCOMPARE(output->textView()->toPlainText(), u"[1/3] a.o\n[2/3] b.o"_s);
    QCOMPARE(changes.count(), 1);
    // Added at the end; nothing before it removed or laid again.
    QCOMPARE(changes.first().at(0).toInt(), before - 1);
    QCOMPARE(changes.first().at(1).toInt(), 0);
}

void ToolCardTest::aHugeOutputIsCappedAndSaysHowManyLinesWereLeftOut()
{
    ToolCard card(context());
    card.show();
    // About 5 MB of output.
    const int lines = 250000;
    QString text;
    text.reserve(lines * 21);
    for (int i = 0; i < lines; ++i)
        text += u"output line %1\n"_s.arg(i, 8, 10, QChar(u'0'));
    QVERIFY(text.size() * 2 > 5 * 1000 * 1000);
    card.setPart(toolPart(u"bash"_s, completed(MakeInput, text, {{"exit"_L1, 0}}, Start, Start + 900)));
    auto *output = card.findChild<OutputView *>(u"toolOutput"_s);
    QCOMPARE(output->shownLines(), OutputView::MaxKeptLines);
    QCOMPARE(output->totalLines(), lines);
    QCOMPARE(output->omittedLines(), lines - OutputView::MaxKeptLines);
    // The newest lines are the ones kept.
    QCOMPARE(output->textView()->document()->lastBlock().text(), u"output line %1"_s.arg(lines - 1, 8, 10, QChar(u'0')));
    auto *omitted = output->findChild<QLabel *>(u"outputOmitted"_s);
    QVERIFY(omitted->isVisible());
    QCOMPARE(omitted->text(), u"\u2026 248000 earlier lines not shown"_s);
    // The copy button still copies every line.
    QCOMPARE(output->text().size(), text.size());
}

void ToolCardTest::bashSaysItsExitCodeAndTimeout()
{
    ToolCard card(context());
    card.show();
    const QString output = u"waiting\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout 120000 ms\n"
                           "</bash_metadata>"_s;
    card.setPart(toolPart(u"bash"_s, completed(MakeInput, output, {{"exit"_L1, 143}, {"output"_L1, output}}, Start,
                                               Start + 120100)));
    auto *notes = card.findChild<QLabel *>(u"toolNotes"_s);
    QVERIFY(notes && notes->isVisible());
    QCOMPARE(notes->text(), u"Exit code 143\nStopped when it exceeded its timeout of 2m 0s."_s);
    QCOMPARE(card.findChild<OutputView *>(u"toolOutput"_s)->textView()->toPlainText(), u"waiting"_s);
}

void ToolCardTest::longOutputShowsTenLinesAndAMoreButton()
{
    ToolCard card(context());
    card.show();
    card.setPart(toolPart(u"grep"_s, completed({{"pattern"_L1, u"TODO"_s}}, numberedLines(1, 25), {{"matches"_L1, 25}},
                                               Start, Start + 30)));
    QVERIFY(!card.isExpanded());
    QSignalSpy heights(&card, &ToolCard::heightChanged);
    card.setExpanded(true);
    QVERIFY(heights.count() >= 1);
    auto *output = card.findChild<OutputView *>(u"toolOutput"_s);
    QVERIFY(output->isVisible());
    auto *more = output->findChild<QPushButton *>(u"toolMoreLines"_s);
    QVERIFY(more->isVisible());
    QCOMPARE(more->text(), u"+15 lines"_s);
    const int collapsedHeight = output->textView()->height();
    QCOMPARE(output->textView()->verticalScrollBar()->value(), 0);
    more->click();
    QVERIFY(output->isExpanded());
    QCOMPARE(more->text(), u"Show less"_s);
    QVERIFY(output->textView()->height() > collapsedHeight);
    QVERIFY(output->textView()->textInteractionFlags() & Qt::TextSelectableByMouse);
}

void ToolCardTest::aCommandsEarlierLinesButtonSitsAboveItsOutput()
{
    ToolCard card(context());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    card.setPart(toolPart(u"bash"_s, completed(MakeInput, numberedLines(1, 25), {{"exit"_L1, 0}}, Start, Start + 30)));
    auto *output = card.findChild<OutputView *>(u"toolOutput"_s);
    QVERIFY(output && output->isVisible());
    auto *more = output->findChild<QPushButton *>(u"toolMoreLines"_s);
    QVERIFY(more->isVisible());
    QCOMPARE(more->text(), u"+15 earlier lines"_s);
    QVERIFY2(more->geometry().bottom() <= output->textView()->geometry().top(),
             "the earlier lines were left out above the output");
}

void ToolCardTest::aReadShowsTheFilesLinesNumberedFromTheOffsetRead()
{
    ToolCard card(context());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    const QString output = u"<path>%1</path>\n<type>file</type>\n<content>\n120: first\n121: second\n122: third\n\n"
                           "(End of file - total 122 lines)\n</content>"_s.arg(inProject(u"notes.txt"_s));
    card.setPart(toolPart(u"read"_s, completed({{"filePath"_L1, inProject(u"notes.txt"_s)}, {"offset"_L1, 120}}, output,
                                               {}, Start, Start + 5)));
    QCOMPARE(card.title(), u"Read notes.txt"_s); // relative to the project
    card.setExpanded(true);
    auto *shown = card.findChild<OutputView *>(u"toolOutput"_s);
    QVERIFY(shown && shown->isVisible());
    QCOMPARE(shown->textView()->toPlainText(), u"first\nsecond\nthird"_s);
    OutputText *text = shown->numberedText();
    QCOMPARE(text->firstLineNumber(), 120);
    QCOMPARE(text->lineNumber(0), 120);
    QCOMPARE(text->lineNumber(2), 122);
    // The gutter takes room left of the text, and is drawn.
    auto *gutter = text->findChild<QWidget *>(u"diffGutter"_s);
    QVERIFY(gutter && gutter->isVisible());
    QVERIFY(gutter->width() > 0);
    QVERIFY(text->viewport()->geometry().left() >= gutter->geometry().right());
    // Copying takes the file's lines, not the numbers.
    QCOMPARE(shown->text(), u"first\nsecond\nthird"_s);

    // A command's output has no gutter.
    card.setPart(toolPart(u"bash"_s, completed(MakeInput, u"done"_s, {{"exit"_L1, 0}}, Start, Start + 30)));
    QCOMPARE(text->firstLineNumber(), 0);
    QVERIFY(!gutter->isVisible());
}

void ToolCardTest::aReadIsColouredAsItsLanguageWhenTheHighlighterKnowsIt()
{
    const std::unique_ptr<CodeHighlighter> highlighter = CodeHighlighter::create();
    if (!highlighter->knowsLanguage(u"main.cpp"_s))
        QSKIP("This build found no highlighting library (KSyntaxHighlighting or GNU Source-highlight)");
    ToolCardContext shared = context();
    shared.highlighter = highlighter.get();
    ToolCard card(shared);
    card.show();
    const QString output =
        u"<path>%1</path>\n<type>file</type>\n<content>\n1: // the entry point\n2: int main() { return 0; }\n</content>"_s
            .arg(inProject(u"main.cpp"_s));
    card.setPart(toolPart(u"read"_s, completed({{"filePath"_L1, inProject(u"main.cpp"_s)}}, output, {}, Start, Start + 5)));
    card.setExpanded(true);
    auto *view = card.findChild<OutputView *>(u"toolOutput"_s);
    QVERIFY(view->isHighlighted());
    // The keyword and the comment get colours of their own.
    const auto formatsOf = [view](int block) { return view->textView()->document()->findBlockByNumber(block).layout()->formats(); };
    QTRY_VERIFY(!formatsOf(0).isEmpty());
    QVERIFY(!formatsOf(1).isEmpty());

    // A file of a language nobody knows stays plain.
    const QString plain = u"<path>%1</path>\n<type>file</type>\n<content>\n1: hello\n</content>"_s.arg(
        inProject(u"notes.zzqq"_s));
    card.setPart(toolPart(u"read"_s, completed({{"filePath"_L1, inProject(u"notes.zzqq"_s)}}, plain, {}, Start, Start + 5)));
    QVERIFY(!view->isHighlighted());
}

void ToolCardTest::theKeyboardExpandsAndCollapses()
{
    ToolCard card(context());
    card.show();
    QVERIFY(QTest::qWaitForWindowExposed(&card));
    card.setPart(toolPart(u"glob"_s, completed({{"pattern"_L1, u"*.cpp"_s}}, u"a.cpp\nb.cpp"_s, {{"count"_L1, 2}}, Start,
                                               Start + 5)));
    auto *header = card.findChild<QWidget *>(u"toolHeader"_s);
    QVERIFY(header->focusPolicy() & Qt::TabFocus);
    header->setFocus();
    QSignalSpy heights(&card, &ToolCard::heightChanged);
    QTest::keyClick(header, Qt::Key_Space);
    QVERIFY(card.isExpanded());
    QVERIFY(card.findChild<OutputView *>(u"toolOutput"_s)->isVisible());
    QTest::keyClick(header, Qt::Key_Return);
    QVERIFY(!card.isExpanded());
    QTest::keyClick(header, Qt::Key_Right);
    QVERIFY(card.isExpanded());
    QTest::keyClick(header, Qt::Key_Left);
    QVERIFY(!card.isExpanded());
    QCOMPARE(heights.count(), 4);
    QTest::mouseClick(header, Qt::LeftButton);
    QVERIFY(card.isExpanded());
}

void ToolCardTest::aTaskCardOpensItsSubagentSession()
{
    ToolCard card(context());
    card.show();
    const QJsonObject input{{"description"_L1, u"Find the bug"_s}, {"prompt"_L1, u"Look"_s},
                            {"subagent_type"_L1, u"explore"_s}};
    card.setPart(toolPart(u"task"_s, running(input, Start)));
    QCOMPARE(card.title(), u"Task: Find the bug"_s);
    auto *open = card.findChild<QToolButton *>(u"toolOpenSession"_s);
    QVERIFY(open);
    QVERIFY(!open->isVisible());
    // Known as soon as the subagent starts, while the task still runs.
    card.setPart(toolPart(u"task"_s, running(input, Start, QJsonObject{{"sessionId"_L1, u"ses_child"_s}})));
    QVERIFY(open->isVisible());
    QSignalSpy opened(&card, &ToolCard::openSessionRequested);
    open->click();
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.first().first().toString(), u"ses_child"_s);

    card.setPart(toolPart(u"task"_s, completed(input, u"task_id: ses_child\n\n<task_result>\nIt was a typo.\n</task_result>"_s,
                                               {{"sessionId"_L1, u"ses_child"_s}}, Start, Start + 4000)));
    card.setExpanded(true);
    QCOMPARE(card.findChild<QLabel *>(u"toolDetails"_s)->text(), u"It was a typo."_s);
}

void ToolCardTest::todosShowAsAChecklist()
{
    ToolCard card(context());
    card.show();
    const QJsonArray todos{QJsonObject{{"content"_L1, u"Write <tests>"_s}, {"status"_L1, u"completed"_s}},
                           QJsonObject{{"content"_L1, u"Fix the bug"_s}, {"status"_L1, u"in_progress"_s}},
                           QJsonObject{{"content"_L1, u"Ship"_s}, {"status"_L1, u"pending"_s}},
                           QJsonObject{{"content"_L1, u"Gold-plate"_s}, {"status"_L1, u"cancelled"_s}}};
    card.setPart(toolPart(u"todowrite"_s, completed({{"todos"_L1, todos}}, u"[…]"_s, {{"todos"_L1, todos}}, Start,
                                                    Start + 2)));
    card.setExpanded(true);
    auto *list = card.findChild<QLabel *>(u"toolTodos"_s);
    QVERIFY(list && list->isVisible());
    const QString html = list->text();
    QVERIFY(html.contains(u"\u2713"_s));
    QVERIFY(html.contains(u"\u25d0"_s));
    QVERIFY(html.contains(u"\u25cb"_s));
    QVERIFY(html.contains(u"<s>Gold-plate</s>"_s));
    QVERIFY(html.contains(u"Write &lt;tests&gt;"_s));
    QVERIFY(!card.findChild<OutputView *>(u"toolOutput"_s) || !card.findChild<OutputView *>(u"toolOutput"_s)->isVisible());
}

void ToolCardTest::anEditShowsItsDiffAndAPendingEditTheProposedOne()
{
    ToolCard card(context());
    card.show();
    const QJsonObject input{{"filePath"_L1, inProject(u"src/a.cpp"_s)},
                            {"oldString"_L1, u"int answer = 41;"_s},
                            {"newString"_L1, u"int answer = 42;"_s}};
    // Asking permission: no diff from the tool yet, the input's own.
    card.setPart(toolPart(u"edit"_s, running(input, Start)));
    card.setExpanded(true);
    auto *diff = card.findChild<DiffView *>(u"toolDiff"_s);
    QVERIFY(diff && diff->isVisible());
    QVERIFY(diff->toPlainText().contains(u"-int answer = 41;"_s));
    QVERIFY(diff->toPlainText().contains(u"+int answer = 42;"_s));
    QVERIFY(diff->toPlainText().startsWith(u"src/a.cpp"_s));

    const QString written = u"Index: /home/ada/project/src/a.cpp\n====\n--- /home/ada/project/src/a.cpp\n"
                            "+++ /home/ada/project/src/a.cpp\n@@ -7,1 +7,1 @@\n-int answer = 41;\n+int answer = 42;\n"_s;
    card.setPart(toolPart(u"edit"_s, completed(input, u"Edit applied successfully."_s, {{"diff"_L1, written}}, Start,
                                               Start + 30)));
    QCOMPARE(diff->unifiedDiff(), written);
    QCOMPARE(card.findChildren<DiffView *>().size(), 1);
    auto *split = card.findChild<QToolButton *>(u"diffSplitToggle"_s);
    split->click();
    QVERIFY(diff->isSplitView());
    QVERIFY(diff->newSideView()->toPlainText().contains(u"+int answer = 42;"_s));
}

void ToolCardTest::aWriteOfANewFileShowsEveryLineAdded()
{
    ToolCard card(context());
    card.show();
    card.setPart(toolPart(u"write"_s, running({{"filePath"_L1, inProject(u"notes.md"_s)}, {"content"_L1, u"# Notes\nhi\n"_s}},
                                              Start)));
    card.setExpanded(true);
    auto *diff = card.findChild<DiffView *>(u"toolDiff"_s);
    QVERIFY(diff);
    QCOMPARE(diff->parsedDiff().additions, 2);
    QCOMPARE(diff->parsedDiff().deletions, 0);
    QVERIFY(diff->toPlainText().contains(u"+# Notes\n+hi"_s));
}

void ToolCardTest::aClearedOutputSaysSo()
{
    ToolCard card(context());
    card.show();
    ToolCompleted done = completed({{"pattern"_L1, u"x"_s}}, u"[Old tool result content cleared]"_s, {{"matches"_L1, 3}},
                                   Start, Start + 5);
    done.compacted = Start + 100000;
    card.setPart(toolPart(u"grep"_s, done));
    card.setExpanded(true);
    auto *notes = card.findChild<QLabel *>(u"toolNotes"_s);
    QVERIFY(notes && notes->isVisible());
    QCOMPARE(notes->text(), u"[Old tool result content cleared]"_s);
    QVERIFY(!card.findChild<OutputView *>(u"toolOutput"_s));
}

void ToolCardTest::malformedInputOrMetadataShowsTheRawJson()
{
    ToolCard card(context());
    card.show();
    card.setPart(toolPart(u"bash"_s, running({{"command"_L1, 7}}, Start, QJsonObject{{"output"_L1, QJsonArray{1}}})));
    QCOMPARE(card.title(), u"Run a command"_s);
    QVERIFY(card.findChild<OutputView *>(u"toolInput"_s)->textView()->toPlainText().contains(u"\"command\": 7"_s));

    ToolCard edit(context());
    edit.show();
    edit.setPart(toolPart(u"edit"_s, completed({{"filePath"_L1, true}}, u"ok"_s, {{"diff"_L1, 12}}, Start, Start + 1)));
    edit.setExpanded(true);
    QVERIFY(edit.findChild<OutputView *>(u"toolInput"_s)->textView()->toPlainText().contains(u"\"filePath\": true"_s));

    ToolCard mcp(context());
    mcp.show();
    mcp.setPart(toolPart(u"github_create_issue"_s, completed({{"title"_L1, u"Crash"_s}}, u"Created #12"_s, {}, Start,
                                                            Start + 1)));
    mcp.setExpanded(true);
    QVERIFY(mcp.findChild<OutputView *>(u"toolInput"_s)->textView()->toPlainText().contains(u"\"title\": \"Crash\""_s));
    QCOMPARE(mcp.findChild<OutputView *>(u"toolOutput"_s)->textView()->toPlainText(), u"Created #12"_s);

    // Not a tool part at all: ignored, not a crash.
    Part text;
    text.body = TextPart{u"hello"_s, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    mcp.setPart(text);
    QCOMPARE(mcp.title(), u"github_create_issue"_s);
}

void ToolCardTest::thePersonsChoiceToCollapseSticks()
{
    ToolCard card(context());
    card.show();
    card.setPart(toolPart(u"bash"_s, running(MakeInput, Start, QJsonObject{{"output"_L1, u"a\n"_s}})));
    QVERIFY(card.isExpanded());
    card.setExpanded(false);
    card.setPart(toolPart(u"bash"_s, failed(MakeInput, u"exit 2"_s, Start, Start + 9)));
    QVERIFY(!card.isExpanded());
}

QTEST_MAIN(ToolCardTest)
#include "tst_tool_card.moc"
