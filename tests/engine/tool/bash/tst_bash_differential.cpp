#include <QFile>
#include <QTest>

#include "BashDifferential.h"
#include "BashLineGenerator.h"
#include "engine/tool/bash/BashLineAnalysis.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

// Random lines on top of the corpus; the seed keeps every run the same.
constexpr int GeneratedLines = 1500;
constexpr quint32 GeneratorSeed = 16;

// tests/data/bash/corpus.txt: one line per entry; {{NL}}, {{CR}} and
// {{TAB}} stand for the characters; lines starting with "%" are comments.
QStringList corpus()
{
    QFile file(QStringLiteral(QCODE_BASH_CORPUS));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines;
    for (const QByteArray &raw : file.readAll().split('\n')) {
        if (raw.isEmpty() || raw.startsWith('%'))
            continue;
        QString line = QString::fromUtf8(raw);
        line.replace(u"{{NL}}"_s, u"\n"_s).replace(u"{{CR}}"_s, u"\r"_s).replace(u"{{TAB}}"_s, u"\t"_s);
        lines.append(line);
    }
    return lines;
}

} // namespace

class BashDifferentialTest : public QObject
{
    Q_OBJECT

private:
    struct Tally {
        int lines = 0;
        int opaque = 0;
        int commands = 0;
        int timedOut = 0;
    };

    void check(BashDifferential &bash, const QString &line, Tally &tally)
    {
        ++tally.lines;
        const BashLineAnalysis analysis = BashLineAnalysis::analyze(line);
        if (analysis.isOpaque()) {
            ++tally.opaque;
            return;
        }
        const BashDifferential::Run run = bash.run(line);
        tally.timedOut += run.timedOut ? 1 : 0;
        tally.commands += int(run.executed.size());
        const QString miss = BashDifferential::missed(analysis, run.executed);
        QVERIFY2(miss.isEmpty(), qPrintable(u"line: %1\n%2"_s.arg(line, miss)));
    }

    static void report(const char *what, const Tally &tally)
    {
        qInfo("%s: %d lines, %d judged whole, %d run by bash (%d commands executed, %d timed out)", what,
              tally.lines, tally.opaque, tally.lines - tally.opaque, tally.commands, tally.timedOut);
    }

private Q_SLOTS:
    void theRecorderSeesWhatBashRuns()
    {
        BashDifferential bash;
        if (bash.bashMissing())
            QSKIP("bash is not installed: nothing to compare the checker with");
        QVERIFY2(bash.isReady(), qPrintable(bash.error()));
        const BashDifferential::Run run = bash.run(u"echo a 'b c'; x1 $(printf q) > out; [ -f out ]"_s);
        QCOMPARE(run.executed,
                 (QList<QStringList>{{u"echo"_s, u"a"_s, u"b c"_s}, {u"printf"_s, u"q"_s}, {u"x1"_s},
                                     {u"["_s, u"-f"_s, u"out"_s, u"]"_s}}));
    }

    void theCheckerReportsEveryCommandBashRunsForTheCorpus()
    {
        BashDifferential bash;
        if (bash.bashMissing())
            QSKIP("bash is not installed: nothing to compare the checker with");
        QVERIFY2(bash.isReady(), qPrintable(bash.error()));
        const QStringList lines = corpus();
        QVERIFY2(lines.size() >= 300, "the corpus file is missing or short");
        Tally tally;
        for (const QString &line : lines) {
            check(bash, line, tally);
            if (QTest::currentTestFailed())
                return;
        }
        report("corpus", tally);
    }

    void theCheckerReportsEveryCommandBashRunsForGeneratedLines()
    {
        BashDifferential bash;
        if (bash.bashMissing())
            QSKIP("bash is not installed: nothing to compare the checker with");
        QVERIFY2(bash.isReady(), qPrintable(bash.error()));
        BashLineGenerator generator(GeneratorSeed);
        Tally tally;
        for (int k = 0; k < GeneratedLines; ++k) {
            check(bash, generator.line(), tally);
            if (QTest::currentTestFailed())
                return;
        }
        report("generated", tally);
        // The generator must give bash work, not only opaque lines.
        QVERIFY(tally.lines - tally.opaque > GeneratedLines / 4);
    }

    // A miss is reported: the comparison itself can fail.
    void aCommandTheCheckerDidNotReportIsAMiss()
    {
        const BashLineAnalysis analysis = BashLineAnalysis::analyze(u"echo a"_s);
        QCOMPARE(BashDifferential::missed(analysis, {{u"echo"_s, u"a"_s}}), QString());
        QVERIFY(!BashDifferential::missed(analysis, {{u"rm"_s, u"x"_s}}).isEmpty());
        QVERIFY(!BashDifferential::missed(analysis, {{u"echo"_s, u"b"_s}}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(BashDifferentialTest)
#include "tst_bash_differential.moc"
