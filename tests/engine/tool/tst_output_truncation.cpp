#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include "TempTree.h"
#include "engine/tool/OutputTruncation.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QString numberedLines(int count, const QString &prefix = u"line"_s)
{
    QStringList lines;
    for (int i = 0; i < count; ++i)
        lines.append(prefix + QString::number(i));
    return lines.join(u'\n');
}

QString readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

bool touch(const QString &path, const QDateTime &modified)
{
    QFile file(path);
    // Flushed first: writing at close would stamp the time anew.
    if (!file.open(QIODevice::WriteOnly) || file.write("saved") != 5 || !file.flush())
        return false;
    return file.setFileTime(modified, QFileDevice::FileModificationTime);
}

} // namespace

// Reference 12.7 (test/tool/truncation.test.ts) and the cleanup of saved
// outputs.
class OutputTruncationTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void limitsAreOpenCodes()
    {
        QCOMPARE(OutputTruncation::MaxLines, qsizetype(2000));
        QCOMPARE(OutputTruncation::MaxBytes, qsizetype(51200));
        QCOMPARE(OutputTruncation::RetentionDays, qint64(7));
    }

    void outputUnderTheLimitsIsUnchanged()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        const QString text = numberedLines(2000);
        const auto result = truncation.truncate(text, true);
        QCOMPARE(result.content, text);
        QVERIFY(!result.truncated);
        QVERIFY(result.outputPath.isEmpty());
        QVERIFY(!QFileInfo::exists(truncation.directory()));
    }

    void tooManyLinesSaysHowManyWereCut()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        const auto result = truncation.truncate(numberedLines(100), true, {10, OutputTruncation::MaxBytes, {}});
        QVERIFY(result.truncated);
        QVERIFY(result.content.contains("...90 lines truncated..."_L1));
        QVERIFY(result.content.startsWith(numberedLines(10) + "\n\n...90"_L1));
    }

    void tooManyBytesSaysHowManyBytesWereCut()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        const QString text = QString(1000, u'a') + u'\n' + QString(10, u'b');
        const auto result = truncation.truncate(text, true, {OutputTruncation::MaxLines, 100, {}});
        QVERIFY(result.truncated);
        // Nothing fits: the first line alone is over the limit.
        QVERIFY2(result.content.startsWith("\n\n...1011 bytes truncated..."_L1), qPrintable(result.content));
    }

    void aLargeSingleLineIsCutByBytes()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        QString json = u"{\"items\":["_s;
        for (int i = 0; i < 20000; ++i)
            json += u"{\"id\":%1},"_s.arg(i);
        json += u"{}]}"_s;
        const auto result = truncation.truncate(json, false);
        QVERIFY(result.truncated);
        QVERIFY(result.content.contains("bytes truncated..."_L1));
        QCOMPARE(readAll(result.outputPath), json);
    }

    void bytesAreCountedInUtf8()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        // 30 lines of 1000 "é" (2 bytes each): 60 KB although 30 KB of
        // characters.
        QStringList lines;
        for (int i = 0; i < 30; ++i)
            lines.append(QString(1000, QChar(0xE9)));
        const auto result = truncation.truncate(lines.join(u'\n'), false);
        QVERIFY(result.truncated);
        // 25 lines take 50000 + 24 bytes; a 26th would pass 51200.
        QVERIFY2(result.content.startsWith(lines.mid(0, 25).join(u'\n') + "\n\n..."_L1), qPrintable(result.content.right(300)));
        QVERIFY(result.content.contains(u"...%1 bytes truncated..."_s.arg(60029 - 50024)));
    }

    void headModeKeepsTheStart()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        const auto result = truncation.truncate(numberedLines(10), true, {3, OutputTruncation::MaxBytes, {}});
        QVERIFY(result.content.contains("line0\nline1\nline2\n"_L1));
        QVERIFY(!result.content.contains("line9"_L1));
    }

    void tailModeKeepsTheEndAfterTheNotice()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        const auto result =
            truncation.truncate(numberedLines(10), true, {3, OutputTruncation::MaxBytes, OutputTruncation::Direction::Tail});
        QVERIFY(result.content.endsWith("\n\nline7\nline8\nline9"_L1));
        QVERIFY(result.content.startsWith("...7 lines truncated...\n\n"_L1));
        QVERIFY(!result.content.contains("line0"_L1));
    }

    void theFullOutputIsSavedUnderToolOutput()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        const QString text = numberedLines(3000);
        const auto result = truncation.truncate(text, false);
        QVERIFY(result.truncated);
        QVERIFY(result.outputPath.contains("tool_"_L1));
        QCOMPARE(QFileInfo(result.outputPath).absolutePath(), QDir::cleanPath(data.root() + "/tool-output"_L1));
        QCOMPARE(readAll(result.outputPath), text);
        QVERIFY(result.content.contains("The tool call succeeded but the output was truncated"_L1));
        QVERIFY(result.content.contains("Full output saved to: "_L1 + result.outputPath));
        QVERIFY(result.content.contains("...1000 lines truncated..."_L1));
    }

    void savedOutputsGetAscendingNames()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        const auto first = truncation.truncate(numberedLines(3000), false);
        const auto second = truncation.truncate(numberedLines(3001), false);
        QVERIFY(QFileInfo(first.outputPath).fileName() < QFileInfo(second.outputPath).fileName());
        QCOMPARE(readAll(second.outputPath), numberedLines(3001));
    }

    void theHintSuggestsTheTaskToolOnlyWhenTheAgentMayUseIt()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        const auto delegating = truncation.truncate(numberedLines(3000), true);
        QVERIFY(delegating.content.contains("Use the Task tool to have explore agent process this file"_L1));
        QVERIFY(delegating.content.contains("Grep"_L1));
        const auto alone = truncation.truncate(numberedLines(3000), false);
        QVERIFY(!alone.content.contains("Task tool"_L1));
        QVERIFY(alone.content.contains(
            "Use Grep to search the full content or Read with offset/limit to view specific sections."_L1));
    }

    void anUnsavableOutputIsStillCutAndSaysSo()
    {
        test::TempTree data;
        // A file where the folder should be.
        QVERIFY(data.write(u"tool-output"_s, "in the way"));
        const OutputTruncation truncation(data.root());
        const auto result = truncation.truncate(numberedLines(3000), true);
        QVERIFY(result.truncated);
        QVERIFY(result.outputPath.isEmpty());
        QVERIFY(result.content.contains("the full output could not be saved"_L1));
        QVERIFY(!result.content.contains("Full output saved to"_L1));
        QVERIFY(result.content.startsWith("line0\n"_L1));

        const OutputTruncation nowhere{QString()};
        QVERIFY(nowhere.truncate(numberedLines(3000), true).outputPath.isEmpty());
    }

    void removesSavedOutputsOlderThanAWeek()
    {
        test::TempTree data;
        const OutputTruncation truncation(data.root());
        QVERIFY(QDir().mkpath(truncation.directory()));
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const QDir dir(truncation.directory());
        QVERIFY(touch(dir.filePath(u"tool_old"_s), now.addDays(-8)));
        QVERIFY(touch(dir.filePath(u"tool_almost"_s), now.addDays(-6)));
        QVERIFY(touch(dir.filePath(u"tool_new"_s), now));
        QVERIFY(touch(dir.filePath(u"notes.txt"_s), now.addDays(-30)));

        QCOMPARE(truncation.removeExpired(now), 1);
        QVERIFY(!QFileInfo::exists(dir.filePath(u"tool_old"_s)));
        QVERIFY(QFileInfo::exists(dir.filePath(u"tool_almost"_s)));
        QVERIFY(QFileInfo::exists(dir.filePath(u"tool_new"_s)));
        QVERIFY(QFileInfo::exists(dir.filePath(u"notes.txt"_s)));

        // A week later the rest expires too.
        QCOMPARE(truncation.removeExpired(now.addDays(8)), 2);
        QVERIFY(QFileInfo::exists(dir.filePath(u"notes.txt"_s)));
    }

    void cleanupWithoutTheFolderRemovesNothing()
    {
        test::TempTree data;
        QCOMPARE(OutputTruncation(data.root()).removeExpired(), 0);
    }
};

QTEST_GUILESS_MAIN(OutputTruncationTest)
#include "tst_output_truncation.moc"
