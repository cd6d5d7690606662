// The recorded provider streams in ../shared/fixtures/providers decode to
// their .expected.json however the body is cut into reads.

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>

#include "ProviderTranscript.h"
#include "engine/provider/SseReader.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class TestProviderConformance : public QObject
{
    Q_OBJECT

private:
    static QString fixtureRoot()
    {
        return QDir(qEnvironmentVariable("QCODE_SHARED_DIR")).filePath(u"fixtures/providers"_s);
    }

    static QJsonObject expectedFor(const QString &ssePath)
    {
        QString path = ssePath;
        path.chop(4);
        return readJsonObject(path + u".expected.json"_s);
    }

    static void addFixtureRows(bool onlyWithUtf8Offsets = false)
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("protocol");
        const QString root = fixtureRoot();
        if (!QFileInfo(root).isDir())
            QSKIP(qPrintable(u"the provider fixture folder %1 is absent (set QCODE_SHARED_DIR)"_s.arg(root)));
        const QStringList folders = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &folder : folders) {
            const auto protocol = protocolForFolder(folder);
            if (!protocol)
                continue;
            const QDir dir(QDir(root).filePath(folder));
            for (const QString &name : dir.entryList({u"*.sse"_s}, QDir::Files, QDir::Name)) {
                if (onlyWithUtf8Offsets
                    && expectedFor(dir.filePath(name)).value("byte_split_offsets_inside_utf8"_L1).toArray().isEmpty())
                    continue;
                QTest::newRow(qPrintable(folder + u'/' + name)) << dir.filePath(name) << int(*protocol);
            }
        }
    }

    static void verifyCuts(const QString &how, WireProtocol protocol, const QByteArray &body,
                           const QList<qsizetype> &cuts, const QJsonObject &expected)
    {
        const ProviderTranscript transcript = ProviderTranscript::fold(parseInPieces(protocol, body, cuts));
        const QStringList diffs = compareWithExpected(transcript, expected);
        QVERIFY2(diffs.isEmpty(), qPrintable(how + u": "_s + diffs.join(u"; "_s)));
    }

private Q_SLOTS:
    void decodesEachFixtureReadWholeToItsExpectedOutcome_data() { addFixtureRows(); }
    void decodesEachFixtureReadWholeToItsExpectedOutcome()
    {
        QFETCH(QString, path);
        QFETCH(int, protocol);
        const QByteArray body = readFile(path);
        QVERIFY(!body.isEmpty());
        verifyCuts(u"whole"_s, WireProtocol(protocol), body, {}, expectedFor(path));
    }

    void decodesEachFixtureReadOneByteAtATimeToItsExpectedOutcome_data() { addFixtureRows(); }
    void decodesEachFixtureReadOneByteAtATimeToItsExpectedOutcome()
    {
        QFETCH(QString, path);
        QFETCH(int, protocol);
        const QByteArray body = readFile(path);
        QList<qsizetype> cuts;
        for (qsizetype i = 1; i < body.size(); ++i)
            cuts.append(i);
        verifyCuts(u"1-byte reads"_s, WireProtocol(protocol), body, cuts, expectedFor(path));
    }

    void decodesEachFixtureReadInRandomPiecesToItsExpectedOutcome_data() { addFixtureRows(); }
    void decodesEachFixtureReadInRandomPiecesToItsExpectedOutcome()
    {
        QFETCH(QString, path);
        QFETCH(int, protocol);
        const QByteArray body = readFile(path);
        const QJsonObject expected = expectedFor(path);
        // Seeded so a failure names a reproducible split.
        for (quint32 seed = 1; seed <= 5; ++seed) {
            QRandomGenerator random(seed);
            QList<qsizetype> cuts;
            for (qsizetype at = 0; at < body.size();) {
                at += 1 + random.bounded(qsizetype(97));
                cuts.append(at);
            }
            verifyCuts(u"random pieces, seed %1"_s.arg(seed), WireProtocol(protocol), body, cuts, expected);
        }
    }

    void decodesUnicodeFixturesSplitInsideCharactersToTheSameText_data() { addFixtureRows(true); }
    void decodesUnicodeFixturesSplitInsideCharactersToTheSameText()
    {
        QFETCH(QString, path);
        QFETCH(int, protocol);
        const QJsonObject expected = expectedFor(path);
        const QJsonArray offsets = expected.value("byte_split_offsets_inside_utf8"_L1).toArray();
        const QByteArray body = readFile(path);
        QList<qsizetype> all;
        for (const QJsonValue &offset : offsets) {
            all.append(offset.toInteger());
            verifyCuts(u"split at %1"_s.arg(offset.toInteger()), WireProtocol(protocol), body, {offset.toInteger()}, expected);
        }
        verifyCuts(u"split at every listed offset"_s, WireProtocol(protocol), body, all, expected);
    }

    void framesEachFixtureAsAStrictSseParserCountsIt_data() { addFixtureRows(); }
    void framesEachFixtureAsAStrictSseParserCountsIt()
    {
        QFETCH(QString, path);
        const QJsonObject sse = expectedFor(path).value("sse"_L1).toObject();
        const QByteArray body = readFile(path);
        SseReader reader;
        qsizetype events = reader.append(body).size();
        events += reader.flush().size();
        // The corpus counts what a strict parser dispatches; flush() also
        // dispatches an event the body left pending, on purpose.
        QCOMPARE(events - (reader.statistics().pendingAtEnd ? 1 : 0), qsizetype(sse.value("events"_L1).toInteger()));
        QCOMPARE(reader.statistics().comments, qsizetype(sse.value("comments"_L1).toInteger()));
        QCOMPARE(reader.statistics().pendingAtEnd, sse.value("pending_at_eof"_L1).toBool());
        if (sse.contains("ignored_lines"_L1))
            QCOMPARE(reader.statistics().ignoredLines, qsizetype(sse.value("ignored_lines"_L1).toInteger()));
        QCOMPARE(qsizetype(body.size()), qsizetype(sse.value("body_bytes"_L1).toInteger()));
    }
};

QTEST_GUILESS_MAIN(TestProviderConformance)
#include "tst_provider_conformance.moc"
