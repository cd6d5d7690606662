#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>

#include "ToolParts.h"
#include "ui/chat/tool/DiffGutter.h"
#include "ui/chat/tool/DiffParser.h"
#include "ui/chat/tool/DiffView.h"
#include "ui/chat/tool/ToolColors.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// As UnifiedDiff::twoFilesPatch writes it.
const QString Patch = u"Index: /p/src/a.cpp\n"
                      "===================================================================\n"
                      "--- /p/src/a.cpp\n"
                      "+++ /p/src/a.cpp\n"
                      "@@ -1,4 +1,5 @@\n"
                      " #include <a>\n"
                      "-int answer = 41;\n"
                      "+int answer = 42;\n"
                      " int main()\n"
                      "-{}\n"
                      "+{ return answer; }\n"
                      "+// end\n"_s;

QTextBlock blockWithText(const QPlainTextEdit &view, const QString &text)
{
    for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
        if (block.text() == text)
            return block;
    }
    return {};
}

QString markedText(const QTextBlock &block, const QColor &mark)
{
    QString marked;
    for (auto it = block.begin(); !it.atEnd(); ++it) {
        const QTextFragment fragment = it.fragment();
        if (fragment.charFormat().background().color() == mark)
            marked += fragment.text();
    }
    return marked;
}

QString hugeDiff(int lines)
{
    QString diff = u"--- /dev/null\n+++ big.txt\n@@ -0,0 +1,%1 @@\n"_s.arg(lines);
    for (int i = 0; i < lines; ++i)
        diff += u"+line %1\n"_s.arg(i);
    return diff;
}

} // namespace

class DiffViewTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void parserCountsEachFilesChanges();
    void parserNumbersTheLinesOfEachHunk();
    void aRemovedLineThatLooksLikeAHeaderStaysARemovedLine();
    void unnumberedHunksAndStrayTextAreKept();
    void onlyAlikeLinesGetTheirChangeMarked();
    void addedAndRemovedLinesGetTintedBackgrounds();
    void anEditedLineMarksWhatChanged();
    void theFileHeaderNamesTheFileRelativeToTheProject();
    void theGutterNumbersOldAndNewLines();
    void splitViewShowsOldAndNewSideBySide();
    void leavingTheSplitViewShowsOneColumnAgain();
    void aHugeDiffShowsItsSummaryFirst();
    void settingTheSameDiffAgainDoesNotRelayIt();

private:
    EnglishPlurals m_plurals;
};

void DiffViewTest::initTestCase()
{
    QCoreApplication::installTranslator(&m_plurals);
}

void DiffViewTest::parserCountsEachFilesChanges()
{
    const QString two = Patch + u"\nIndex: /p/b.txt\n====\n--- /p/b.txt\n+++ /p/b.txt\n@@ -1,1 +0,0 @@\n-gone\n"_s;
    const ParsedDiff parsed = DiffParser::parse(two);
    QCOMPARE(parsed.files.size(), 2);
    QCOMPARE(parsed.files.at(0).path, u"/p/src/a.cpp"_s);
    QCOMPARE(parsed.files.at(0).additions, 3);
    QCOMPARE(parsed.files.at(0).deletions, 2);
    QCOMPARE(parsed.files.at(1).deletions, 1);
    QCOMPARE(parsed.additions, 3);
    QCOMPARE(parsed.deletions, 3);
    const ParsedDiff summary = DiffParser::summarize(two);
    QCOMPARE(summary.lines.size(), 0);
    QCOMPARE(summary.additions, 3);
    QCOMPARE(summary.files.size(), 2);
}

