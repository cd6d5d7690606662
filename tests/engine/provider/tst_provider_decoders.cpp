// The decoders on hand-written streams (tests/data/providers) and on bad
// input: whatever arrives, the sequence stays well formed and ends, and
// nothing crashes.

#include <QDir>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>
#include <QVariant>

#include "ProviderTranscript.h"
#include "engine/provider/ProviderStreamParser.h"
#include "engine/provider/StreamDecoder.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

QString dataRoot()
{
    return QDir(QStringLiteral(QCODE_TEST_DATA_DIR)).filePath(u"providers"_s);
}

ProviderTranscript parseWhole(WireProtocol protocol, const QByteArray &body, qsizetype ceiling = SseReader::DefaultMaxEventBytes)
{
    ProviderStreamParser parser(protocol, ceiling);
    QList<ProviderEvent> events = parser.append(body);
    events.append(parser.finish());
    return ProviderTranscript::fold(events);
}

} // namespace

class TestProviderDecoders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodesEachSyntheticStreamToItsExpectedOutcome_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("protocol");
        const QDir root(dataRoot());
        QVERIFY(root.exists());
        for (const QString &folder : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const auto protocol = protocolForFolder(folder);
            QVERIFY2(protocol, qPrintable(folder));
            const QDir dir(root.filePath(folder));
            for (const QString &name : dir.entryList({u"*.sse"_s}, QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(folder + u'/' + name)) << dir.filePath(name) << int(*protocol);
        }
    }

    void decodesEachSyntheticStreamToItsExpectedOutcome()
    {
        QFETCH(QString, path);
        QFETCH(int, protocol);
        const QByteArray body = readFile(path);
        QVERIFY(!body.isEmpty());
        QString expectedPath = path;
        expectedPath.chop(4);
        const QJsonObject expected = readJsonObject(expectedPath + u".expected.json"_s);
        QVERIFY(!expected.isEmpty());

        QList<QList<qsizetype>> splits{{}};
        QList<qsizetype> everyByte;
        for (qsizetype i = 1; i < body.size(); ++i)
            everyByte.append(i);
        splits.append(everyByte);
        QRandomGenerator random(7);
        for (int round = 0; round < 3; ++round) {
            QList<qsizetype> cuts;
            for (qsizetype at = 0; at < body.size();) {
                at += 1 + random.bounded(qsizetype(40));
                cuts.append(at);
            }
            splits.append(cuts);
        }
        for (const auto &cuts : std::as_const(splits)) {
            const auto transcript = ProviderTranscript::fold(parseInPieces(WireProtocol(protocol), body, cuts));
            const QStringList diffs = compareWithExpected(transcript, expected);
            QVERIFY2(diffs.isEmpty(), qPrintable(u"%1 reads: %2"_s.arg(cuts.size() + 1).arg(diffs.join(u"; "_s))));
        }
    }

    // A streaming client keeps one list for every read (ProviderCall): the
    // outcome must be the same as with a fresh list per read, whatever the
    // reader's and the list's reused buffers held before.
    void decodesEachSyntheticStreamIntoOneReusedList_data() { decodesEachSyntheticStreamToItsExpectedOutcome_data(); }

    void decodesEachSyntheticStreamIntoOneReusedList()
    {
        QFETCH(QString, path);
        QFETCH(int, protocol);
        const QByteArray body = readFile(path);
        QVERIFY(!body.isEmpty());
        QString expectedPath = path;
        expectedPath.chop(4);
        const QJsonObject expected = readJsonObject(expectedPath + u".expected.json"_s);
        QVERIFY(!expected.isEmpty());
        QRandomGenerator random(11);
        for (int round = 0; round < 4; ++round) {
            QList<qsizetype> cuts;
            for (qsizetype at = 0; at < body.size();) {
                at += 1 + random.bounded(qsizetype(round == 0 ? 3 : 200));
                cuts.append(at);
            }
            ProviderStreamParser parser{WireProtocol(protocol)};
            QList<ProviderEvent> reused;
            QList<ProviderEvent> events;
            qsizetype from = 0;
            for (qsizetype cut : std::as_const(cuts)) {
                const qsizetype to = std::min(cut, body.size());
                if (to <= from)
                    continue;
                reused.clear();
                parser.append(QByteArrayView(body).sliced(from, to - from), reused);
                events.append(reused);
                from = to;
            }
            events.append(parser.finish());
            const QStringList diffs = compareWithExpected(ProviderTranscript::fold(events), expected);
            QVERIFY2(diffs.isEmpty(), qPrintable(u"%1 reads: %2"_s.arg(cuts.size()).arg(diffs.join(u"; "_s))));
        }
    }

    void reportsACutStreamAsARetryableNetworkError_data()
    {
        QTest::addColumn<int>("protocol");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("anthropic, after message_start")
            << int(WireProtocol::AnthropicMessages)
            << QByteArray("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3}}}\n\n");
        QTest::newRow("openai chat, before the finish reason")
            << int(WireProtocol::OpenAIChat)
            << QByteArray("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}\n\n");
        QTest::newRow("responses, before response.completed")
            << int(WireProtocol::OpenAIResponses)
            << QByteArray("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\",\"delta\":\"Hi\"}\n\n");
        QTest::newRow("gemini, without a finish reason")
            << int(WireProtocol::Gemini)
            << QByteArray("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}]}}]}\n\n");
        QTest::newRow("anthropic, empty body") << int(WireProtocol::AnthropicMessages) << QByteArray();
        QTest::newRow("openai chat, empty body") << int(WireProtocol::OpenAIChat) << QByteArray();
        QTest::newRow("responses, empty body") << int(WireProtocol::OpenAIResponses) << QByteArray();
        QTest::newRow("gemini, empty body") << int(WireProtocol::Gemini) << QByteArray();
    }

    void reportsACutStreamAsARetryableNetworkError()
    {
        QFETCH(int, protocol);
        QFETCH(QByteArray, body);
        const auto transcript = parseWhole(WireProtocol(protocol), body);
        QVERIFY2(transcript.problems.isEmpty(), qPrintable(transcript.problems.join(u"; "_s)));
        QVERIFY(transcript.error);
        QCOMPARE(transcript.error->kind, ProviderError::Kind::Network);
        QVERIFY(transcript.error->retryable);
        QCOMPARE(transcript.finishStep->reason, FinishReason::Error);
        // An unfinished tool call is reported, but never as runnable.
        for (const auto &call : transcript.toolCalls)
            QVERIFY(!call.parsedInput.has_value());
    }

    void endsWithAnErrorWhenAnEventExceedsTheSizeCeiling()
    {
        QByteArray body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"kept\"}}]}\n\n";
        body += "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + QByteArray(4096, 'x') + "\"}}]}\n\n";
        body += "data: [DONE]\n\n";
        const auto transcript = parseWhole(WireProtocol::OpenAIChat, body, 1024);
        QVERIFY2(transcript.problems.isEmpty(), qPrintable(transcript.problems.join(u"; "_s)));
        QCOMPARE(transcript.text, u"kept"_s);
        QVERIFY(transcript.error);
        QVERIFY(transcript.error->message.contains(u"1024"_s));
        QCOMPARE(transcript.finishStep->reason, FinishReason::Error);
    }

    void takesAnErrorChunkOverAnEarlierFinishReason()
    {
        const QByteArray body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}\n\n"
                                "data: {\"error\":{\"message\":\"Upstream overloaded\",\"code\":503}}\n\n"
                                "data: [DONE]\n\n";
        const auto transcript = parseWhole(WireProtocol::OpenAIChat, body);
        QVERIFY2(transcript.problems.isEmpty(), qPrintable(transcript.problems.join(u"; "_s)));
        QCOMPARE(transcript.finishStep->reason, FinishReason::Error);
        QCOMPARE(transcript.finishStep->rawReason, u"stop"_s);
        QCOMPARE(transcript.error->kind, ProviderError::Kind::Overloaded);
        QVERIFY(transcript.error->retryable);
    }

    void reportsResponsesFailedOnceWhenAnErrorEventPrecededIt()
    {
        const QByteArray body =
            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"server_error\",\"code\":\"server_error\",\"message\":\"boom\"}}\n\n"
            "event: response.failed\ndata: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\",\"error\":{\"code\":\"server_error\",\"message\":\"boom\"}}}\n\n";
        ProviderStreamParser parser(WireProtocol::OpenAIResponses);
        QList<ProviderEvent> events = parser.append(body);
        events.append(parser.finish());
        const auto errors = std::count_if(events.cbegin(), events.cend(),
                                          [](const ProviderEvent &e) { return std::holds_alternative<ErrorEvent>(e); });
        QCOMPARE(errors, 1);
        QCOMPARE(ProviderTranscript::fold(events).error->kind, ProviderError::Kind::Server);
    }

    void ignoresEventsAfterTheStreamFinished()
    {
        auto decoder = StreamDecoder::create(WireProtocol::AnthropicMessages);
        decoder->decode({u"message_stop"_s, "{\"type\":\"message_stop\"}", {}, {}});
        QCOMPARE(decoder->decode({u"content_block_start"_s,
                                  "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"late\"}}",
                                  {}, {}}),
                 QList<ProviderEvent>{});
        QCOMPARE(decoder->finish(), QList<ProviderEvent>{});
    }

    void survivesArbitraryBytesInEveryDecoder()
    {
        // A small deterministic fuzz pass: synthetic bodies with bytes
        // flipped, dropped and repeated, plus pure noise. The only promise
        // is a well-formed sequence that ends.
        QList<std::pair<WireProtocol, QByteArray>> seeds;
        const QDir root(dataRoot());
        for (const QString &folder : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QDir dir(root.filePath(folder));
            for (const QString &name : dir.entryList({u"*.sse"_s}, QDir::Files))
                seeds.append({*protocolForFolder(folder), readFile(dir.filePath(name))});
        }
        QVERIFY(!seeds.isEmpty());

        QRandomGenerator random(2024);
        for (int round = 0; round < 1500; ++round) {
            const auto &[protocol, seed] = seeds.at(random.bounded(seeds.size()));
            QByteArray body = seed;
            const int edits = 1 + random.bounded(8);
            for (int e = 0; e < edits && !body.isEmpty(); ++e) {
                const qsizetype at = random.bounded(body.size());
                switch (random.bounded(4)) {
                case 0: body[at] = char(random.bounded(256)); break;
                case 1: body.remove(at, 1 + random.bounded(qsizetype(20))); break;
                case 2: body.insert(at, body.mid(random.bounded(body.size()), 30)); break;
                default: body.insert(at, "\r\n\n:data: {\"error\":"); break;
                }
            }
            if (round % 10 == 0) {
                body.resize(random.bounded(400));
                for (char &c : body)
                    c = char(random.bounded(256));
            }
            const auto transcript = parseWhole(protocol, body);
            QVERIFY2(transcript.problems.isEmpty(),
                     qPrintable(u"round %1: %2"_s.arg(round).arg(transcript.problems.join(u"; "_s))));
            QVERIFY(transcript.finishStep.has_value());
        }
    }

    void carriesEventsThroughQVariantUnchanged()
    {
        const ProviderEvent event = ToolCallEvent{u"call_1"_s, u"bash"_s, u"{\"command\":\"ls\"}"_s,
                                                  QJsonObject{{"command"_L1, "ls"_L1}}, {}};
        QVERIFY(QMetaType::fromType<ProviderEvent>().isValid());
        const QVariant variant = QVariant::fromValue(event);
        QCOMPARE(variant.value<ProviderEvent>(), event);
        QCOMPARE(providerEventName(event), u"tool-call"_s);
    }
};

QTEST_GUILESS_MAIN(TestProviderDecoders)
#include "tst_provider_decoders.moc"
