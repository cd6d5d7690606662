// HttpStream, the reply wrapper under every provider call: one report of
// status and headers, 2xx bodies passed on as they arrive, non-2xx bodies
// delivered whole, transport failures kept apart from HTTP ones, and a
// request that never outlives its stream.

#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QTcpServer>

#include "FakeProviderServer.h"
#include "FakeStreamEncoder.h"
#include "engine/network/HttpStream.h"
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
    HttpStream::Headers headers;
    QByteArray body;
    int successes = 0;
    QList<int> httpFailures;
    QByteArray errorBody;
    QList<HttpStream::Failure> transportFailures;

    int endings() const { return successes + int(httpFailures.size() + transportFailures.size()); }
};

void watch(HttpStream *stream, Report *report)
{
    QObject::connect(stream, &HttpStream::headersReceived, stream,
                     [report](int status, const HttpStream::Headers &headers) {
                         ++report->headerReports;
                         report->status = status;
                         report->headers = headers;
                     });
    QObject::connect(stream, &HttpStream::bodyReceived, stream,
                     [report](const QByteArray &bytes) { report->body += bytes; });
    QObject::connect(stream, &HttpStream::succeeded, stream, [report] { ++report->successes; });
    QObject::connect(stream, &HttpStream::httpFailed, stream,
                     [report](int status, const HttpStream::Headers &, const QByteArray &body) {
                         report->httpFailures.append(status);
                         report->errorBody = body;
                     });
    QObject::connect(stream, &HttpStream::transportFailed, stream,
                     [report](HttpStream::Failure failure, const QString &) {
                         report->transportFailures.append(failure);
                     });
}

} // namespace

class HttpStreamTest : public QObject
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
        HttpStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::OpenAIChat)), {});
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
        HttpStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::AnthropicMessages)), {});
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
        HttpStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::Gemini)), limits);
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

        HttpStream stream(&m_manager, requestTo(url), {});
        Report report;
        watch(&stream, &report);

        QTRY_COMPARE(report.endings(), 1);
        QCOMPARE(report.transportFailures, QList<HttpStream::Failure>{HttpStream::Failure::Network});
        QCOMPARE(report.headerReports, 0);
        QCOMPARE(stream.httpStatus(), 0);
    }

    void abortEndsItOnceAndClosesTheConnection()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"x"_s}).stallAfter(1));
        HttpStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::AnthropicMessages)), {});
        Report report;
        watch(&stream, &report);
        QTRY_VERIFY(!report.body.isEmpty());

        stream.abort();
        stream.abort();
        QCOMPARE(report.transportFailures, QList<HttpStream::Failure>{HttpStream::Failure::Aborted});
        QCOMPARE(report.endings(), 1);
        QTRY_COMPARE(server.openConnectionCount(), 0);
    }

    void destroyingItAbortsTheRequest()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"x"_s}).stallAfter(1));
        auto *stream = new HttpStream(&m_manager, requestTo(server.endpoint(WireProtocol::OpenAIChat)), {});
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
        HttpStream stream(&m_manager, requestTo(server.endpoint(WireProtocol::AnthropicMessages)), limits);
        Report report;
        watch(&stream, &report);
        QElapsedTimer sinceLastByte;
        qsizetype seen = 0;
        connect(&stream, &HttpStream::bodyReceived, this, [&](const QByteArray &bytes) {
            seen += bytes.size();
            sinceLastByte.start();
        });

        QTRY_COMPARE_WITH_TIMEOUT(report.endings(), 1, 10000);
        QCOMPARE(report.transportFailures, QList<HttpStream::Failure>{HttpStream::Failure::IdleTimeout});
        // It fired after the trickle stopped, not while it flowed.
        QVERIFY(seen > 100);
        QVERIFY2(sinceLastByte.elapsed() >= 380, qPrintable(QString::number(sinceLastByte.elapsed())));
    }
};

QTEST_GUILESS_MAIN(HttpStreamTest)
#include "tst_http_stream.moc"
