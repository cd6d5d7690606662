// ReplyStream, the wrapper around QNetworkReply under every provider call:
// one report of status and headers, 2xx bodies passed on as they arrive,
// non-2xx bodies delivered whole, transport failures kept apart from HTTP
// ones, and a request that never outlives its stream.

#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QTcpServer>
#include <QTcpSocket>

#include "FakeProviderServer.h"
#include "FakeStreamEncoder.h"
#include "engine/network/ReplyStream.h"
#include "engine/provider/ProviderError.h"
#include "engine/provider/ProviderRequest.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

HttpRequestSpec requestTo(const QUrl &url)
{
    return HttpRequestSpec{url, {{"content-type", "application/json"}}, R"({"stream":true})"};
}

// Everything one stream reported, in order.
struct Report {
    int headerReports = 0;
    int status = 0;
    ReplyStream::Headers headers;
    QByteArray body;
    int successes = 0;
    QList<int> httpFailures;
    QByteArray errorBody;
    QList<ReplyStream::Failure> transportFailures;

    int endings() const { return successes + int(httpFailures.size() + transportFailures.size()); }
};

void watch(ReplyStream *stream, Report *report)
{
    QObject::connect(stream, &ReplyStream::headersReceived, stream,
                     [report](int status, const ReplyStream::Headers &headers) {
                         ++report->headerReports;
                         report->status = status;
                         report->headers = headers;
                     });
    QObject::connect(stream, &ReplyStream::bodyReceived, stream,
                     [report](const QByteArray &bytes) { report->body += bytes; });
    QObject::connect(stream, &ReplyStream::succeeded, stream, [report] { ++report->successes; });
    QObject::connect(stream, &ReplyStream::httpFailed, stream,
                     [report](int status, const ReplyStream::Headers &, const QByteArray &body) {
                         report->httpFailures.append(status);
                         report->errorBody = body;
                     });
    QObject::connect(stream, &ReplyStream::transportFailed, stream,
                     [report](ReplyStream::Failure failure, const QString &) {
                         report->transportFailures.append(failure);
                     });
}

// A server that answers each request it reads with the next scripted raw
// response, byte for byte, or closes the connection when the script says
// so: for what FakeProviderServer is too well-behaved to do.
class ScriptedHttpServer : public QObject
{
public:
    static constexpr const char *closeWithoutAnswer = "<close>";
    // An answer starting with this is sent without it, then the server
    // closes the connection.
    static constexpr const char *thenClose = "<then-close>";

    explicit ScriptedHttpServer(QList<QByteArray> script)
        : m_script(std::move(script))
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                ++connections;
                QObject::connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    QUrl url(const QString &path = QStringLiteral("/v1/chat/completions")) const
    {
        QUrl url(QStringLiteral("http://127.0.0.1") + path);
        url.setPort(m_server.serverPort());
        return url;
    }

    int connections = 0;
    QList<QByteArray> requests; // head and body of each, as received

private:
    void onReadyRead(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        for (;;) {
            const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
            if (headEnd < 0)
                return;
            const QByteArray head = buffer.left(headEnd).toLower();
            const qsizetype at = head.indexOf("content-length: ");
            const qsizetype length = at < 0 ? 0 : head.mid(at + 16, head.indexOf('\r', at) - at - 16).toLongLong();
            if (buffer.size() < headEnd + 4 + length)
                return;
            requests.append(buffer.left(headEnd + 4 + length));
            buffer.remove(0, headEnd + 4 + length);
            const QByteArray answer = m_script.isEmpty() ? QByteArray(closeWithoutAnswer) : m_script.takeFirst();
            if (answer == closeWithoutAnswer) {
                socket->abort();
                return;
            }
            const bool close = answer.startsWith(thenClose);
            socket->write(close ? answer.sliced(qstrlen(thenClose)) : answer);
            if (close || (!answer.contains("\r\nContent-Length:") && !answer.contains("\r\nTransfer-Encoding:"))) {
                socket->disconnectFromHost();
                return;
            }
        }
    }

