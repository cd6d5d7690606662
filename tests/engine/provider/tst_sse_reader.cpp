// SseReader follows the WHATWG event-stream rules whatever the reads look
// like, and stays bounded when a server misbehaves.

#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTest>

#include "ProviderTranscript.h"
#include "engine/provider/SseReader.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QList<SseEvent> readAll(const QByteArray &body, const QList<qsizetype> &cuts = {}, qsizetype ceiling = SseReader::DefaultMaxEventBytes)
{
    SseReader reader(ceiling);
    QList<SseEvent> events;
    qsizetype from = 0;
    for (qsizetype cut : cuts) {
        if (cut <= from || cut >= body.size())
            continue;
        events.append(reader.append(QByteArrayView(body).sliced(from, cut - from)));
        from = cut;
    }
    events.append(reader.append(QByteArrayView(body).sliced(from)));
    events.append(reader.flush());
    return events;
}

QList<SseEvent> readByteByByte(const QByteArray &body)
{
    QList<qsizetype> cuts;
    for (qsizetype i = 1; i < body.size(); ++i)
        cuts.append(i);
    return readAll(body, cuts);
}

SseEvent sse(const QByteArray &data, const QString &type = {}, const QString &id = {}, std::optional<int> retry = {})
{
    return SseEvent{type, data, id, retry};
}

} // namespace

class TestSseReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void dispatchesAnEventAtEachBlankLine()
    {
        const auto events = readAll("data: one\n\ndata: two\n\n");
        QCOMPARE(events, (QList<SseEvent>{sse("one"), sse("two")}));
    }

    void splitsLinesOnCrLf()
    {
        QCOMPARE(readAll("data: one\r\n\r\ndata: two\r\n\r\n"), (QList<SseEvent>{sse("one"), sse("two")}));
    }

    void splitsLinesOnLoneCr()
    {
        QCOMPARE(readAll("data: one\r\rdata: two\r\r"), (QList<SseEvent>{sse("one"), sse("two")}));
    }

    void treatsCrEndingOneReadAndLfStartingTheNextAsOneLineEnding()
    {
        const QByteArray body = "data: one\r\n\r\ndata: two\r\n\r\n";
        // Cut right after each CR: a reader that took CR and LF as two
        // endings would see a blank line and dispatch too early or twice.
        QCOMPARE(readAll(body, {10}), (QList<SseEvent>{sse("one"), sse("two")}));
        QCOMPARE(readAll(body, {10, 12}), (QList<SseEvent>{sse("one"), sse("two")}));
        QCOMPARE(readAll("data: a\r\ndata: b\r\n\r\n", {8}), QList<SseEvent>{sse("a\nb")});
    }

    void mixesLineEndingStylesInOneBody()
    {
        QCOMPARE(readAll("data: a\r\ndata: b\rdata: c\n\r\n"), QList<SseEvent>{sse("a\nb\nc")});
    }

    void dropsAUtf8BomAtTheStartOfTheStream()
    {
        QCOMPARE(readAll("\xEF\xBB\xBF" "data: x\n\n"), QList<SseEvent>{sse("x")});
    }

    void dropsABomSplitAcrossReads()
    {
        const QByteArray body = "\xEF\xBB\xBF" "data: x\n\n";
        QCOMPARE(readAll(body, {1}), QList<SseEvent>{sse("x")});
        QCOMPARE(readAll(body, {1, 2}), QList<SseEvent>{sse("x")});
        QCOMPARE(readByteByByte(body), QList<SseEvent>{sse("x")});
    }

    void keepsBomBytesThatAreNotAtTheStart()
    {
        // Only the first bytes of the stream can be a BOM; later they are
        // part of a field name, which then is not "data".
        SseReader reader;
        QList<SseEvent> events = reader.append("data: x\n\n\xEF\xBB\xBF" "data: y\n\n");
        events.append(reader.flush());
        QCOMPARE(events, QList<SseEvent>{sse("x")});
        QCOMPARE(reader.statistics().ignoredLines, 1);
    }

    void joinsMultiLineDataWithNewlines()
    {
        QCOMPARE(readAll("data: {\ndata:  \"a\": 1\ndata: }\n\n"), QList<SseEvent>{sse("{\n \"a\": 1\n}")});
    }

    void removesOnlyOneSpaceAfterTheColon()
    {
        QCOMPARE(readAll("data:x\n\ndata:  y\n\n"), (QList<SseEvent>{sse("x"), sse(" y")}));
    }

    void countsCommentsAndNeverDispatchesThem()
    {
        SseReader reader;
        QList<SseEvent> events = reader.append(": OPENROUTER PROCESSING\n\n:\ndata: x\n: inside\n\n");
        events.append(reader.flush());
        QCOMPARE(events, QList<SseEvent>{sse("x")});
        QCOMPARE(reader.statistics().comments, 3);
    }

    void readsEventTypeIdAndRetry()
    {
        QCOMPARE(readAll("event: message_start\nid: 7\nretry: 3000\ndata: {}\n\n"),
                 QList<SseEvent>{sse("{}", u"message_start"_s, u"7"_s, 3000)});
    }

    void resetsTheEventTypeButKeepsTheLastIdAfterDispatch()
    {
        QCOMPARE(readAll("event: a\nid: 1\ndata: x\n\ndata: y\n\n"),
                 (QList<SseEvent>{sse("x", u"a"_s, u"1"_s), sse("y", {}, u"1"_s)}));
    }

    // The sink gets the reader's own event, whose buffers the next event
    // reuses: a copy taken in the sink keeps what it saw, and a short event
    // after a long one carries nothing of it.
    void aCopyTakenInTheSinkOutlivesTheReusedEvent()
    {
        SseReader reader;
        QList<SseEvent> copies;
        const SseReader::Sink keep = [&copies](const SseEvent &event) { copies.append(event); };
        reader.append("event: a\ndata: a long first payload\n\nevent: a\ndata: x\n\n", keep);
        reader.append("event: b\nretry: 5\ndata: y\n\nda", keep);
        reader.append("ta: z\n\n", keep);
        reader.flush(keep);
        QCOMPARE(copies, (QList<SseEvent>{sse("a long first payload", u"a"_s), sse("x", u"a"_s),
                                          sse("y", u"b"_s, {}, 5), sse("z")}));
    }

    void ignoresRetryThatIsNotAllDigits()
    {
        QCOMPARE(readAll("retry: 12a\ndata: x\n\n"), QList<SseEvent>{sse("x")});
    }

    void ignoresAnIdContainingNul()
    {
        static constexpr char Body[] = "id: 5\ndata: x\n\nid: a\0b\ndata: y\n\n";
        QCOMPARE(readAll(QByteArray(Body, sizeof Body - 1)),
                 (QList<SseEvent>{sse("x", {}, u"5"_s), sse("y", {}, u"5"_s)}));
    }

    void dispatchesNothingForABlockWithoutData()
    {
        QCOMPARE(readAll("id: 1\nretry: 10\n\nevent: ping\n\n"), QList<SseEvent>{});
    }

    void dispatchesAnEmptyDataLineAsAnEmptyEvent()
    {
        QCOMPARE(readAll("data:\n\ndata\n\n"), (QList<SseEvent>{sse(""), sse("")}));
    }

    void ignoresUnknownFieldsAndKeepsThemAsUnframedText()
    {
        SseReader reader;
        QList<SseEvent> events = reader.append("x-unknown: 1\ndata: x\n\n{\n  \"error\": {}\n}\n");
        events.append(reader.flush());
        QCOMPARE(events, QList<SseEvent>{sse("x")});
        QCOMPARE(reader.statistics().ignoredLines, 4);
        QCOMPARE(reader.takeUnframedText(), QByteArray("x-unknown: 1\n{\n  \"error\": {}\n}"));
        QCOMPARE(reader.takeUnframedText(), QByteArray());
    }

    void keepsMultiByteCharactersSplitAcrossReads()
    {
        const QByteArray body = u"event: é\ndata: 世界 🦊\n\n"_s.toUtf8();
        const QList<SseEvent> expected{sse(u"世界 🦊"_s.toUtf8(), u"é"_s)};
        QCOMPARE(readByteByByte(body), expected);
        for (qsizetype cut = 1; cut < body.size(); ++cut)
            QCOMPARE(readAll(body, {cut}), expected);
    }

    void flushDispatchesAnEventTheBodyDidNotEndWithABlankLine()
    {
        SseReader reader;
        QCOMPARE(reader.append("data: a\n\ndata: b\n"), QList<SseEvent>{sse("a")});
        QCOMPARE(reader.flush(), QList<SseEvent>{sse("b")});
        QVERIFY(reader.statistics().pendingAtEnd);
    }

    void flushCompletesAnUnterminatedLastLine()
    {
        SseReader reader;
        QCOMPARE(reader.append("data: a"), QList<SseEvent>{});
        QCOMPARE(reader.flush(), QList<SseEvent>{sse("a")});
    }

    void stopsWithAnErrorWhenALineExceedsTheCeiling()
    {
        SseReader reader(64);
        QCOMPARE(reader.append("data: ok\n\n"), QList<SseEvent>{sse("ok")});
        QVERIFY(!reader.error());
        // Arrives in pieces, never ends: the reader must not keep growing.
        for (int i = 0; i < 10; ++i)
            reader.append(QByteArray(20, 'x'));
        QVERIFY(reader.error());
        QVERIFY(reader.error()->message.contains(u"64"_s));
        QCOMPARE(reader.append("\n\ndata: later\n\n"), QList<SseEvent>{});
        QCOMPARE(reader.flush(), QList<SseEvent>{});
    }

    void stopsWithAnErrorWhenOneReadHoldsALineOverTheCeiling()
    {
        SseReader reader(64);
        QCOMPARE(reader.append(QByteArray("data: " + QByteArray(100, 'x') + "\n\n")), QList<SseEvent>{});
        QVERIFY(reader.error());
    }

    void stopsWithAnErrorWhenAnEventsDataExceedsTheCeiling()
    {
        SseReader reader(64);
        QByteArray body;
        for (int i = 0; i < 10; ++i)
            body += "data: 0123456789\n";
        QCOMPARE(reader.append(body), QList<SseEvent>{});
        QVERIFY(reader.error());
    }

    void acceptsAnEventJustUnderTheCeiling()
    {
        const QByteArray line = "data: " + QByteArray(50, 'x');
        SseReader reader(line.size());
        QCOMPARE(reader.append(QByteArray(line + "\n\n")), QList<SseEvent>{sse(QByteArray(50, 'x'))});
        QVERIFY(!reader.error());
    }

    void givesEveryFixtureTheSameEventsHoweverItIsSplit_data()
    {
        QTest::addColumn<QString>("path");
        const QString root = QDir(qEnvironmentVariable("QCODE_SHARED_DIR")).filePath(u"fixtures/providers"_s);
        if (!QFileInfo(root).isDir())
            QSKIP(qPrintable(u"the provider fixture folder %1 is absent (set QCODE_SHARED_DIR)"_s.arg(root)));
        for (const QString &folder : QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QDir dir(QDir(root).filePath(folder));
            for (const QString &name : dir.entryList({u"*.sse"_s}, QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(folder + u'/' + name)) << dir.filePath(name);
        }
    }

    void givesEveryFixtureTheSameEventsHoweverItIsSplit()
    {
        QFETCH(QString, path);
        const QByteArray body = qcode::test::readFile(path);
        const QList<SseEvent> whole = readAll(body);
        QVERIFY(!whole.isEmpty());

        // One-byte reads put a read boundary at every position at once.
        QCOMPARE(readByteByByte(body), whole);

        // Two reads, cut at every position. For the large bodies every cut
        // near a line ending (where the framing state changes) plus a
        // stride through the rest keeps the run short.
        const bool small = body.size() <= 20000;
        for (qsizetype cut = 1; cut < body.size(); ++cut) {
            bool nearLineEnd = false;
            for (qsizetype k = std::max<qsizetype>(0, cut - 2); k < std::min(body.size(), cut + 2); ++k)
                nearLineEnd = nearLineEnd || body[k] == '\n' || body[k] == '\r';
            if (!small && !nearLineEnd && cut % 997 != 0)
                continue;
            const QList<SseEvent> split = readAll(body, {cut});
            if (split != whole)
                QFAIL(qPrintable(u"events differ when cut at byte %1"_s.arg(cut)));
        }

        QRandomGenerator random(42);
        for (int round = 0; round < 5; ++round) {
            QList<qsizetype> cuts;
            for (qsizetype at = 0; at < body.size();) {
                at += 1 + random.bounded(qsizetype(300));
                cuts.append(at);
            }
            QCOMPARE(readAll(body, cuts), whole);
        }
    }
};

QTEST_GUILESS_MAIN(TestSseReader)
#include "tst_sse_reader.moc"
