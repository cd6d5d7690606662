#include <QSet>
#include <QTest>
#include <QThread>

#include <algorithm>

#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class IdentifierTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void hasOpenCodesShape();
    void hundredThousandInATightLoopAreUniqueAndSorted();
    void descendingSortsNewestFirst();
    void acceptsAGivenIdWithTheRightPrefix();
    void refusesAGivenIdWithTheWrongPrefix();
    void timestampRoundTrips();
    void timestampOfDescendingIdRoundTrips();
    void timestampOfGarbageIsMinusOne();
    void twoThreadsAtOnceNeverCollide();
};

void IdentifierTest::hasOpenCodesShape()
{
    const QString id = Identifier::ascending(Identifier::Prefix::Message);
    QVERIFY(id.startsWith("msg_"_L1));
    QCOMPARE(id.size(), 4 + 26);
    const QString hex = id.mid(4, 12);
    for (QChar c : hex)
        QVERIFY2((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f'), qPrintable(id));
    for (QChar c : id.mid(16))
        QVERIFY2(c.isLetterOrNumber() && c.unicode() < 128, qPrintable(id));
    QVERIFY(Identifier::ascending(Identifier::Prefix::Tool).startsWith("tool_"_L1));
    QVERIFY(Identifier::descending(Identifier::Prefix::Session).startsWith("ses_"_L1));
    QVERIFY(Identifier::ascending(Identifier::Prefix::Part).startsWith("prt_"_L1));
    QVERIFY(Identifier::ascending(Identifier::Prefix::Permission).startsWith("per_"_L1));
}

void IdentifierTest::hundredThousandInATightLoopAreUniqueAndSorted()
{
    QStringList ids;
    ids.reserve(100000);
    for (int i = 0; i < 100000; ++i)
        ids.append(Identifier::ascending(Identifier::Prefix::Part));
    QVERIFY(std::is_sorted(ids.begin(), ids.end()));
    QVERIFY(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
    // The 12 hex digits alone are strictly increasing: order never rests on the random tail.
    for (qsizetype i = 1; i < ids.size(); ++i)
        QVERIFY2(ids[i - 1].mid(4, 12) < ids[i].mid(4, 12), qPrintable(ids[i]));
}

void IdentifierTest::descendingSortsNewestFirst()
{
    QStringList ids;
    for (int i = 0; i < 5000; ++i)
        ids.append(Identifier::descending(Identifier::Prefix::Session));
    QStringList sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    std::reverse(ids.begin(), ids.end());
    QCOMPARE(sorted, ids);
}

void IdentifierTest::acceptsAGivenIdWithTheRightPrefix()
{
    const auto given = Identifier::ascending(Identifier::Prefix::Message, u"msg_custom123"_s);
    QVERIFY(given.ok());
    QCOMPARE(given.value(), u"msg_custom123"_s);
}

void IdentifierTest::refusesAGivenIdWithTheWrongPrefix()
{
    const auto given = Identifier::ascending(Identifier::Prefix::Message, u"prt_0123"_s);
    QVERIFY(!given.ok());
    QVERIFY2(given.errorMessage().contains("does not start with msg"_L1), qPrintable(given.errorMessage()));
    QVERIFY(!Identifier::ascending(Identifier::Prefix::Message, u"msgx_0123"_s).ok());
}

void IdentifierTest::timestampRoundTrips()
{
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const QString id = Identifier::ascending(Identifier::Prefix::Tool);
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    const qint64 decoded = Identifier::timestamp(id);
    QVERIFY2(decoded >= before && decoded <= after + 1, qPrintable(u"%1 not in [%2, %3]"_s.arg(decoded).arg(before).arg(after)));
}

void IdentifierTest::timestampOfDescendingIdRoundTrips()
{
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const qint64 decoded = Identifier::timestamp(Identifier::descending(Identifier::Prefix::Session));
    QVERIFY(decoded >= before && decoded <= QDateTime::currentMSecsSinceEpoch() + 1);
}

void IdentifierTest::timestampOfGarbageIsMinusOne()
{
    QCOMPARE(Identifier::timestamp(u"nonsense"_s), -1);
    QCOMPARE(Identifier::timestamp(u"msg_zzzzzzzzzzzzabc"_s), -1);
    QCOMPARE(Identifier::timestamp(u"msg_12"_s), -1);
}

void IdentifierTest::twoThreadsAtOnceNeverCollide()
{
    constexpr int PerThread = 50000;
    QStringList first, second;
    auto fill = [](QStringList *out) {
        out->reserve(PerThread);
        for (int i = 0; i < PerThread; ++i)
            out->append(Identifier::ascending(Identifier::Prefix::Part));
    };
    std::unique_ptr<QThread> a(QThread::create(fill, &first));
    std::unique_ptr<QThread> b(QThread::create(fill, &second));
    a->start();
    b->start();
    QVERIFY(a->wait(60000));
    QVERIFY(b->wait(60000));
    // Each thread sees its own ids in order, and together they are all distinct.
    QVERIFY(std::is_sorted(first.begin(), first.end()));
    QVERIFY(std::is_sorted(second.begin(), second.end()));
    // The time-ordered heads (prefix + 12 hex digits) alone never repeat
    // across threads: uniqueness does not rest on the random tail.
    QSet<QString> heads;
    for (const QStringList *list : {&first, &second}) {
        for (const QString &id : *list)
            heads.insert(id.left(16));
    }
    QCOMPARE(heads.size(), qsizetype(2 * PerThread));
}

QTEST_GUILESS_MAIN(IdentifierTest)
#include "tst_identifier.moc"
