#include "FakeProviderServer.h"

#include "FakeStreamEncoder.h"

#include <QLoggingCategory>
#include <QTcpSocket>
#include <QTimer>

#include <memory>
#include <optional>

using namespace Qt::StringLiterals;

namespace qcode::test {

namespace {

Q_LOGGING_CATEGORY(lcFakeServer, "qcode.test.fakeserver", QtInfoMsg)

std::optional<WireProtocol> protocolForPath(const QByteArray &path)
{
    const qsizetype query = path.indexOf('?');
    const QByteArray route = query < 0 ? path : path.left(query);
    if (route.endsWith("/messages"))
        return WireProtocol::AnthropicMessages;
    if (route.endsWith("/chat/completions"))
        return WireProtocol::OpenAIChat;
    if (route.endsWith("/responses"))
        return WireProtocol::OpenAIResponses;
    if (route.contains(":streamGenerateContent"))
        return WireProtocol::Gemini;
    return std::nullopt;
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 529: return "Overloaded";
    default: return "Status";
    }
}

QByteArray headerLines(const FakeTurn::Headers &headers)
{
    QByteArray out;
    for (const auto &[name, value] : headers)
        out += name + ": " + value + "\r\n";
    return out;
}

QByteArray chunk(const QByteArray &bytes)
{
    return QByteArray::number(bytes.size(), 16) + "\r\n" + bytes + "\r\n";
}

QByteArray errorBody(const QString &message)
{
    return R"({"error":{"type":"fake_server_error","message":")" + message.toUtf8() + R"("}})";
}

} // namespace

FakeProviderServer::FakeProviderServer(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &FakeProviderServer::onNewConnection);
    if (!m_server.listen(QHostAddress::LocalHost, 0))
        qCWarning(lcFakeServer) << "cannot listen on 127.0.0.1:" << m_server.errorString();
}

FakeProviderServer::~FakeProviderServer()
{
    // The sockets die with m_server, after the members they report to;
    // cut them loose first.
    const QList<QTcpSocket *> sockets = m_connections.keys();
    for (QTcpSocket *socket : sockets) {
        disconnect(socket, nullptr, this, nullptr);
        socket->abort();
    }
    m_connections.clear();
    m_server.close();
}

QUrl FakeProviderServer::baseUrl() const
{
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(u"127.0.0.1"_s);
    url.setPort(port());
    return url;
}

QUrl FakeProviderServer::endpoint(WireProtocol protocol, const QString &model) const
{
    QUrl url = baseUrl();
    switch (protocol) {
    case WireProtocol::AnthropicMessages:
        url.setPath(u"/v1/messages"_s);
        break;
    case WireProtocol::OpenAIChat:
        url.setPath(u"/v1/chat/completions"_s);
        break;
    case WireProtocol::OpenAIResponses:
        url.setPath(u"/v1/responses"_s);
        break;
    case WireProtocol::Gemini:
        url.setPath(u"/v1beta/models/"_s + model + u":streamGenerateContent"_s);
        url.setQuery(u"alt=sse"_s);
        break;
    }
    return url;
}

void FakeProviderServer::enqueue(const FakeTurn &turn)
{
    m_turns.enqueue(turn);
}

void FakeProviderServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        m_connections.insert(socket, Connection{});
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] { onDisconnected(socket); });
    }
}

void FakeProviderServer::onDisconnected(QTcpSocket *socket)
{
    if (m_connections.remove(socket) == 0)
        return;
    socket->deleteLater();
    Q_EMIT connectionClosed();
}

void FakeProviderServer::onReadyRead(QTcpSocket *socket)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    it->buffer.append(socket->readAll());
    // One request at a time per connection, as HTTP/1.1 without pipelining.
    while (!it->responding) {
        RecordedRequest request;
        if (!takeRequest(*it, request))
            return;
        it->responding = true;
        m_requests.append(request);
        Q_EMIT requestReceived(int(m_requests.size() - 1));
        respond(socket, request);
        it = m_connections.find(socket);
        if (it == m_connections.end())
            return;
    }
}

bool FakeProviderServer::takeRequest(Connection &connection, RecordedRequest &request)
{
    const qsizetype headerEnd = connection.buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return false;
    const QList<QByteArray> lines = connection.buffer.left(headerEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    request.method = requestLine.value(0);
    request.path = requestLine.value(1);
    qint64 contentLength = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = line.left(colon).trimmed();
        const QByteArray value = line.mid(colon + 1).trimmed();
        request.headers.append({name, value});
        if (name.compare("content-length", Qt::CaseInsensitive) == 0)
            contentLength = value.toLongLong();
    }
    const qsizetype bodyStart = headerEnd + 4;
    if (connection.buffer.size() < bodyStart + contentLength)
        return false;
    request.body = connection.buffer.mid(bodyStart, contentLength);
    connection.buffer.remove(0, bodyStart + contentLength);
    return true;
}