void DiffViewTest::parserNumbersTheLinesOfEachHunk()
{
    const ParsedDiff parsed = DiffParser::parse(u"--- a\n+++ a\n@@ -10,3 +12,3 @@\n x\n-y\n+z\n w\n"_s);
    QCOMPARE(parsed.lines.size(), 6);
    QCOMPARE(parsed.lines.at(0).kind, DiffLine::Kind::FileHeader);
    QCOMPARE(parsed.lines.at(1).kind, DiffLine::Kind::HunkHeader);
    QCOMPARE(parsed.lines.at(2).oldNumber, 10);
    QCOMPARE(parsed.lines.at(2).newNumber, 12);
    QCOMPARE(parsed.lines.at(3).kind, DiffLine::Kind::Removed);
    QCOMPARE(parsed.lines.at(3).oldNumber, 11);
    QCOMPARE(parsed.lines.at(3).newNumber, 0);
    QCOMPARE(parsed.lines.at(4).kind, DiffLine::Kind::Added);
    QCOMPARE(parsed.lines.at(4).newNumber, 13);
    QCOMPARE(parsed.lines.at(5).oldNumber, 12);
    QCOMPARE(parsed.lines.at(5).newNumber, 14);
}

void DiffViewTest::aRemovedLineThatLooksLikeAHeaderStaysARemovedLine()
{
    const ParsedDiff parsed = DiffParser::parse(u"--- a\n+++ a\n@@ -1,2 +1,2 @@\n--- old rule\n+++ new rule\n"_s);
    QCOMPARE(parsed.files.size(), 1);
    QCOMPARE(parsed.lines.at(2).kind, DiffLine::Kind::Removed);
    QCOMPARE(parsed.lines.at(2).text, u"-- old rule"_s);
    QCOMPARE(parsed.lines.at(3).kind, DiffLine::Kind::Added);
}

void DiffViewTest::unnumberedHunksAndStrayTextAreKept()
{
    const ParsedDiff parsed = DiffParser::parse(u"something odd\n--- a\n+++ a\n@@ @@\n-x\n+y\n\\ No newline at end of file\n"_s);
    QCOMPARE(parsed.lines.first().kind, DiffLine::Kind::Note);
    QCOMPARE(parsed.lines.first().text, u"something odd"_s);
    const DiffLine &removed = parsed.lines.at(3);
    QCOMPARE(removed.kind, DiffLine::Kind::Removed);
    QCOMPARE(removed.oldNumber, 0);
    QCOMPARE(parsed.lines.last().kind, DiffLine::Kind::Note);
    QCOMPARE(parsed.lines.last().text, u"No newline at end of file"_s);
}

void DiffViewTest::onlyAlikeLinesGetTheirChangeMarked()
{
    const DiffParser::Changed changed = DiffParser::changedRange(u"    int answer = 41;"_s, u"    int answer = 42;"_s);
    QCOMPARE(changed.oldStart, 18);
    QCOMPARE(changed.oldLength, 1);
    QCOMPARE(changed.newLength, 1);
    const DiffParser::Changed inserted = DiffParser::changedRange(u"call(a)"_s, u"call(a, b)"_s);
    QCOMPARE(inserted.newStart, 6);
    QCOMPARE(inserted.newLength, 3);
    QCOMPARE(inserted.oldLength, 0);
    QCOMPARE(DiffParser::changedRange(u"    alpha"_s, u"    omega beta"_s).oldStart, -1);
}

void DiffViewTest::addedAndRemovedLinesGetTintedBackgrounds()
{
    DiffView view;
    view.setUnifiedDiff(Patch);
    const QTextBlock added = blockWithText(view, u"+// end"_s);
    const QTextBlock removed = blockWithText(view, u"-{}"_s);
    const QTextBlock context = blockWithText(view, u" int main()"_s);
    QVERIFY(added.isValid() && removed.isValid() && context.isValid());
    QCOMPARE(added.blockFormat().background().color(), ToolColors::addedBackground(view.palette()));
    QCOMPARE(removed.blockFormat().background().color(), ToolColors::removedBackground(view.palette()));
    QCOMPARE(context.blockFormat().background().style(), Qt::NoBrush);
    QVERIFY(view.isReadOnly());
}

void DiffViewTest::anEditedLineMarksWhatChanged()
{
    DiffView view;
    view.setUnifiedDiff(Patch);
    QCOMPARE(markedText(blockWithText(view, u"+int answer = 42;"_s), ToolColors::addedEmphasis(view.palette())), u"2"_s);
    QCOMPARE(markedText(blockWithText(view, u"-int answer = 41;"_s), ToolColors::removedEmphasis(view.palette())),
             u"1"_s);
    QCOMPARE(markedText(blockWithText(view, u"+// end"_s), ToolColors::addedEmphasis(view.palette())), QString());
}

