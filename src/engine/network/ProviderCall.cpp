#include "ProviderCall.h"

#include "NetworkLogging.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaObject>

#include <utility>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// A free coroutine over the shared channel rather than a member one: it must
// not capture a `this` that can be destroyed while it is suspended.
QCoro::AsyncGenerator<ProviderEvent> drain(std::shared_ptr<ProviderEventChannel> channel)
{
    while (true) {
        std::optional<ProviderEvent> event = co_await channel->next();
        if (!event)
            co_return;
        co_yield std::move(*event);
    }
}

// The first meaningful byte of a body, past whitespace and a UTF-8 BOM.
std::optional<char> firstSignificantByte(const QByteArray &bytes)
{
    qsizetype i = bytes.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    for (; i < bytes.size(); ++i) {
        const char c = bytes.at(i);
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return c;
    }
    return std::nullopt;
}

// A whole 2xx body that is an error object: `{"error":…}` (OpenAI, Gemini,
// Anthropic, OpenRouter) or vLLM's top-level `{"object":"error",…}`.
bool isErrorDocument(const QByteArray &body)
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    if (!document.isObject())
        return false;
    const QJsonObject object = document.object();
    return object.contains("error"_L1) || object.value("object"_L1).toString() == "error"_L1;
}

} // namespace

ProviderCall::ProviderCall(QNetworkAccessManager *manager, WireProtocol protocol, HttpRequestSpec request,
                           const HttpStreamLimits &limits, QObject *parent)
    : QObject(parent)
    , m_manager(manager)
    , m_protocol(protocol)
    , m_request(std::move(request))
    , m_limits(limits)
    , m_parser(protocol)
    , m_channel(std::make_shared<ProviderEventChannel>())
{
}

ProviderCall::~ProviderCall()
{
    if (m_state == State::Running)
        qCDebug(lcHttp) << "a provider call was destroyed while running; aborting its request";
    releaseStream();
    // A coroutine still reading learns why its events stopped. No signal:
    // whoever listens may be half destroyed too.
    if (!isDone() && m_channelAttached)
        m_channel->push(ErrorEvent{ProviderError::aborted()});
    m_channel->close();
}

void ProviderCall::start()
{
    if (m_state != State::Ready) {
        qCWarning(lcHttp) << "ignoring start() on a provider call that already started";
        return;
    }
    m_state = State::Running;
    if (!m_manager) {
        // Reported from the event loop like every other failure, so a caller
        // that connects after start() still hears of it.
        qCCritical(lcHttp) << "a provider call was started without a network access manager";
        QMetaObject::invokeMethod(
            this, [this] { failWith(ProviderError::network(tr("no network access is available"))); },
            Qt::QueuedConnection);
        return;
    }

    m_stream = new ReplyStream(m_manager, m_request, m_limits, this);
    // The prompt can be megabytes of images; the reply holds its own copy.
    m_request = HttpRequestSpec{};
    connect(m_stream, &ReplyStream::headersReceived, this, &ProviderCall::onHeaders);
    connect(m_stream, &ReplyStream::bodyReceived, this, &ProviderCall::onBody);
    connect(m_stream, &ReplyStream::succeeded, this, &ProviderCall::onSucceeded);
    connect(m_stream, &ReplyStream::httpFailed, this, &ProviderCall::onHttpFailed);
    connect(m_stream, &ReplyStream::transportFailed, this, &ProviderCall::onTransportFailed);
}

void ProviderCall::abort()
{
    if (isDone())
        return;
    m_state = State::Running;
    failWith(ProviderError::aborted());
}

int ProviderCall::httpStatus() const
{
    return m_status;
}

QCoro::AsyncGenerator<ProviderEvent> ProviderCall::events()
{
    attachChannel();
    return drain(m_channel);
}

ProviderEventChannel::Awaiter ProviderCall::nextEvent()
{
    attachChannel();
    return m_channel->next();
}

void ProviderCall::attachChannel()
{
    if (m_channelAttached)
        return;
    m_channelAttached = true;
    if (m_published > 0)
        qCWarning(lcHttp) << "events() taken after" << m_published
                          << "events were delivered; the coroutine will not see them";
    if (isDone())
        m_channel->close();
}

void ProviderCall::onHeaders(int httpStatus, const ReplyStream::Headers &headers)
{
    m_status = httpStatus;
    m_headers = headers;
    const QByteArray contentType = ProviderError::header(headers, "content-type").toLower();
    if (httpStatus >= 200 && httpStatus < 300 && contentType.contains("text/html"))
        m_bodyMode = BodyMode::HtmlPage;
    Q_EMIT responseStarted(httpStatus, headers);
}

bool ProviderCall::decideBodyMode()
{
    const std::optional<char> first = firstSignificantByte(m_held);
    if (!first)
        return false;
    if (*first == '<')
        m_bodyMode = BodyMode::HtmlPage;
    else if (*first == '{')
        m_bodyMode = BodyMode::JsonDocument;
    else
        m_bodyMode = BodyMode::EventStream;
    return true;
}