    QTcpServer m_server;
    QList<QByteArray> m_script;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

// One request to `url` that must succeed with the body "hello".
void expectHello(QNetworkAccessManager &manager, const QUrl &url)
{
    ReplyStream stream(&manager, requestTo(url), {});
    Report report;
    watch(&stream, &report);
    QTRY_COMPARE(report.endings(), 1);
    QCOMPARE(report.successes, 1);
    QCOMPARE(report.body, QByteArray("hello"));
}

const QByteArray okChunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";

} // namespace

class ReplyStreamTest : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_manager;

private Q_SLOTS:
    void reportsStatusAndHeadersOnceAndPassesTheBodyOnAsItArrives()
    {
        FakeProviderServer server;
        const FakeTurn turn = FakeTurn().text({u"one"_s, u"two"_s}).header("x-request-id", "req_42")
                                  .trickle(std::chrono::milliseconds(5), 40);
        server.enqueue(turn);
        ReplyStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::OpenAIChat)), {});
        Report report;
        watch(&stream, &report);

        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.successes, 1);
        QCOMPARE(report.headerReports, 1);
        QCOMPARE(report.status, 200);
        QCOMPARE(stream.httpStatus(), 200);
        QCOMPARE(ProviderError::header(report.headers, "x-request-id"), QByteArray("req_42"));
        QCOMPARE(report.body, FakeStreamEncoder::encode(WireProtocol::OpenAIChat, turn).join());
        QCOMPARE(stream.bodyBytes(), report.body.size());
        QVERIFY(stream.isFinished());
    }

    void deliversANon2xxBodyWholeAndNeverAsStreamData()
    {
        FakeProviderServer server;
        // Larger than one socket read, so it arrives in several pieces.
        const QByteArray body = QJsonDocument(QJsonObject{{"error"_L1, QJsonObject{{"message"_L1, QString(300 * 1024, u'x')}}}})
                                    .toJson(QJsonDocument::Compact);
        server.enqueue(FakeTurn::httpError(503, body, {{"retry-after", "7"}}));
        ReplyStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::AnthropicMessages)), {});
        Report report;
        watch(&stream, &report);

        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.httpFailures, QList<int>{503});
        QCOMPARE(report.errorBody, body);
        QVERIFY(report.body.isEmpty());
        QCOMPARE(ProviderError::header(report.headers, "retry-after"), QByteArray("7"));
    }

    void capsAnErrorBodyAtItsCeiling()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn::httpError(500, QByteArray(64 * 1024, 'e'), {}, "text/plain"));
        HttpStreamLimits limits;
        limits.maxErrorBodyBytes = 1000;
        ReplyStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::Gemini)), limits);
        Report report;
        watch(&stream, &report);

        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.httpFailures, QList<int>{500});
        QCOMPARE(report.errorBody, QByteArray(1000, 'e'));
    }

    void aRefusedConnectionIsATransportFailureNotAnHttpOne()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        QUrl url(u"http://127.0.0.1/v1/responses"_s);
        url.setPort(probe.serverPort());
        probe.close();

        ReplyStream stream(&m_manager, requestTo(url), {});
        Report report;
        watch(&stream, &report);

        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.transportFailures, QList<ReplyStream::Failure>{ReplyStream::Failure::Network});
        QCOMPARE(report.headerReports, 0);
        QCOMPARE(stream.httpStatus(), 0);
    }

    void abortEndsItOnceAndClosesTheConnection()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"x"_s}).stallAfter(1));
        ReplyStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::AnthropicMessages)), {});
        Report report;
        watch(&stream, &report);
        QTRY_VERIFY(!report.body.isEmpty());

        stream.abort();
        stream.abort();
        QCOMPARE(report.transportFailures, QList<ReplyStream::Failure>{ReplyStream::Failure::Aborted});
        QCOMPARE(report.endings(), 1);
        QTRY_COMPARE(server.openConnectionCount(), 0);
    }

    void destroyingItAbortsTheRequest()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"x"_s}).stallAfter(1));
        auto *stream = new ReplyStream(&m_manager, requestTo(server.endpoint(WireProtocol::OpenAIChat)), {});
        Report report;
        watch(stream, &report);
        QTRY_VERIFY(!report.body.isEmpty());
        QCOMPARE(server.openConnectionCount(), 1);

        delete stream;
        QTRY_COMPARE(server.openConnectionCount(), 0);
        QCOMPARE(report.endings(), 0);
    }

    void theIdleTimeoutRestartsWithEveryRead()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"a"_s, u"b"_s}).trickle(std::chrono::milliseconds(30), 32).stallAfter(4));
        HttpStreamLimits limits;
        limits.idleTimeout = std::chrono::milliseconds(400);
        ReplyStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::AnthropicMessages)), limits);
        Report report;
        watch(&stream, &report);
        QElapsedTimer sinceLastByte;
        qsizetype seen = 0;
        connect(&stream, &ReplyStream::bodyReceived, this, [&](const QByteArray &bytes) {
            seen += bytes.size();
            sinceLastByte.start();
        });

        QTRY_COMPARE_WITH_TIMEOUT(report.endings(), 1, 10000);
        QCOMPARE(report.transportFailures, QList<ReplyStream::Failure>{ReplyStream::Failure::IdleTimeout});
        // It fired after the trickle stopped, not while it flowed.
        QVERIFY(seen > 100);
        QVERIFY2(sinceLastByte.elapsed() >= 380, qPrintable(QString::number(sinceLastByte.elapsed())));
    }
    void keepsTheConnectionForTheNextRequest()
    {
        QNetworkAccessManager manager;
        ScriptedHttpServer server({okChunked, okChunked});
        for (int round = 0; round < 2; ++round) {
            expectHello(manager, server.url());
            if (QTest::currentTestFailed())
                return;
        }
        QCOMPARE(server.requests.size(), 2);
        QCOMPARE(server.connections, 1);
        QVERIFY(server.requests.at(0).startsWith("POST /v1/chat/completions HTTP/1.1\r\n"));
        QVERIFY(server.requests.at(0).contains("\r\nContent-Length: 15\r\n"));
        QVERIFY(server.requests.at(0).endsWith("\r\n\r\n{\"stream\":true}"));
    }

    void aReusedConnectionTheServerDroppedIsRetriedOnANewOne()
    {
        QNetworkAccessManager manager;
        ScriptedHttpServer server({okChunked, ScriptedHttpServer::closeWithoutAnswer, okChunked});
        for (int round = 0; round < 2; ++round) {
            expectHello(manager, server.url());
            if (QTest::currentTestFailed())
                return;
        }
        QCOMPARE(server.requests.size(), 3);
        QCOMPARE(server.connections, 2);
    }

    void aServerThatKeepsClosingWithoutAnswerIsAFailureNotEndlessRetries()
    {
        QNetworkAccessManager manager;
        // The manager sends again once on a connection closed before any
        // answer; a server that keeps doing it is a failure, and the third
        // scripted answer is never asked for.
        ScriptedHttpServer server({ScriptedHttpServer::closeWithoutAnswer, ScriptedHttpServer::closeWithoutAnswer,
                                   ScriptedHttpServer::closeWithoutAnswer, okChunked});
        ReplyStream stream(&manager, requestTo(server.url()), {});
        Report report;
        watch(&stream, &report);
        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.transportFailures, QList<ReplyStream::Failure>{ReplyStream::Failure::Network});
        QVERIFY2(server.requests.size() < 4, qPrintable(QString::number(server.requests.size())));
    }

    void aBodyEndedByTheServerClosingSucceeds()
    {
        QNetworkAccessManager manager;
        ScriptedHttpServer server({"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: 1\n\n"});
        ReplyStream stream(&manager, requestTo(server.url()), {});
        Report report;
        watch(&stream, &report);
        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.successes, 1);
        QCOMPARE(report.body, QByteArray("data: 1\n\n"));
    }

    void aResponseCutInTheMiddleIsANetworkFailure()
    {
        QNetworkAccessManager manager;
        ScriptedHttpServer server(
            {ScriptedHttpServer::thenClose + QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")});
        ReplyStream stream(&manager, requestTo(server.url()), {});
        Report report;
        watch(&stream, &report);
        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.transportFailures, QList<ReplyStream::Failure>{ReplyStream::Failure::Network});
        QCOMPARE(report.body, QByteArray("hel"));
        QCOMPARE(report.successes, 0);
    }

    void aResponseThatIsNotHttpIsANetworkFailureNamingTheHost()
    {
        QNetworkAccessManager manager;
        ScriptedHttpServer server({"SSH-2.0-OpenSSH_9.2\r\nContent-Length: 0\r\n"});
        ReplyStream stream(&manager, requestTo(server.url()), {});
        QString detail;
        connect(&stream, &ReplyStream::transportFailed, this, [&](ReplyStream::Failure, const QString &text) { detail = text; });
        QTRY_VERIFY(!detail.isEmpty());
        QVERIFY2(detail.contains(u"127.0.0.1"_s), qPrintable(detail));
    }

    void followsA307WithTheSameRequestAndKeepsKeysAtHome()
    {
        QNetworkAccessManager manager;
        ScriptedHttpServer target({okChunked});
        ScriptedHttpServer origin({"HTTP/1.1 307 Temporary Redirect\r\nLocation: " + target.url(u"/moved"_s).toEncoded()
                                   + "\r\nContent-Length: 0\r\n\r\n"});
        HttpRequestSpec request = requestTo(origin.url());
        request.headers.append(std::pair<QByteArray, QByteArray>("Authorization", "Bearer sk-secret"));
        ReplyStream stream(&manager, request, {});
        Report report;
        watch(&stream, &report);
        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.successes, 1);
        QCOMPARE(report.headerReports, 1);
        QCOMPARE(report.body, QByteArray("hello"));
        QVERIFY(origin.requests.at(0).contains("Authorization: Bearer sk-secret"));
        QCOMPARE(target.requests.size(), 1);
        QVERIFY(target.requests.at(0).startsWith("POST /moved HTTP/1.1"));
        QVERIFY(target.requests.at(0).endsWith("{\"stream\":true}"));
        // Another origin: the key stays with the host it was meant for.
        QVERIFY(!target.requests.at(0).contains("sk-secret"));
    }

    void refusesHeadersThatWouldEndTheLine()
    {
        QNetworkAccessManager manager;
        ScriptedHttpServer server({okChunked});
        HttpRequestSpec request = requestTo(server.url());
        request.headers.append(std::pair<QByteArray, QByteArray>("X-Extra", "a\r\nX-Injected: 1"));
        ReplyStream stream(&manager, request, {});
        Report report;
        watch(&stream, &report);
        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.transportFailures, QList<ReplyStream::Failure>{ReplyStream::Failure::Network});
        QCOMPARE(server.connections, 0);
    }

    void refusesAddressesThatAreNotHttp()
    {
        QNetworkAccessManager manager;
        ReplyStream stream(&manager, requestTo(QUrl(u"ftp://127.0.0.1/v1"_s)), {});
        QString detail;
        connect(&stream, &ReplyStream::transportFailed, this, [&](ReplyStream::Failure, const QString &text) { detail = text; });
        QTRY_VERIFY(!detail.isEmpty());
        QVERIFY2(detail.contains(u"not an http or https address"_s), qPrintable(detail));
    }
};

QTEST_GUILESS_MAIN(ReplyStreamTest)
#include "tst_reply_stream.moc"
