#pragma once

#include <QByteArray>
#include <QObject>
#include <QNetworkAccessManager>
#include <QPointer>

#include <QCoro/QCoroAsyncGenerator>

#include <memory>
#include <optional>

#include "ReplyStream.h"
#include "ProviderEventChannel.h"
#include "engine/provider/ProviderError.h"
#include "engine/provider/ProviderEvent.h"
#include "engine/provider/ProviderRequest.h"
#include "engine/provider/ProviderStreamParser.h"
#include "engine/provider/WireProtocol.h"


namespace qcode {

// One streaming request to a provider: POSTs the request, feeds the body
// into the protocol's ProviderStreamParser and hands every ProviderEvent on
// as it arrives — by signal (values, so a queued connection can carry them
// to another thread) and, for the engine's coroutines, as an awaitable
// sequence:
//
//     auto events = call->events();
//     QCORO_FOREACH(const ProviderEvent &event, events) { … }
//
// A call ends exactly once, with finished() or failed():
// - the decoder's sequence ends with its FinishEvent; if it reported an
//   error on the way (a mid-stream error event, a body cut before the
//   protocol's end marker) the call fails with that error, otherwise it
//   finishes;
// - a failure the call meets itself — a non-2xx status (classified by
//   ProviderError::fromHttpResponse, with retry delay), a 2xx answer that is
//   an HTML page or a JSON error object, a transport failure, a timeout, a
//   body over the ceiling, abort() — is delivered as one last ErrorEvent
//   and then failed(). Nothing follows it.
//
// Destroying a running call aborts the request; a coroutine still reading
// its events sees an aborted ErrorEvent and then the end, and no signal is
// emitted from the destructor.
class ProviderCall : public QObject
{
    Q_OBJECT

public:
    enum class State { Ready, Running, Finished, Failed };
    Q_ENUM(State)

    // `manager` must outlive the call and live in the call's thread.
    ProviderCall(QNetworkAccessManager *manager, WireProtocol protocol, HttpRequestSpec request,
                 const HttpStreamLimits &limits = {}, QObject *parent = nullptr);
    ~ProviderCall() override;

    // Sends the request. Signals come later, from the event loop, so
    // connecting after start() loses nothing.
    void start();
    // Stops the request: an aborted ErrorEvent and failed() follow at once.
    void abort();

    State state() const { return m_state; }
    bool isDone() const { return m_state == State::Finished || m_state == State::Failed; }
    WireProtocol protocol() const { return m_protocol; }
    // 0 until the response headers arrive.
    int httpStatus() const;
    // The error the call failed with.
    const std::optional<ProviderError> &error() const { return m_error; }

    // The call's events as an asynchronous sequence that ends after the
    // last event. Take it before start() or before control returns to the
    // event loop: events delivered earlier went only to the signal. One
    // consumer per call. The generator holds no pointer to the call, so it
    // may outlive it safely.
    QCoro::AsyncGenerator<ProviderEvent> events();
    // co_await it: the next event, or nothing after the last. Same rules as
    // events(); use one or the other.
    ProviderEventChannel::Awaiter nextEvent();

Q_SIGNALS:
    void responseStarted(int httpStatus, const qcode::ReplyStream::Headers &headers);
    void eventReceived(const qcode::ProviderEvent &event);
    void finished(const qcode::FinishEvent &finish);
    void failed(const qcode::ProviderError &error);

private:
    // How a 2xx body is read, decided by its first bytes: an event stream is
    // decoded as it arrives; an HTML page or a bare JSON object is gathered
    // and judged whole.
    enum class BodyMode { Undecided, EventStream, HtmlPage, JsonDocument };

    void onHeaders(int httpStatus, const ReplyStream::Headers &headers);
    void onBody(const QByteArray &bytes);
    void onSucceeded();
    void onHttpFailed(int httpStatus, const ReplyStream::Headers &headers, const QByteArray &body);
    void onTransportFailed(ReplyStream::Failure failure, const QString &detail);

    bool decideBodyMode();
    bool feed(QByteArrayView bytes);
    void finishStream();
    // Publishes decoder events; false once the call ended or was destroyed.
    bool deliver(const QList<ProviderEvent> &events);
    bool publish(const ProviderEvent &event);
    void failWith(const ProviderError &error);
    void releaseStream();
    void attachChannel();

    QPointer<QNetworkAccessManager> m_manager;
    WireProtocol m_protocol;
    HttpRequestSpec m_request;
    HttpStreamLimits m_limits;
    ProviderStreamParser m_parser;
    QList<ProviderEvent> m_batch; // the events of one read; emptied, not freed, between reads
    ReplyStream *m_stream = nullptr;
    std::shared_ptr<ProviderEventChannel> m_channel;
    bool m_channelAttached = false;
    qsizetype m_published = 0;

    State m_state = State::Ready;
    BodyMode m_bodyMode = BodyMode::Undecided;
    int m_status = 0;
    ReplyStream::Headers m_headers;
    QByteArray m_held; // body bytes kept until the mode is known, or gathered whole
    std::optional<ProviderError> m_streamError;
    std::optional<FinishEvent> m_finish;
    std::optional<ProviderError> m_error;
};

} // namespace qcode
