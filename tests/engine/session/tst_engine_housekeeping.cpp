// The engine's housekeeping: saved tool outputs past their week go, on a
// schedule, without the engine waiting on the folder scan.

#include <QtTest>

#include <QDir>
#include <QFile>

#include "EngineHarness.h"
#include "engine/tool/OutputTruncation.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class EngineHousekeepingTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void savedToolOutputsPastTheirWeekAreRemovedOnSchedule()
    {
        EngineHarness::Setup setup;
        setup.housekeepingInterval = std::chrono::milliseconds(50);
        EngineHarness h(setup);
        const QString folder = OutputTruncation(h.tree().path(u"data"_s)).directory();
        QVERIFY(QDir().mkpath(folder));
        const auto saved = [&folder](const QString &name, int daysOld) {
            QFile file(QDir(folder).filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("output");
            file.flush(); // else closing writes it and the time is now again
            QVERIFY(file.setFileTime(QDateTime::currentDateTimeUtc().addDays(-daysOld), QFileDevice::FileModificationTime));
        };
        saved(u"tool_old"_s, 8);
        saved(u"tool_recent"_s, 2);
        saved(u"notes.txt"_s, 30); // not a saved output: not ours to remove

        QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(QDir(folder).filePath(u"tool_old"_s)), 5000);
        QVERIFY(QFile::exists(QDir(folder).filePath(u"tool_recent"_s)));
        QVERIFY(QFile::exists(QDir(folder).filePath(u"notes.txt"_s)));
    }
};

QTEST_GUILESS_MAIN(EngineHousekeepingTest)
#include "tst_engine_housekeeping.moc"