void FakeProviderServer::respond(QTcpSocket *socket, const RecordedRequest &request)
{
    if (m_turns.isEmpty()) {
        qCWarning(lcFakeServer) << "no scripted turn left for" << request.method << request.path;
        sendWhole(socket, 500, "application/json", errorBody(u"FakeProviderServer has no scripted turn left"_s), {});
        return;
    }
    const FakeTurn turn = m_turns.dequeue();
    if (turn.delivery() == FakeTurn::Delivery::StallBeforeHeaders)
        return;
    if (turn.isWholeResponse()) {
        sendWhole(socket, turn.status(), turn.contentType(), turn.body(), turn.headers());
        return;
    }
    const std::optional<WireProtocol> protocol = protocolForPath(request.path);
    if (!protocol) {
        qCWarning(lcFakeServer) << "no provider API at" << request.path;
        sendWhole(socket, 404, "application/json", errorBody(u"FakeProviderServer knows no API at this path"_s), {});
        return;
    }
    sendStream(socket, *protocol, turn);
}

void FakeProviderServer::sendWhole(QTcpSocket *socket, int status, const QByteArray &contentType,
                                   const QByteArray &body, const FakeTurn::Headers &headers)
{
    QByteArray response = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    response += "Content-Type: " + contentType + "\r\n";
    response += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    response += headerLines(headers);
    response += "\r\n" + body;
    socket->write(response);
    m_connections[socket].responding = false;
}

void FakeProviderServer::sendStream(QTcpSocket *socket, WireProtocol protocol, const FakeTurn &turn)
{
    QList<QByteArray> events = FakeStreamEncoder::encode(protocol, turn);
    if (turn.delivery() == FakeTurn::Delivery::DisconnectAfter || turn.delivery() == FakeTurn::Delivery::StallAfter)
        events = events.mid(0, turn.eventLimit());

    QByteArray head = "HTTP/1.1 200 OK\r\n"
                      "Content-Type: text/event-stream; charset=utf-8\r\n"
                      "Cache-Control: no-cache\r\n"
                      "Transfer-Encoding: chunked\r\n";
    head += headerLines(turn.headers());
    head += "\r\n";
    socket->write(head);

    QList<QByteArray> pieces;
    if (turn.trickleBytes() > 0) {
        const QByteArray body = events.join();
        for (qsizetype at = 0; at < body.size(); at += turn.trickleBytes())
            pieces.append(body.mid(at, turn.trickleBytes()));
    } else {
        pieces = events;
    }

    if (turn.trickleInterval().count() <= 0) {
        for (const QByteArray &piece : std::as_const(pieces))
            socket->write(chunk(piece));
        endResponse(socket, turn);
        return;
    }

    // The timer belongs to the socket, so it stops when the client leaves.
    auto *timer = new QTimer(socket);
    timer->setInterval(turn.trickleInterval());
    auto remaining = std::make_shared<QList<QByteArray>>(std::move(pieces));
    connect(timer, &QTimer::timeout, this, [this, socket, timer, remaining, turn] {
        if (socket->state() != QAbstractSocket::ConnectedState) {
            timer->stop();
            return;
        }
        if (!remaining->isEmpty()) {
            socket->write(chunk(remaining->takeFirst()));
            return;
        }
        timer->stop();
        timer->deleteLater();
        endResponse(socket, turn);
    });
    timer->start();
}

void FakeProviderServer::endResponse(QTcpSocket *socket, const FakeTurn &turn)
{
    switch (turn.delivery()) {
    case FakeTurn::Delivery::Complete:
        socket->write("0\r\n\r\n");
        m_connections[socket].responding = false;
        // A request that arrived on this connection meanwhile.
        if (!m_connections[socket].buffer.isEmpty())
            QTimer::singleShot(0, socket, [this, socket] { onReadyRead(socket); });
        return;
    case FakeTurn::Delivery::DisconnectAfter:
        socket->flush();
        socket->disconnectFromHost();
        return;
    case FakeTurn::Delivery::StallAfter:
    case FakeTurn::Delivery::StallBeforeHeaders:
        return;
    }
}

} // namespace qcode::test