void ProviderCall::onBody(const QByteArray &bytes)
{
    if (m_state != State::Running)
        return;
    switch (m_bodyMode) {
    case BodyMode::EventStream:
        feed(bytes);
        return;
    case BodyMode::Undecided:
        m_held.append(bytes);
        if (decideBodyMode() && m_bodyMode == BodyMode::EventStream)
            feed(std::exchange(m_held, {}));
        return;
    case BodyMode::HtmlPage:
    case BodyMode::JsonDocument:
        if (m_held.size() < m_limits.maxErrorBodyBytes)
            m_held.append(bytes.left(m_limits.maxErrorBodyBytes - m_held.size()));
        return;
    }
}

bool ProviderCall::feed(const QByteArray &bytes)
{
    return deliver(m_parser.append(bytes));
}

void ProviderCall::onSucceeded()
{
    if (m_state != State::Running)
        return;
    switch (m_bodyMode) {
    case BodyMode::HtmlPage:
        qCWarning(lcHttp) << "HTTP" << m_status << "answered with an HTML page instead of a stream";
        failWith(ProviderError::fromHttpResponse(m_status, m_headers, m_held));
        return;
    case BodyMode::JsonDocument:
        if (isErrorDocument(m_held)) {
            qCWarning(lcHttp) << "HTTP" << m_status << "answered with an error object instead of a stream";
            failWith(ProviderError::fromHttpResponse(m_status, m_headers, m_held));
            return;
        }
        // Not an error: let the decoder judge what it can of it.
        m_bodyMode = BodyMode::EventStream;
        finishStream();
        return;
    case BodyMode::Undecided:
    case BodyMode::EventStream:
        finishStream();
        return;
    }
}

void ProviderCall::finishStream()
{
    QPointer<ProviderCall> self(this);
    if (!m_held.isEmpty() && !feed(std::exchange(m_held, {})))
        return;
    if (!deliver(m_parser.finish()))
        return;
    releaseStream();

    if (m_streamError) {
        m_state = State::Failed;
        m_error = m_streamError;
        m_channel->close();
        Q_EMIT failed(*m_error);
        return;
    }
    if (m_finish) {
        m_state = State::Finished;
        m_channel->close();
        Q_EMIT finished(*m_finish);
        return;
    }
    // Every decoder ends with a finish; this is a safety net, not a path.
    failWith(ProviderError::malformedStream(tr("the provider's answer ended without a result")));
}

void ProviderCall::onHttpFailed(int httpStatus, const ReplyStream::Headers &headers, const QByteArray &body)
{
    if (m_state != State::Running)
        return;
    failWith(ProviderError::fromHttpResponse(httpStatus, headers, body));
}

void ProviderCall::onTransportFailed(ReplyStream::Failure failure, const QString &detail)
{
    if (m_state != State::Running)
        return;
    switch (failure) {
    case ReplyStream::Failure::Aborted:
        failWith(ProviderError::aborted());
        return;
    case ReplyStream::Failure::ConnectTimeout:
    case ReplyStream::Failure::IdleTimeout:
        failWith(ProviderError::timeout(detail));
        return;
    case ReplyStream::Failure::BodyTooLarge:
        failWith(ProviderError::malformedStream(detail));
        return;
    case ReplyStream::Failure::ProxyCredentials: {
        // Trying again sends the same credentials to the same proxy.
        ProviderError error = ProviderError::network(detail);
        error.retryable = false;
        failWith(error);
        return;
    }
    case ReplyStream::Failure::Network:
        break;
    }
    const bool streaming = m_status >= 200 && m_status < 300
        && (m_bodyMode == BodyMode::EventStream || m_bodyMode == BodyMode::Undecided);
    if (streaming) {
        // The connection broke inside the body. Whether anything was lost is
        // the decoder's call: it knows whether the protocol's end marker came.
        qCInfo(lcHttp).noquote() << "the stream's connection ended early:" << detail;
        finishStream();
        return;
    }
    failWith(ProviderError::network(detail));
}

bool ProviderCall::deliver(const QList<ProviderEvent> &events)
{
    for (const ProviderEvent &event : events) {
        if (m_state != State::Running)
            return false;
        if (const auto *error = std::get_if<ErrorEvent>(&event); error && !m_streamError)
            m_streamError = error->error;
        if (const auto *finish = std::get_if<FinishEvent>(&event))
            m_finish = *finish;
        if (!publish(event))
            return false;
    }
    return m_state == State::Running;
}

bool ProviderCall::publish(const ProviderEvent &event)
{
    ++m_published;
    if (m_channelAttached)
        m_channel->push(event);
    QPointer<ProviderCall> self(this);
    Q_EMIT eventReceived(event);
    return !self.isNull();
}

void ProviderCall::failWith(const ProviderError &error)
{
    if (isDone())
        return;
    releaseStream();
    m_state = State::Failed;
    m_error = error;
    if (error.kind != ProviderError::Kind::Aborted)
        qCInfo(lcHttp).noquote() << "provider call failed:" << ProviderError::kindName(error.kind)
                                 << "HTTP" << error.httpStatus;
    if (!publish(ErrorEvent{error}))
        return;
    m_channel->close();
    Q_EMIT failed(error);
}

void ProviderCall::releaseStream()
{
    ReplyStream *stream = std::exchange(m_stream, nullptr);
    if (!stream)
        return;
    disconnect(stream, nullptr, this, nullptr);
    // Closes the socket now; the object itself may be mid-signal.
    stream->abort();
    stream->deleteLater();
}

} // namespace qcode
