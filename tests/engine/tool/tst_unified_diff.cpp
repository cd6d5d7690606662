#include <QRandomGenerator>
#include <QTest>

#include "engine/tool/UnifiedDiff.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

// Rebuilds the new text from the old one and the hunks: proves the hunks
// say exactly what changed, whatever the algorithm chose.
QString applyHunks(const QString &oldText, const QList<UnifiedDiff::Hunk> &hunks)
{
    QStringList oldLines = oldText.split(u'\n');
    const bool oldEndsWithBreak = oldText.endsWith(u'\n') || oldText.isEmpty();
    if (oldEndsWithBreak)
        oldLines.removeLast();
    QStringList result;
    bool endsWithBreak = oldEndsWithBreak;
    qsizetype next = 0; // index into oldLines
    const auto copyOldLine = [&] {
        result.append(oldLines.at(next));
        endsWithBreak = next + 1 < oldLines.size() || oldEndsWithBreak;
        ++next;
    };
    for (const UnifiedDiff::Hunk &hunk : hunks) {
        const qsizetype start = hunk.oldLines == 0 ? hunk.oldStart : hunk.oldStart - 1;
        while (next < start)
            copyOldLine();
        for (const UnifiedDiff::Line &line : hunk.lines) {
            if (line.kind != UnifiedDiff::Line::Kind::Added) {
                if (oldLines.value(next) != line.text)
                    return u"<mismatch at old line %1>"_s.arg(next + 1);
                ++next;
            }
            if (line.kind != UnifiedDiff::Line::Kind::Removed) {
                result.append(line.text);
                endsWithBreak = !line.missingNewline;
            }
        }
    }
    while (next < oldLines.size())
        copyOldLine();
    if (result.isEmpty())
        return QString();
    return result.join(u'\n') + (endsWithBreak ? u"\n"_s : QString());
}

QString randomText(QRandomGenerator &random, int lines)
{
    QStringList out;
    for (int i = 0; i < lines; ++i)
        out.append(QString(QChar(u'a' + random.bounded(4))));
    return out.join(u'\n') + (random.bounded(2) ? u"\n"_s : QString());
}

} // namespace

class UnifiedDiffTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writesATwoFilesPatchLikeTheDiffPackage()
    {
        const QString patch = UnifiedDiff::twoFilesPatch(u"/p/a.txt"_s, u"/p/a.txt"_s, u"one\ntwo\nthree\n"_s,
                                                         u"one\n2\nthree\n"_s);
        QCOMPARE(patch, u"Index: /p/a.txt\n"
                        "===================================================================\n"
                        "--- /p/a.txt\n"
                        "+++ /p/a.txt\n"
                        "@@ -1,3 +1,3 @@\n"
                        " one\n"
                        "-two\n"
                        "+2\n"
                        " three\n"_s);
    }

    void aNewFileStartsAtLineZeroOfTheOldSide()
    {
        const QString patch = UnifiedDiff::twoFilesPatch(u"f"_s, u"f"_s, QString(), u"a\nb\n"_s);
        QVERIFY(patch.endsWith(u"@@ -0,0 +1,2 @@\n+a\n+b\n"_s));
    }

    void aMissingFinalNewlineIsMarked()
    {
        const QString patch = UnifiedDiff::twoFilesPatch(u"f"_s, u"f"_s, u"a\nb"_s, u"a\nb\n"_s);
        QVERIFY2(patch.endsWith(u"@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"_s), qPrintable(patch));
    }

    void identicalTextsHaveNoHunks()
    {
        QVERIFY(UnifiedDiff::hunks(u"a\nb\n"_s, u"a\nb\n"_s).isEmpty());
        const QString patch = UnifiedDiff::twoFilesPatch(u"f"_s, u"g"_s, u"x"_s, u"x"_s);
        QCOMPARE(patch, u"===================================================================\n--- f\n+++ g\n"_s);
    }

    void distantChangesGetTheirOwnHunksWithFourLinesOfContext()
    {
        QStringList oldLines;
        for (int i = 1; i <= 30; ++i)
            oldLines.append(QString::number(i));
        QStringList newLines = oldLines;
        newLines[1] = u"two"_s;
        newLines[27] = u"twenty-eight"_s;
        const QList<UnifiedDiff::Hunk> hunks =
            UnifiedDiff::hunks(oldLines.join(u'\n') + u'\n', newLines.join(u'\n') + u'\n');
        QCOMPARE(hunks.size(), 2);
        QCOMPARE(hunks[0].oldStart, 1);
        QCOMPARE(hunks[0].oldLines, 6); // line 1, the change, four after
        QCOMPARE(hunks[1].oldStart, 24);
        QCOMPARE(hunks[1].oldLines, 7); // four before, the change, lines 29-30
        // Changes eight unchanged lines apart share one hunk.
        newLines[10] = u"eleven"_s;
        const QList<UnifiedDiff::Hunk> merged = UnifiedDiff::hunks(oldLines.join(u'\n'), newLines.join(u'\n'));
        QCOMPARE(merged.size(), 2);
        QCOMPARE(merged[0].oldLines, 15);
    }

    void removalsComeBeforeAdditions()
    {
        const QList<UnifiedDiff::Hunk> hunks = UnifiedDiff::hunks(u"a\nb\nc\n"_s, u"x\ny\nc\n"_s);
        QCOMPARE(hunks.size(), 1);
        QStringList kinds;
        for (const UnifiedDiff::Line &line : hunks[0].lines)
            kinds.append(line.kind == UnifiedDiff::Line::Kind::Added     ? u"+"_s + line.text
                         : line.kind == UnifiedDiff::Line::Kind::Removed ? u"-"_s + line.text
                                                                         : u" "_s + line.text);
        QCOMPARE(kinds, (QStringList{u"-a"_s, u"-b"_s, u"+x"_s, u"+y"_s, u" c"_s}));
    }

    void countsAddedAndRemovedLines()
    {
        const UnifiedDiff::Counts counts = UnifiedDiff::counts(u"a\nb\nc\n"_s, u"a\nB\nc\nd\n"_s);
        QCOMPARE(counts.additions, 2);
        QCOMPARE(counts.deletions, 1);
        QCOMPARE(UnifiedDiff::counts(QString(), u"x"_s).additions, 1);
    }

    void hunksRebuildTheNewTextForRandomEdits()
    {
        QRandomGenerator random(42);
        for (int round = 0; round < 300; ++round) {
            const QString oldText = randomText(random, random.bounded(0, 25));
            const QString newText = randomText(random, random.bounded(0, 25));
            const QString rebuilt = applyHunks(oldText, UnifiedDiff::hunks(oldText, newText, random.bounded(0, 4)));
            QVERIFY2(rebuilt == newText, qPrintable(u"round %1: %2 -> %3 gave %4"_s.arg(round).arg(oldText, newText, rebuilt)));
        }
    }

    void theDiffIsMinimalForSmallInputs()
    {
        // a b c a b b a -> c b a b a c: the classic example has 5 edits.
        const UnifiedDiff::Counts counts =
            UnifiedDiff::counts(u"a\nb\nc\na\nb\nb\na\n"_s, u"c\nb\na\nb\na\nc\n"_s);
        QCOMPARE(counts.additions + counts.deletions, 5);
    }

    void largeUnrelatedFilesStillGiveACorrectDiff()
    {
        QStringList a;
        QStringList b;
        for (int i = 0; i < 6000; ++i) {
            a.append(u"old %1"_s.arg(i));
            b.append(u"new %1"_s.arg(i));
        }
        const QString oldText = a.join(u'\n') + u'\n';
        const QString newText = b.join(u'\n') + u'\n';
        const QList<UnifiedDiff::Hunk> hunks = UnifiedDiff::hunks(oldText, newText);
        QCOMPARE(applyHunks(oldText, hunks), newText);
        const UnifiedDiff::Counts counts = UnifiedDiff::counts(oldText, newText);
        QCOMPARE(counts.additions, 6000);
        QCOMPARE(counts.deletions, 6000);
    }

    void trimIndentationRemovesTheSharedIndent()
    {
        const QString patch = u"--- f\n+++ f\n@@ -1,2 +1,2 @@\n     a\n-    b\n+      c\n"_s;
        QCOMPARE(UnifiedDiff::trimIndentation(patch), u"--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n+  c\n"_s);
        const QString flush = u"@@ -1 +1 @@\n-a\n+b\n"_s;
        QCOMPARE(UnifiedDiff::trimIndentation(flush), flush);
    }
};

QTEST_GUILESS_MAIN(UnifiedDiffTest)
#include "tst_unified_diff.moc"
