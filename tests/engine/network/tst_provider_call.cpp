// ProviderCall against FakeProviderServer on 127.0.0.1: the four protocols
// end to end, HTTP and transport failures, timeouts, abort and teardown,
// and the coroutine API. No test waits a fixed time: each waits on the
// condition it checks.

#include <QtTest>

#include <QCoro/QCoroAsyncGenerator>
#include <QCoro/QCoroTask>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QTcpServer>
#include <QThread>

#include "FakeProviderServer.h"
#include "engine/network/ProviderCall.h"
#include "engine/network/ProviderClient.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;
using Kind = ProviderError::Kind;

namespace {

// What a call told its listeners.
struct Outcome {
    QList<ProviderEvent> events;
    QList<FinishEvent> finishes;
    QList<ProviderError> failures;

    int terminalCount() const { return int(finishes.size() + failures.size()); }

    template<typename T>
    QList<T> all() const
    {
        QList<T> found;
        for (const ProviderEvent &event : events) {
            if (const auto *value = std::get_if<T>(&event))
                found.append(*value);
        }
        return found;
    }
    QString text() const
    {
        QString joined;
        for (const TextDeltaEvent &delta : all<TextDeltaEvent>())
            joined += delta.text;
        return joined;
    }
    QString reasoning() const
    {
        QString joined;
        for (const ReasoningDeltaEvent &delta : all<ReasoningDeltaEvent>())
            joined += delta.text;
        return joined;
    }
    qsizetype indexOfFirst(const QString &name) const
    {
        for (qsizetype i = 0; i < events.size(); ++i) {
            if (providerEventName(events.at(i)) == name)
                return i;
        }
        return -1;
    }
};

void record(ProviderCall *call, Outcome *outcome)
{
    QObject::connect(call, &ProviderCall::eventReceived, call,
                     [outcome](const ProviderEvent &event) { outcome->events.append(event); });
    QObject::connect(call, &ProviderCall::finished, call,
                     [outcome](const FinishEvent &finish) { outcome->finishes.append(finish); });
    QObject::connect(call, &ProviderCall::failed, call,
                     [outcome](const ProviderError &error) { outcome->failures.append(error); });
}

HttpRequestSpec requestFor(const FakeProviderServer &server, WireProtocol protocol)
{
    return HttpRequestSpec{server.endpoint(protocol),
                           {{"x-api-key", "test-key"}, {"content-type", "application/json"}},
                           R"({"model":"fake-model","stream":true,"messages":[{"role":"user","content":"hi"}]})"};
}

HttpStreamLimits quickLimits()
{
    HttpStreamLimits limits;
    limits.connectTimeout = std::chrono::seconds(5);
    limits.idleTimeout = std::chrono::seconds(5);
    return limits;
}

QString protocolName(WireProtocol protocol)
{
    switch (protocol) {
    case WireProtocol::AnthropicMessages: return u"anthropic"_s;
    case WireProtocol::OpenAIChat: return u"openai-chat"_s;
    case WireProtocol::OpenAIResponses: return u"openai-responses"_s;
    case WireProtocol::Gemini: return u"gemini"_s;
    }
    return {};
}

void addProtocolRows()
{
    QTest::addColumn<WireProtocol>("protocol");
    for (WireProtocol protocol : {WireProtocol::AnthropicMessages, WireProtocol::OpenAIChat,
                                  WireProtocol::OpenAIResponses, WireProtocol::Gemini})
        QTest::newRow(qPrintable(protocolName(protocol))) << protocol;
}

QCoro::Task<> collectWithForeach(ProviderCall *call, QList<ProviderEvent> *out, bool *done)
{
    auto events = call->events();
    QCORO_FOREACH(const ProviderEvent &event, events) {
        out->append(event);
    }
    *done = true;
}

QCoro::Task<> collectOneByOne(ProviderCall *call, QList<ProviderEvent> *out, bool *done)
{
    while (std::optional<ProviderEvent> event = co_await call->nextEvent())
        out->append(*event);
    *done = true;
}

} // namespace

