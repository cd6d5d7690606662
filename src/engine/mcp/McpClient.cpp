#include "McpClient.h"

#include <QJsonArray>

#include "McpLogging.h"
#include "McpPendingRequest.h"
#include "McpTransport.h"
#include "engine/session/NextEmission.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// The SDK's own texts: what the model reads about a failed call.
const QString ClosedText = u"Connection closed"_s;
const QString TimeoutText = u"Request timed out"_s;

// Waits for `pending` unless it is done already (a transport that failed
// while the request was being sent).
QCoro::Task<> waitFor(McpPendingRequest *pending)
{
    if (pending->result)
        co_return;
    NextEmission done(pending, &McpPendingRequest::done);
    co_await done;
}

} // namespace

QString McpClient::latestProtocolVersion()
{
    return u"2025-11-25"_s;
}

const QStringList &McpClient::supportedProtocolVersions()
{
    static const QStringList versions{u"2025-11-25"_s, u"2025-06-18"_s, u"2025-03-26"_s, u"2024-11-05"_s, u"2024-10-07"_s};
    return versions;
}

QString McpClient::errorText(int code, const QString &message)
{
    return u"MCP error %1: %2"_s.arg(code).arg(message);
}

McpClient::McpClient(McpTransport *transport, QObject *parent)
    : QObject(parent)
    , m_transport(transport)
{
    m_transport->setParent(this);
    connect(m_transport, &McpTransport::received, this, &McpClient::handle);
    connect(m_transport, &McpTransport::malformed, this, [this](const QString &error) {
        qCWarning(lcMcp).noquote() << error;
        Q_EMIT protocolError(error);
    });
    connect(m_transport, &McpTransport::closed, this, [this](const QString &reason) {
        if (!m_open)
            return;
        m_open = false;
        qCInfo(lcMcp).noquote() << reason;
        failAll(reason);
        Q_EMIT closed(reason);
    });
}

McpClient::~McpClient()
{
    m_open = false;
    failAll(ClosedText);
}

void McpClient::failAll(const QString &reason)
{
    const QHash<qint64, McpPendingRequest *> pending = std::exchange(m_pending, {});
    for (McpPendingRequest *request : pending)
        request->finish(Error{errorText(ConnectionClosed, reason)});
}

void McpClient::close()
{
    m_open = false;
    failAll(ClosedText);
    m_transport->close();
}

QCoro::Task<Result<void>> McpClient::connectToServer(int timeoutMs, QString offeredVersion)
{
    QPointer<McpClient> self(this);
    {
        auto opening = std::make_unique<McpPendingRequest>();
        McpPendingRequest *waiting = opening.get();
        connect(m_transport, &McpTransport::opened, waiting, [waiting] { waiting->finish(QJsonObject()); });
        connect(m_transport, &McpTransport::failed, waiting, [waiting](const QString &error) { waiting->finish(Error{error}); });
        waiting->timer.setSingleShot(true);
        connect(&waiting->timer, &QTimer::timeout, waiting, [waiting] {
            waiting->finish(Error{errorText(RequestTimeout, TimeoutText)});
        });
        waiting->timer.start(timeoutMs);
        m_transport->open();
        // Named: GCC 12 destroys temporaries of a co_await expression twice.
        QCoro::Task<> opened = waitFor(waiting);
        co_await opened;
        if (!self)
            co_return Error{errorText(ConnectionClosed, ClosedText)};
        if (!*waiting->result)
            co_return Error{waiting->result->errorMessage()};
    }
    m_open = true;
    const QJsonObject params{
        {u"protocolVersion"_s, offeredVersion},
        // No roots, sampling or elicitation: qcode answers none of them.
        {u"capabilities"_s, QJsonObject()},
        {u"clientInfo"_s, QJsonObject{{u"name"_s, u"qcode"_s}, {u"version"_s, QStringLiteral(QCODE_VERSION)}}},
    };
    RequestOptions options;
    options.timeoutMs = timeoutMs;
    QCoro::Task<Result<QJsonObject>> initializing = request(u"initialize"_s, params, options);
    const Result<QJsonObject> answer = co_await initializing;
    if (!self)
        co_return Error{errorText(ConnectionClosed, ClosedText)};
    if (!answer)
        co_return Error{answer.errorMessage()};
    const QString version = answer->value("protocolVersion"_L1).toString();
    if (!supportedProtocolVersions().contains(version)) {
        close();
        co_return Error{u"Server's protocol version is not supported: %1"_s.arg(version)};
    }
    m_protocolVersion = version;
    m_capabilities = answer->value("capabilities"_L1).toObject();
    m_serverInfo = answer->value("serverInfo"_L1).toObject();
    m_instructions = answer->value("instructions"_L1).toString();
    m_transport->setProtocolVersion(version);
    notify(u"notifications/initialized"_s);
    qCInfo(lcMcp) << "connected to" << m_serverInfo.value("name"_L1).toString() << "protocol" << version;
    co_return Result<void>();
}