void DiffViewTest::theFileHeaderNamesTheFileRelativeToTheProject()
{
    DiffView view;
    view.setProjectDirectory(u"/p"_s);
    view.setUnifiedDiff(Patch);
    QCOMPARE(view.document()->firstBlock().text(), u"src/a.cpp  +3 \u22122"_s);
    QCOMPARE(view.summaryText(), u"+3 \u22122 in 1 file"_s);
}

void DiffViewTest::theGutterNumbersOldAndNewLines()
{
    DiffView view;
    view.setUnifiedDiff(Patch);
    auto *gutter = view.findChild<DiffGutter *>();
    QVERIFY(gutter);
    const int added = blockWithText(view, u"+int answer = 42;"_s).blockNumber();
    const int context = blockWithText(view, u" int main()"_s).blockNumber();
    QCOMPARE(gutter->numbers(added), std::pair(0, 2));
    QCOMPARE(gutter->numbers(context), std::pair(3, 3));
}

void DiffViewTest::splitViewShowsOldAndNewSideBySide()
{
    DiffView view;
    view.resize(800, 300);
    view.setUnifiedDiff(Patch);
    view.setSplitView(true);
    QPlainTextEdit *newSide = view.newSideView();
    QVERIFY(newSide);
    QCOMPARE(newSide->document()->blockCount(), view.document()->blockCount());
    const QTextBlock oldLine = blockWithText(view, u"-int answer = 41;"_s);
    QVERIFY(oldLine.isValid());
    QCOMPARE(newSide->document()->findBlockByNumber(oldLine.blockNumber()).text(), u"+int answer = 42;"_s);
    // "+// end" has no old counterpart: a blank filler row on the left.
    const QTextBlock end = blockWithText(*newSide, u"+// end"_s);
    QVERIFY(end.isValid());
    const QTextBlock filler = view.document()->findBlockByNumber(end.blockNumber());
    QCOMPARE(filler.text(), QString());
    QCOMPARE(filler.blockFormat().background().color(), ToolColors::fillerBackground(view.palette()));
    QVERIFY(newSide->geometry().left() >= view.width() / 2 - 2);
}

void DiffViewTest::leavingTheSplitViewShowsOneColumnAgain()
{
    DiffView view;
    view.setUnifiedDiff(Patch);
    view.setSplitView(true);
    view.setSplitView(false);
    QCOMPARE(view.newSideView(), nullptr);
    QVERIFY(blockWithText(view, u"-int answer = 41;"_s).isValid());
    QVERIFY(blockWithText(view, u"+int answer = 42;"_s).isValid());
}

void DiffViewTest::aHugeDiffShowsItsSummaryFirst()
{
    DiffView view;
    view.setUnifiedDiff(hugeDiff(DiffView::HugeLines + 1000));
    QVERIFY(view.isShowingSummary());
    QCOMPARE(view.summaryText(), u"+6000 \u22120 in 1 file"_s);
    QCOMPARE(view.document()->firstBlock().text(), view.summaryText());
    QVERIFY(view.document()->blockCount() < 5);
    auto *showAll = view.findChild<QPushButton *>(u"diffShowAll"_s);
    QVERIFY(showAll);
    QVERIFY(!showAll->isHidden());

    QSignalSpy finished(&view, &DiffView::renderingFinished);
    showAll->click();
    QVERIFY(!view.isShowingSummary());
    // Laid a chunk at a time from the event loop.
    QVERIFY(view.isRendering());
    QVERIFY(finished.wait());
    QCOMPARE(view.document()->blockCount(), DiffView::HugeLines + 1000 + 2);
    QVERIFY(showAll->isHidden());
}

void DiffViewTest::settingTheSameDiffAgainDoesNotRelayIt()
{
    DiffView view;
    view.setUnifiedDiff(Patch);
    QSignalSpy changes(view.document(), &QTextDocument::contentsChange);
    view.setUnifiedDiff(QString(Patch));
    QCOMPARE(changes.count(), 0);
}

QTEST_MAIN(DiffViewTest)
#include "tst_diff_view.moc"