class ProviderCallTest : public QObject
{
    Q_OBJECT

private:
    ProviderCall *start(const FakeProviderServer &server, WireProtocol protocol, Outcome *outcome,
                        const HttpStreamLimits &limits = quickLimits())
    {
        ProviderClient client(&m_manager, limits);
        ProviderCall *call = client.stream(protocol, requestFor(server, protocol), this);
        record(call, outcome);
        return call;
    }

    QNetworkAccessManager m_manager;

private Q_SLOTS:
    // Calls are children of the test; none may outlive the test that
    // made it, since their listeners point into that test's locals.
    void cleanup() { qDeleteAll(findChildren<ProviderCall *>(Qt::FindDirectChildrenOnly)); }

    void streamsTextInChunksFromEveryProtocol_data() { addProtocolRows(); }
    void streamsTextInChunksFromEveryProtocol()
    {
        QFETCH(WireProtocol, protocol);
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"Hel"_s, u"lo"_s, u" wörld"_s}).usage(10, 5));
        Outcome outcome;
        ProviderCall *call = start(server, protocol, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(call->state(), ProviderCall::State::Finished);
        QCOMPARE(outcome.terminalCount(), 1);
        QCOMPARE(outcome.failures.size(), 0);
        QCOMPARE(outcome.text(), u"Hello wörld"_s);
        QCOMPARE(outcome.all<TextDeltaEvent>().size(), 3);
        QVERIFY(std::holds_alternative<StartEvent>(outcome.events.first()));
        QVERIFY(std::holds_alternative<FinishEvent>(outcome.events.last()));
        QCOMPARE(outcome.finishes.first().reason, FinishReason::Stop);
        QCOMPARE(outcome.finishes.first().usage.input, std::optional<qint64>(10));
        QCOMPARE(outcome.finishes.first().usage.output, std::optional<qint64>(5));
        QCOMPARE(call->httpStatus(), 200);
    }

    void streamsToolCallWithArgumentsFromEveryProtocol_data() { addProtocolRows(); }
    void streamsToolCallWithArgumentsFromEveryProtocol()
    {
        QFETCH(WireProtocol, protocol);
        FakeProviderServer server;
        const QJsonObject arguments{{"path"_L1, "src/main.cpp"_L1}, {"limit"_L1, 20}};
        server.enqueue(FakeTurn().text({u"Reading."_s}).toolCall(u"read_file"_s, arguments, u"call_7"_s).usage(30, 12));
        Outcome outcome;
        ProviderCall *call = start(server, protocol, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(outcome.failures.size(), 0);
        const QList<ToolCallEvent> calls = outcome.all<ToolCallEvent>();
        QCOMPARE(calls.size(), 1);
        QCOMPARE(calls.first().toolCallId, u"call_7"_s);
        QCOMPARE(calls.first().toolName, u"read_file"_s);
        QCOMPARE(calls.first().parsedInput, std::optional<QJsonObject>(arguments));
        QCOMPARE(outcome.finishes.first().reason, FinishReason::ToolCalls);
        QVERIFY(outcome.indexOfFirst(u"text-delta"_s) < outcome.indexOfFirst(u"tool-call"_s));
    }

    void streamsReasoningBeforeTextFromEveryProtocol_data() { addProtocolRows(); }
    void streamsReasoningBeforeTextFromEveryProtocol()
    {
        QFETCH(WireProtocol, protocol);
        FakeProviderServer server;
        server.enqueue(FakeTurn().reasoning({u"Let me "_s, u"think"_s}).text({u"Done"_s}).usage(20, 8, 3));
        Outcome outcome;
        ProviderCall *call = start(server, protocol, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(outcome.failures.size(), 0);
        QCOMPARE(outcome.reasoning(), u"Let me think"_s);
        QCOMPARE(outcome.text(), u"Done"_s);
        QVERIFY(outcome.indexOfFirst(u"reasoning-end"_s) >= 0);
        QVERIFY(outcome.indexOfFirst(u"reasoning-delta"_s) < outcome.indexOfFirst(u"text-delta"_s));
        const StreamUsage usage = outcome.finishes.first().usage;
        QCOMPARE(usage.output, std::optional<qint64>(8));
        QCOMPARE(usage.reasoning, std::optional<qint64>(3));
    }

    void reportsTheLengthFinishReason_data() { addProtocolRows(); }
    void reportsTheLengthFinishReason()
    {
        QFETCH(WireProtocol, protocol);
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"cut"_s}).finishReason(FinishReason::Length).usage(5, 100));
        Outcome outcome;
        ProviderCall *call = start(server, protocol, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(outcome.finishes.size(), 1);
        QCOMPARE(outcome.finishes.first().reason, FinishReason::Length);
        QCOMPARE(outcome.all<FinishStepEvent>().size(), 1);
    }

    void sendsTheRequestBodyAndHeadersUnchanged()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"ok"_s}));
        Outcome outcome;
        const HttpRequestSpec spec = requestFor(server, WireProtocol::Gemini);
        ProviderClient client(&m_manager, quickLimits());
        ProviderCall *call = client.stream(WireProtocol::Gemini, spec, this);
        record(call, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(server.requests().size(), 1);
        const RecordedRequest &request = server.requests().first();
        QCOMPARE(request.method, QByteArray("POST"));
        QCOMPARE(request.path, QByteArray("/v1beta/models/fake-model:streamGenerateContent?alt=sse"));
        QCOMPARE(request.body, spec.body);
        QCOMPARE(request.header("x-api-key"), QByteArray("test-key"));
        QCOMPARE(request.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(request.json().value("model"_L1).toString(), u"fake-model"_s);
    }

    void sendsABuiltProviderRequestToItsEndpoint()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"Hi"_s}).usage(12, 1));
        ProviderRequest request;
        request.endpoint.protocol = WireProtocol::AnthropicMessages;
        request.endpoint.providerId = u"anthropic"_s;
        request.endpoint.modelId = u"claude-test"_s;
        QUrl base = server.baseUrl();
        base.setPath(u"/v1"_s);
        request.endpoint.baseUrl = base;
        request.endpoint.apiKey = u"sk-test"_s;
        request.system = {u"Be brief."_s};
        request.messages = {ModelMessage{ModelRole::User, {TextContent{u"hello"_s, {}}}, {}}};

        ProviderClient client(&m_manager, quickLimits());
        const Result<ProviderCall *> call = client.stream(request, this);
        QVERIFY2(call.ok(), qPrintable(call.errorMessage()));
        Outcome outcome;
        record(*call, &outcome);

        QTRY_VERIFY((*call)->isDone());
        QCOMPARE(outcome.text(), u"Hi"_s);
        QCOMPARE(server.requests().size(), 1);
        const RecordedRequest &sent = server.requests().first();
        QCOMPARE(sent.path, QByteArray("/v1/messages"));
        QCOMPARE(sent.header("x-api-key"), QByteArray("sk-test"));
        QCOMPARE(sent.json().value("model"_L1).toString(), u"claude-test"_s);
        QCOMPARE(sent.json().value("stream"_L1).toBool(), true);
    }

    void refusesARequestNoApiWouldAccept()
    {
        FakeProviderServer server;
        ProviderRequest request;
        request.endpoint.protocol = WireProtocol::OpenAIChat;
        request.endpoint.providerId = u"openai"_s;
        request.endpoint.baseUrl = server.baseUrl();
        request.messages = {ModelMessage{ModelRole::User, {TextContent{u"hello"_s, {}}}, {}}};

        ProviderClient client(&m_manager, quickLimits());
        const Result<ProviderCall *> call = client.stream(request, this);
        QVERIFY(!call.ok());
        QVERIFY(!call.errorMessage().isEmpty());
        QVERIFY(findChildren<ProviderCall *>().isEmpty());
    }

    void classifiesHttpErrorsWithTheirHeadersAndBody_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("headerName");
        QTest::addColumn<QByteArray>("headerValue");
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<qint64>("retryAfterMs"); // -1: none

        QTest::newRow("401 authentication")
            << 401 << QByteArray(R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})")
            << QByteArray("request-id") << QByteArray("req_1") << Kind::Auth << false << qint64(-1);
        QTest::newRow("429 retry-after seconds")
            << 429 << QByteArray(R"({"type":"error","error":{"type":"rate_limit_error","message":"Number of requests exceeded"}})")
            << QByteArray("retry-after") << QByteArray("2") << Kind::RateLimit << true << qint64(2000);
        QTest::newRow("429 retry-after-ms")
            << 429 << QByteArray(R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})")
            << QByteArray("retry-after-ms") << QByteArray("750") << Kind::RateLimit << true << qint64(750);
        QTest::newRow("429 out of quota")
            << 429 << QByteArray(R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}})")
            << QByteArray("x-request-id") << QByteArray("abc") << Kind::RateLimit << false << qint64(-1);
        QTest::newRow("500 server error")
            << 500 << QByteArray(R"({"type":"error","error":{"type":"api_error","message":"Internal server error"}})")
            << QByteArray("request-id") << QByteArray("req_2") << Kind::Server << true << qint64(-1);
        QTest::newRow("529 overloaded")
            << 529 << QByteArray(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})")
            << QByteArray("x-should-retry") << QByteArray("true") << Kind::Overloaded << true << qint64(-1);
        QTest::newRow("400 context overflow")
            << 400 << QByteArray(R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}})")
            << QByteArray("request-id") << QByteArray("req_3") << Kind::ContextOverflow << false << qint64(-1);
    }
    void classifiesHttpErrorsWithTheirHeadersAndBody()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, headerName);
        QFETCH(QByteArray, headerValue);
        QFETCH(Kind, kind);
        QFETCH(bool, retryable);
        QFETCH(qint64, retryAfterMs);

        FakeProviderServer server;
        server.enqueue(FakeTurn::httpError(status, body, {{headerName, headerValue}}));
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::AnthropicMessages, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(call->state(), ProviderCall::State::Failed);
        QCOMPARE(outcome.terminalCount(), 1);
        QCOMPARE(outcome.failures.size(), 1);
        const ProviderError &error = outcome.failures.first();
        QCOMPARE(error.kind, kind);
        QCOMPARE(error.httpStatus, status);
        QCOMPARE(error.retryable, retryable);
        QCOMPARE(error.retryAfterMs, retryAfterMs < 0 ? std::nullopt : std::optional<qint64>(retryAfterMs));
        QCOMPARE(error.body, body);
        QCOMPARE(ProviderError::header(error.headers, headerName), headerValue);
        QVERIFY(!error.sentence().isEmpty());
        // The stream carries the same error as its one and last event.
        QCOMPARE(outcome.events.size(), 1);
        QCOMPARE(std::get<ErrorEvent>(outcome.events.last()).error, error);
        QCOMPARE(call->error(), std::optional<ProviderError>(error));
    }

    void reportsAnHtmlPageOn200AsATypedError_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::newRow("labelled html") << QByteArray("text/html; charset=utf-8");
        QTest::newRow("labelled event-stream") << QByteArray("text/event-stream");
    }
    void reportsAnHtmlPageOn200AsATypedError()
    {
        QFETCH(QByteArray, contentType);
        const QByteArray page = "\n<!DOCTYPE html><html><body><h1>Sign in to the Wi-Fi</h1></body></html>";
        FakeProviderServer server;
        server.enqueue(FakeTurn::raw(200, contentType, page));
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::OpenAIChat, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.finishes.size(), 0);
        const ProviderError &error = outcome.failures.first();
        QCOMPARE(error.httpStatus, 200);
        QCOMPARE(error.body, page);
        QCOMPARE(error, ProviderError::fromHttpResponse(200, error.headers, page));
        QVERIFY(error.message.contains("HTML"_L1));
    }

    void reportsAJsonErrorObjectOn200AsATypedError()
    {
        const QByteArray body = R"({"error":{"message":"The model is overloaded.","code":503,"status":"UNAVAILABLE"}})";
        FakeProviderServer server;
        server.enqueue(FakeTurn::raw(200, "application/json", body));
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::Gemini, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.failures.first().kind, Kind::Overloaded);
        QVERIFY(outcome.failures.first().retryable);
        QCOMPARE(outcome.failures.first().message, u"The model is overloaded."_s);
    }

    void failsWithTheProvidersInStreamError_data()
    {
        QTest::addColumn<WireProtocol>("protocol");
        QTest::addColumn<QString>("type");
        QTest::addColumn<Kind>("kind");
        QTest::newRow("anthropic overloaded") << WireProtocol::AnthropicMessages << u"overloaded_error"_s << Kind::Overloaded;
        QTest::newRow("openai-chat server") << WireProtocol::OpenAIChat << u"server_error"_s << Kind::Server;
        QTest::newRow("openai-responses server") << WireProtocol::OpenAIResponses << u"server_error"_s << Kind::Server;
        QTest::newRow("gemini unavailable") << WireProtocol::Gemini << u"UNAVAILABLE"_s << Kind::Overloaded;
    }
    void failsWithTheProvidersInStreamError()
    {
        QFETCH(WireProtocol, protocol);
        QFETCH(QString, type);
        QFETCH(Kind, kind);
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"Part"_s, u"ial"_s}).streamError(type, u"Try again later"_s));
        Outcome outcome;
        ProviderCall *call = start(server, protocol, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(outcome.terminalCount(), 1);
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.failures.first().kind, kind);
        QVERIFY(outcome.failures.first().retryable);
        QCOMPARE(outcome.text(), u"Partial"_s);
        QCOMPARE(outcome.all<ErrorEvent>().size(), 1);
    }

    void aStreamCutBeforeItsEndFailsWithTheDecodersError_data() { addProtocolRows(); }
    void aStreamCutBeforeItsEndFailsWithTheDecodersError()
    {
        QFETCH(WireProtocol, protocol);
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"a"_s, u"b"_s, u"c"_s}).usage(3, 3).disconnectAfter(3));
        Outcome outcome;
        ProviderCall *call = start(server, protocol, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(outcome.terminalCount(), 1);
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.failures.first(), ProviderError::truncatedStream());
        QCOMPARE(outcome.all<ErrorEvent>().size(), 1);
    }

    void aStalledStreamFailsWithATimeoutWithinTheIdleLimit()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"Hel"_s, u"lo"_s}).stallAfter(3));
        HttpStreamLimits limits = quickLimits();
        limits.idleTimeout = std::chrono::milliseconds(300);
        Outcome outcome;
        QElapsedTimer clock;
        clock.start();
        ProviderCall *call = start(server, WireProtocol::AnthropicMessages, &outcome, limits);

        QTRY_VERIFY_WITH_TIMEOUT(call->isDone(), 5000);
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.failures.first().kind, Kind::Timeout);
        QVERIFY(outcome.failures.first().retryable);
        QVERIFY2(clock.elapsed() >= 300, qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(outcome.text(), u"Hel"_s);
        QTRY_COMPARE(server.openConnectionCount(), 0);
    }

    void aServerThatNeverAnswersFailsWithTheConnectTimeout()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().stallBeforeHeaders());
        HttpStreamLimits limits = quickLimits();
        limits.connectTimeout = std::chrono::milliseconds(300);
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::OpenAIChat, &outcome, limits);

        QTRY_VERIFY_WITH_TIMEOUT(call->isDone(), 5000);
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.failures.first().kind, Kind::Timeout);
        QCOMPARE(outcome.failures.first().httpStatus, 0);
        QCOMPARE(call->httpStatus(), 0);
    }

    void aSlowTrickleWithinTheIdleLimitSucceeds()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"slow"_s, u" but"_s, u" steady"_s}).usage(4, 3)
                           .trickle(std::chrono::milliseconds(25), 32));
        // Generous against a loaded machine: a piece comes every 25 ms.
        HttpStreamLimits limits = quickLimits();
        limits.idleTimeout = std::chrono::milliseconds(600);
        Outcome outcome;
        QElapsedTimer clock;
        clock.start();
        ProviderCall *call = start(server, WireProtocol::OpenAIResponses, &outcome, limits);

        QTRY_VERIFY_WITH_TIMEOUT(call->isDone(), 20000);
        QCOMPARE(outcome.failures.size(), 0);
        QCOMPARE(outcome.text(), u"slow but steady"_s);
        // The whole answer took longer than the idle limit: only silence
        // counts, not duration.
        QVERIFY2(clock.elapsed() > 600, qPrintable(QString::number(clock.elapsed())));
    }

    void abortMidStreamFailsWithAbortedAndClosesTheSocket()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"Hel"_s, u"lo"_s}).stallAfter(3));
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::AnthropicMessages, &outcome);
        QTRY_COMPARE(outcome.all<TextDeltaEvent>().size(), 1);
        QCOMPARE(server.openConnectionCount(), 1);

        call->abort();
        QCOMPARE(call->state(), ProviderCall::State::Failed);
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.failures.first().kind, Kind::Aborted);
        QVERIFY(!outcome.failures.first().retryable);
        QCOMPARE(std::get<ErrorEvent>(outcome.events.last()).error.kind, Kind::Aborted);
        QTRY_COMPARE(server.openConnectionCount(), 0);

        call->abort();
        QCOMPARE(outcome.terminalCount(), 1);
    }

    void destroyingACallMidStreamCancelsItQuietly()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"Hel"_s, u"lo"_s}).stallAfter(3));
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::OpenAIChat, &outcome);
        QTRY_VERIFY(!outcome.all<TextDeltaEvent>().isEmpty());
        QCOMPARE(server.openConnectionCount(), 1);

        delete call;
        QTRY_COMPARE(server.openConnectionCount(), 0);
        QCOMPARE(outcome.terminalCount(), 0);
    }

    void destroyingACallFromItsOwnEventSlotIsSafe()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"one"_s, u"two"_s, u"three"_s}).stallAfter(20));
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::AnthropicMessages, &outcome);
        int deltasSeen = 0;
        connect(call, &ProviderCall::eventReceived, this, [call, &deltasSeen](const ProviderEvent &event) {
            if (std::holds_alternative<TextDeltaEvent>(event) && ++deltasSeen == 1)
                delete call;
        });

        QTRY_COMPARE(deltasSeen, 1);
        QTRY_COMPARE(server.openConnectionCount(), 0);
        QCOMPARE(deltasSeen, 1);
        QCOMPARE(outcome.terminalCount(), 0);
    }

    void aRefusedConnectionIsANetworkError()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();

        QUrl url(u"http://127.0.0.1/v1/messages"_s);
        url.setPort(port);
        ProviderCall call(&m_manager, WireProtocol::AnthropicMessages, HttpRequestSpec{url, {}, "{}"}, quickLimits());
        Outcome outcome;
        record(&call, &outcome);
        call.start();

        QTRY_VERIFY(call.isDone());
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.failures.first().kind, Kind::Network);
        QCOMPARE(outcome.failures.first().httpStatus, 0);
        QVERIFY(outcome.failures.first().retryable);
        QVERIFY(!outcome.failures.first().message.isEmpty());
    }

    void aBodyOverTheCeilingIsStopped()
    {
        FakeProviderServer server;
        QStringList chunks;
        for (int i = 0; i < 50; ++i)
            chunks.append(u"chunk %1 of a long answer"_s.arg(i));
        server.enqueue(FakeTurn().text(chunks));
        HttpStreamLimits limits = quickLimits();
        limits.maxBodyBytes = 2048;
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::OpenAIChat, &outcome, limits);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(outcome.failures.size(), 1);
        QVERIFY(!outcome.failures.first().retryable);
        QVERIFY(outcome.text().size() < chunks.join(QString()).size());
    }

    void theServerAnswersSeveralRequestsInTurn()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"first"_s}));
        server.enqueue(FakeTurn::httpError(503, R"({"error":{"message":"busy","type":"server_error"}})"));
        server.enqueue(FakeTurn().text({u"third"_s}));

        const QList<WireProtocol> protocols{WireProtocol::OpenAIChat, WireProtocol::OpenAIChat,
                                            WireProtocol::AnthropicMessages};
        QStringList texts;
        QList<bool> failed;
        for (WireProtocol protocol : protocols) {
            Outcome outcome;
            ProviderCall *call = start(server, protocol, &outcome);
            QTRY_VERIFY(call->isDone());
            texts.append(outcome.text());
            failed.append(!outcome.failures.isEmpty());
            delete call;
        }
        QCOMPARE(texts, QStringList({u"first"_s, QString(), u"third"_s}));
        QCOMPARE(failed, QList<bool>({false, true, false}));
        QCOMPARE(server.requests().size(), 3);
        QCOMPARE(server.requests().at(2).path, QByteArray("/v1/messages"));
        QCOMPARE(server.pendingTurns(), 0);
    }

    void anUnscriptedRequestGetsAServerError()
    {
        FakeProviderServer server;
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::OpenAIResponses, &outcome);

        QTRY_VERIFY(call->isDone());
        QCOMPARE(outcome.failures.size(), 1);
        QCOMPARE(outcome.failures.first().httpStatus, 500);
        QVERIFY(outcome.failures.first().message.contains("no scripted turn"_L1));
    }

    void aCoroutineReadsEveryEventWithQCoroForeach_data() { addProtocolRows(); }
    void aCoroutineReadsEveryEventWithQCoroForeach()
    {
        QFETCH(WireProtocol, protocol);
        FakeProviderServer server;
        server.enqueue(FakeTurn().reasoning({u"hm"_s}).text({u"Hel"_s, u"lo"_s})
                           .toolCall(u"bash"_s, {{"command"_L1, "ls"_L1}}).usage(7, 9));
        Outcome outcome;
        ProviderCall *call = start(server, protocol, &outcome);
        QList<ProviderEvent> awaited;
        bool done = false;
        QCoro::Task<> task = collectWithForeach(call, &awaited, &done);

        QTRY_VERIFY(done);
        QVERIFY(call->isDone());
        QCOMPARE(awaited, outcome.events);
        QVERIFY(std::holds_alternative<FinishEvent>(awaited.last()));
    }

    void aCoroutineAwaitsEventsOneByOne()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn::httpError(401, R"({"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}})"));
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::OpenAIChat, &outcome);
        QList<ProviderEvent> awaited;
        bool done = false;
        QCoro::Task<> task = collectOneByOne(call, &awaited, &done);

        QTRY_VERIFY(done);
        QCOMPARE(awaited.size(), 1);
        QCOMPARE(std::get<ErrorEvent>(awaited.first()).error.kind, Kind::Auth);
    }

    void aCoroutineReadingADestroyedCallSeesAbortAndEnds()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"Hel"_s, u"lo"_s}).stallAfter(3));
        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::AnthropicMessages, &outcome);
        QList<ProviderEvent> awaited;
        bool done = false;
        QCoro::Task<> task = collectWithForeach(call, &awaited, &done);
        QTRY_COMPARE(outcome.all<TextDeltaEvent>().size(), 1);

        delete call;
        QTRY_VERIFY(done);
        QCOMPARE(std::get<ErrorEvent>(awaited.last()).error.kind, Kind::Aborted);
        QCOMPARE(awaited.size(), outcome.events.size() + 1);
        QTRY_COMPARE(server.openConnectionCount(), 0);
    }

    void eventsCrossToAnotherThreadAsValues()
    {
        FakeProviderServer server;
        server.enqueue(FakeTurn().text({u"a"_s, u"b"_s, u"c"_s}).usage(1, 3));
        QThread thread;
        QObject receiver;
        receiver.moveToThread(&thread);
        thread.start();
        QMutex mutex;
        QList<ProviderEvent> received;
        QList<Qt::HANDLE> threads;

        Outcome outcome;
        ProviderCall *call = start(server, WireProtocol::OpenAIChat, &outcome);
        connect(call, &ProviderCall::eventReceived, &receiver, [&](const ProviderEvent &event) {
            QMutexLocker lock(&mutex);
            received.append(event);
            threads.append(QThread::currentThreadId());
        });
        QTRY_VERIFY(call->isDone());
        QTRY_VERIFY([&] {
            QMutexLocker lock(&mutex);
            return received.size() == outcome.events.size();
        }());
        thread.quit();
        thread.wait();
        QCOMPARE(received, outcome.events);
        QVERIFY(!threads.contains(QThread::currentThreadId()));
    }
};

QTEST_GUILESS_MAIN(ProviderCallTest)
#include "tst_provider_call.moc"