QCoro::Task<Result<QJsonObject>> McpClient::request(QString method, QJsonObject params, RequestOptions options)
{
    if (!m_open)
        co_return Error{errorText(ConnectionClosed, ClosedText)};
    if (options.abort && options.abort->isAborted())
        co_return Error{u"The call was aborted."_s};
    QPointer<McpClient> self(this);
    auto pending = std::make_unique<McpPendingRequest>();
    McpPendingRequest *waiting = pending.get();
    const qint64 id = m_nextId++;
    waiting->id = id;
    waiting->method = method;
    waiting->resetTimeoutOnProgress = options.resetTimeoutOnProgress;
    waiting->onProgress = options.onProgress;
    if (options.onProgress || options.resetTimeoutOnProgress) {
        if (method == "tools/call"_L1) {
            QJsonObject meta = params.value("_meta"_L1).toObject();
            meta.insert(u"progressToken"_s, id);
            params.insert(u"_meta"_s, meta);
        }
    }
    // A request given up (timeout, abort) is cancelled on the server and
    // forgotten here, so its late result is dropped.
    const auto giveUp = [self, waiting, id](const QString &error, const QString &reason) {
        if (self) {
            self->m_pending.remove(id);
            self->notify(u"notifications/cancelled"_s, QJsonObject{{u"requestId"_s, id}, {u"reason"_s, reason}});
        }
        waiting->finish(Error{error});
    };
    waiting->timer.setSingleShot(true);
    connect(&waiting->timer, &QTimer::timeout, waiting, [giveUp] {
        const QString error = errorText(RequestTimeout, TimeoutText);
        giveUp(error, u"McpError: "_s + error);
    });
    waiting->timer.start(options.timeoutMs);
    if (options.abort) {
        connect(options.abort.data(), &AbortSignal::aborted, waiting, [giveUp] {
            giveUp(u"The call was aborted."_s, u"The user aborted the request."_s);
        });
    }
    m_pending.insert(id, waiting);
    QJsonObject message{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"method"_s, method}};
    if (!params.isEmpty())
        message.insert(u"params"_s, params);
    m_transport->send(message);
    QCoro::Task<> answered = waitFor(waiting);
    co_await answered;
    if (self)
        m_pending.remove(id);
    co_return std::move(*waiting->result);
}

void McpClient::notify(const QString &method, const QJsonObject &params)
{
    if (!m_open)
        return;
    QJsonObject message{{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, method}};
    if (!params.isEmpty())
        message.insert(u"params"_s, params);
    m_transport->send(message);
}

QCoro::Task<Result<QList<QJsonObject>>> McpClient::listTools(int timeoutMs)
{
    QPointer<McpClient> self(this);
    QList<QJsonObject> tools;
    QString cursor;
    QStringList seen;
    // A server that repeats a cursor would page forever.
    while (true) {
        RequestOptions options;
        options.timeoutMs = timeoutMs;
        QJsonObject params;
        if (!cursor.isEmpty())
            params.insert(u"cursor"_s, cursor);
        QCoro::Task<Result<QJsonObject>> listing = request(u"tools/list"_s, params, options);
        const Result<QJsonObject> page = co_await listing;
        if (!self)
            co_return Error{errorText(ConnectionClosed, ClosedText)};
        if (!page)
            co_return Error{page.errorMessage()};
        for (const QJsonValue &tool : page->value("tools"_L1).toArray()) {
            if (tool.isObject() && tool.toObject().value("name"_L1).isString())
                tools.append(tool.toObject());
        }
        cursor = page->value("nextCursor"_L1).toString();
        if (cursor.isEmpty() || seen.contains(cursor))
            break;
        seen.append(cursor);
    }
    co_return tools;
}

QCoro::Task<Result<QJsonObject>> McpClient::callTool(QString name, QJsonObject arguments, RequestOptions options)
{
    return request(u"tools/call"_s, QJsonObject{{u"name"_s, name}, {u"arguments"_s, arguments}}, std::move(options));
}

void McpClient::handle(const QJsonObject &message)
{
    const QJsonValue id = message.value("id"_L1);
    const QString method = message.value("method"_L1).toString();
    if (!method.isEmpty() && !id.isUndefined()) {
        // A request from the server: qcode answers ping and nothing else.
        QJsonObject answer{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}};
        if (method == "ping"_L1)
            answer.insert(u"result"_s, QJsonObject());
        else
            answer.insert(u"error"_s, QJsonObject{{u"code"_s, -32601}, {u"message"_s, u"Method not found"_s}});
        m_transport->send(answer);
        return;
    }
    if (!method.isEmpty()) {
        const QJsonObject params = message.value("params"_L1).toObject();
        if (method == "notifications/tools/list_changed"_L1) {
            Q_EMIT toolsChanged();
        } else if (method == "notifications/progress"_L1) {
            const QJsonValue token = params.value("progressToken"_L1);
            McpPendingRequest *pending = m_pending.value(token.isString() ? token.toString().toLongLong() : token.toInteger(-1));
            if (!pending)
                return;
            if (pending->resetTimeoutOnProgress)
                pending->timer.start();
            if (pending->onProgress)
                pending->onProgress(params.value("progress"_L1).toDouble(), params.value("total"_L1).toDouble(),
                                    params.value("message"_L1).toString());
        } else if (method == "notifications/message"_L1) {
            qCDebug(lcMcp) << "server log:" << params;
        }
        return;
    }
    if (message.contains("result"_L1) || message.contains("error"_L1)) {
        McpPendingRequest *pending = id.isDouble() ? m_pending.take(id.toInteger()) : nullptr;
        if (!pending) {
            qCDebug(lcMcp) << "dropped a response nobody waits for, id" << id;
            return;
        }
        if (message.contains("error"_L1)) {
            const QJsonObject error = message.value("error"_L1).toObject();
            pending->finish(Error{errorText(error.value("code"_L1).toInt(), error.value("message"_L1).toString())});
        } else {
            pending->finish(message.value("result"_L1).toObject());
        }
        return;
    }
    const QString error = tr("The MCP server sent a message that is neither a request, a response nor a notification.");
    qCWarning(lcMcp).noquote() << error;
    Q_EMIT protocolError(error);
}

} // namespace qcode
