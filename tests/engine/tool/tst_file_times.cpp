#include <QDateTime>
#include <QFile>
#include <QTest>

#include "engine/tool/FileTimes.h"
#include "TempTree.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

// Moves a file's modification time relative to now, so the test does not
// sleep to make a file "newer" than its read.
bool setModified(const QString &path, qint64 offsetMs)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite))
        return false;
    return file.setFileTime(QDateTime::currentDateTimeUtc().addMSecs(offsetMs), QFileDevice::FileModificationTime);
}

} // namespace

class FileTimesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aFileNeverReadIsNotWritable()
    {
        test::TempTree tree;
        QVERIFY(tree.write(u"a.txt"_s, "a"));
        FileTimes times;
        QVERIFY(!times.lastRead(u"ses_1"_s, tree.path(u"a.txt"_s)));
        const Result<void> check = times.checkWritable(u"ses_1"_s, tree.path(u"a.txt"_s));
        QVERIFY(!check.ok());
        QCOMPARE(check.errorMessage(),
                 u"You must read file %1 before overwriting it. Use the Read tool first"_s.arg(tree.path(u"a.txt"_s)));
    }

    void aReadFileIsWritableInThatSessionOnly()
    {
        test::TempTree tree;
        QVERIFY(tree.write(u"a.txt"_s, "a"));
        QVERIFY(setModified(tree.path(u"a.txt"_s), -5000));
        FileTimes times;
        const QDateTime before = QDateTime::currentDateTimeUtc();
        times.recordRead(u"ses_1"_s, tree.path(u"a.txt"_s));
        const std::optional<QDateTime> read = times.lastRead(u"ses_1"_s, tree.path(u"a.txt"_s));
        QVERIFY(read);
        QVERIFY(*read >= before);
        QVERIFY(times.checkWritable(u"ses_1"_s, tree.path(u"a.txt"_s)).ok());
        QVERIFY(!times.checkWritable(u"ses_2"_s, tree.path(u"a.txt"_s)).ok());
    }

    void pathsAreComparedCleaned()
    {
        test::TempTree tree;
        QVERIFY(tree.write(u"sub/a.txt"_s, "a"));
        FileTimes times;
        times.recordRead(u"ses_1"_s, tree.root() + u"/sub/../sub/./a.txt"_s);
        QVERIFY(times.lastRead(u"ses_1"_s, tree.path(u"sub/a.txt"_s)));
    }

    void aFileModifiedAfterTheReadIsRefusedWithBothTimes()
    {
        test::TempTree tree;
        QVERIFY(tree.write(u"a.txt"_s, "a"));
        FileTimes times;
        const QString path = tree.path(u"a.txt"_s);
        times.recordRead(u"ses_1"_s, path);
        QVERIFY(setModified(path, 10000));
        const Result<void> check = times.checkWritable(u"ses_1"_s, path);
        QVERIFY(!check.ok());
        const QString modified = QFileInfo(path).lastModified().toUTC().toString(Qt::ISODateWithMs);
        const QString read = times.lastRead(u"ses_1"_s, path)->toUTC().toString(Qt::ISODateWithMs);
        QCOMPARE(check.errorMessage(), u"File %1 has been modified since it was last read.\nLast modification: %2\n"
                                       "Last read: %3\n\nPlease read the file again before modifying it."_s
                                           .arg(path, modified, read));
        // Reading again makes it writable again.
        QVERIFY(setModified(path, -1000));
        times.recordRead(u"ses_1"_s, path);
        QVERIFY(times.checkWritable(u"ses_1"_s, path).ok());
    }

    void aWriteWithinTheToleranceStillCountsAsRead()
    {
        test::TempTree tree;
        QVERIFY(tree.write(u"a.txt"_s, "a"));
        FileTimes times;
        const QString path = tree.path(u"a.txt"_s);
        times.recordRead(u"ses_1"_s, path);
        const QDateTime read = *times.lastRead(u"ses_1"_s, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(read.addMSecs(FileTimes::ToleranceMs), QFileDevice::FileModificationTime));
        file.close();
        QVERIFY(times.checkWritable(u"ses_1"_s, path).ok());
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(read.addMSecs(FileTimes::ToleranceMs + 1), QFileDevice::FileModificationTime));
        file.close();
        QVERIFY(!times.checkWritable(u"ses_1"_s, path).ok());
    }

    void forgettingASessionDropsItsReads()
    {
        test::TempTree tree;
        QVERIFY(tree.write(u"a.txt"_s, "a"));
        FileTimes times;
        times.recordRead(u"ses_1"_s, tree.path(u"a.txt"_s));
        times.recordRead(u"ses_2"_s, tree.path(u"a.txt"_s));
        times.forgetSession(u"ses_1"_s);
        QVERIFY(!times.lastRead(u"ses_1"_s, tree.path(u"a.txt"_s)));
        QVERIFY(times.lastRead(u"ses_2"_s, tree.path(u"a.txt"_s)));
    }
};

QTEST_GUILESS_MAIN(FileTimesTest)
#include "tst_file_times.moc"
