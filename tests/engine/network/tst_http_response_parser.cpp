// HttpResponseParser: the HTTP/1.1 response reader under every provider
// stream. Every framing RFC 9112 allows a server, split at every byte,
// gives the same head and body; every malformed or cut response is an
// error that says what was wrong.

#include <QtTest>

#include "engine/network/HttpResponseParser.h"

using namespace qcode;

namespace {

struct Parsed {
    bool ok = true;
    HttpResponseParser parser;
    QByteArray body;
};

// Feeds `response` in pieces of `piece` bytes.
Parsed parse(const QByteArray &response, qsizetype piece)
{
    Parsed parsed;
    for (qsizetype at = 0; at < response.size() && parsed.ok; at += piece)
        parsed.ok = parsed.parser.feed(QByteArrayView(response).sliced(at, std::min(piece, response.size() - at)),
                                       parsed.body);
    return parsed;
}

QByteArray chunkedResponse()
{
    return "HTTP/1.1 200 OK\r\n"
           "Content-Type: text/event-stream\r\n"
           "Transfer-Encoding: chunked\r\n"
           "\r\n"
           "6\r\ndata: \r\n"
           "1a;name=value\r\n{\"delta\":\"Hello, world!\"}\n\r\n"
           "A\r\n0123456789\r\n"
           "0\r\n"
           "X-Trailer: done\r\n"
           "\r\n";
}

} // namespace

class HttpResponseParserTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void chunkedBodyIsTheSameHoweverTheBytesArrive()
    {
        const QByteArray expected = "data: {\"delta\":\"Hello, world!\"}\n0123456789";
        const QByteArray response = chunkedResponse();
        for (qsizetype piece = 1; piece <= response.size(); ++piece) {
            Parsed parsed = parse(response, piece);
            QVERIFY2(parsed.ok, qPrintable(parsed.parser.errorString()));
            QVERIFY(parsed.parser.isComplete());
            QCOMPARE(parsed.body, expected);
            QCOMPARE(parsed.parser.head().status, 200);
            QCOMPARE(parsed.parser.head().reason, QByteArray("OK"));
            QCOMPARE(parsed.parser.head().value("content-type"), QByteArray("text/event-stream"));
            // Trailers end the message but are not headers.
            QVERIFY(parsed.parser.head().value("x-trailer").isEmpty());
            QVERIFY(parsed.parser.connectionReusable());
        }
    }

    void contentLengthBodyEndsAtItsLength()
    {
        const QByteArray response = "HTTP/1.1 429 Too Many Requests\r\nContent-Length: 13\r\nRetry-After: 3\r\n\r\n"
                                    "{\"error\":\"x\"}";
        for (qsizetype piece = 1; piece <= response.size(); ++piece) {
            Parsed parsed = parse(response, piece);
            QVERIFY(parsed.ok);
            QVERIFY(parsed.parser.isComplete());
            QCOMPARE(parsed.parser.head().status, 429);
            QCOMPARE(parsed.parser.head().value("RETRY-AFTER"), QByteArray("3"));
            QCOMPARE(parsed.body, QByteArray("{\"error\":\"x\"}"));
        }
    }

    void aBodyWithoutLengthRunsUntilTheServerCloses()
    {
        Parsed parsed = parse("HTTP/1.1 200 OK\r\n\r\nevent: a\n\nevent: b\n\n", 7);
        QVERIFY(parsed.ok);
        QVERIFY(!parsed.parser.isComplete());
        QVERIFY(parsed.parser.finishAtClose());
        QVERIFY(parsed.parser.isComplete());
        QCOMPARE(parsed.body, QByteArray("event: a\n\nevent: b\n\n"));
        QVERIFY(!parsed.parser.connectionReusable());
    }

    void noBodyFor204And304()
    {
        for (const QByteArray &status : {QByteArray("204 No Content"), QByteArray("304 Not Modified")}) {
            Parsed parsed = parse("HTTP/1.1 " + status + "\r\nContent-Length: 10\r\n\r\n", 5);
            QVERIFY(parsed.ok);
            QVERIFY(parsed.parser.isComplete());
            QVERIFY(parsed.body.isEmpty());
        }
    }

    void interimResponsesAreSkipped()
    {
        Parsed parsed = parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", 3);
        QVERIFY(parsed.ok);
        QCOMPARE(parsed.parser.head().status, 201);
        QCOMPARE(parsed.body, QByteArray("ok"));
    }

    void bareLineFeedsAreAccepted()
    {
        Parsed parsed = parse("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nhi\n0\n\n", 1);
        QVERIFY2(parsed.ok, qPrintable(parsed.parser.errorString()));
        QVERIFY(parsed.parser.isComplete());
        QCOMPARE(parsed.body, QByteArray("hi"));
    }

    void whetherTheConnectionMayBeReused_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<bool>("reusable");
        QTest::newRow("1.1 default") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") << true;
        QTest::newRow("1.1 close") << QByteArray("HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n")
                                   << false;
        QTest::newRow("1.0 default") << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n") << false;
        QTest::newRow("1.0 keep-alive")
            << QByteArray("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n") << true;
        QTest::newRow("stray bytes") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab") << false;
    }

    void whetherTheConnectionMayBeReused()
    {
        QFETCH(QByteArray, response);
        QFETCH(bool, reusable);
        Parsed parsed = parse(response, response.size());
        QVERIFY(parsed.ok);
        QVERIFY(parsed.parser.isComplete());
        QCOMPARE(parsed.parser.connectionReusable(), reusable);
    }

    void malformedResponsesAreErrorsThatSayWhy_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<QString>("says");
        QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n") << "did not answer in HTTP/1.1";
        QTest::newRow("http/2 preface") << QByteArray("HTTP/2 200\r\n") << "did not answer in HTTP/1.1";
        QTest::newRow("letters for status") << QByteArray("HTTP/1.1 2xx OK\r\n") << "did not answer in HTTP/1.1";
        QTest::newRow("no colon") << QByteArray("HTTP/1.1 200 OK\r\nBroken header\r\n") << "malformed header";
        QTest::newRow("space in name") << QByteArray("HTTP/1.1 200 OK\r\nBad Name: x\r\n") << "malformed header";
        QTest::newRow("folded") << QByteArray("HTTP/1.1 200 OK\r\nA: b\r\n c\r\n") << "folded header";
        QTest::newRow("chunk size")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") << "chunk size";
        QTest::newRow("chunk overrun")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n") << "longer than its size";
        QTest::newRow("huge chunk")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n")
            << "impossible size";
        QTest::newRow("two lengths")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n") << "two different";
        QTest::newRow("bad length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n") << "invalid Content-Length";
        QTest::newRow("gzip") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
                              << "did not ask for";
        QTest::newRow("huge head") << QByteArray("HTTP/1.1 200 OK\r\nX: " + QByteArray(70 * 1024, 'a') + "\r\n\r\n")
                                   << "64 KiB";
    }

    void malformedResponsesAreErrorsThatSayWhy()
    {
        QFETCH(QByteArray, response);
        QFETCH(QString, says);
        for (qsizetype piece : {qsizetype(1), qsizetype(4096), response.size()}) {
            Parsed parsed = parse(response, piece);
            QVERIFY(!parsed.ok);
            QVERIFY(parsed.parser.hasFailed());
            QVERIFY2(parsed.parser.errorString().contains(says), qPrintable(parsed.parser.errorString()));
            // Once failed it stays failed.
            QByteArray more;
            QVERIFY(!parsed.parser.feed("HTTP/1.1 200 OK\r\n\r\n", more));
            QVERIFY(more.isEmpty());
        }
    }

    void aResponseCutShortIsNotComplete_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<QString>("says");
        QTest::newRow("nothing") << QByteArray() << "without answering";
        QTest::newRow("in the head") << QByteArray("HTTP/1.1 200 OK\r\nContent-") << "headers";
        QTest::newRow("in a chunk") << QByteArray(chunkedResponse().left(86)) << "before the end";
        QTest::newRow("before the last chunk")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n") << "before the end";
        QTest::newRow("short of its length")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc") << "before the end";
    }

    void aResponseCutShortIsNotComplete()
    {
        QFETCH(QByteArray, response);
        QFETCH(QString, says);
        Parsed parsed = parse(response, 3);
        QVERIFY(parsed.ok);
        QVERIFY(!parsed.parser.finishAtClose());
        QVERIFY(!parsed.parser.isComplete());
        QVERIFY2(parsed.parser.errorString().contains(says), qPrintable(parsed.parser.errorString()));
    }
};

QTEST_GUILESS_MAIN(HttpResponseParserTest)
#include "tst_http_response_parser.moc"
