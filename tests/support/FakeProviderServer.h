#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QQueue>
#include <QTcpServer>
#include <QUrl>

#include "FakeTurn.h"
#include "RecordedRequest.h"
#include "engine/provider/WireProtocol.h"

class QTcpSocket;

namespace qcode::test {

// A provider for tests: an HTTP/1.1 server on 127.0.0.1, on a port the
// system picks, that answers each request with the next scripted FakeTurn,
// encoded in the protocol the request's path names:
//
//   …/messages                          Anthropic Messages
//   …/chat/completions                  OpenAI Chat Completions
//   …/responses                         OpenAI Responses
//   …:streamGenerateContent?alt=sse     Gemini
//
// Streams go out chunked (as the real APIs send them), whole responses with
// a Content-Length; connections are kept alive, so several requests can
// share one. Every request is recorded for assertions. A request with no
// turn left gets a 500 and a warning naming the path, so a test that
// scripted too little fails loudly instead of hanging.
//
//     FakeProviderServer server;
//     server.enqueue(FakeTurn().text({"Hel", "lo"}).usage(10, 5));
//     … send to server.endpoint(WireProtocol::AnthropicMessages) …
//     QCOMPARE(server.requests().at(0).json()["model"], "claude-x");
class FakeProviderServer : public QObject
{
    Q_OBJECT

public:
    explicit FakeProviderServer(QObject *parent = nullptr);
    ~FakeProviderServer() override;

    bool isListening() const { return m_server.isListening(); }
    quint16 port() const { return m_server.serverPort(); }
    // http://127.0.0.1:<port>, without a path.
    QUrl baseUrl() const;
    // The full address each API documents, on this server.
    QUrl endpoint(WireProtocol protocol, const QString &model = QStringLiteral("fake-model")) const;

    void enqueue(const FakeTurn &turn);
    qsizetype pendingTurns() const { return m_turns.size(); }

    const QList<RecordedRequest> &requests() const { return m_requests; }
    // Client connections currently open; a client that aborts closes its.
    int openConnectionCount() const { return int(m_connections.size()); }

Q_SIGNALS:
    void requestReceived(int index);
    void connectionClosed();

private:
    struct Connection {
        QByteArray buffer;
        bool responding = false;
    };

    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void onDisconnected(QTcpSocket *socket);
    bool takeRequest(Connection &connection, RecordedRequest &request);
    void respond(QTcpSocket *socket, const RecordedRequest &request);
    void sendWhole(QTcpSocket *socket, int status, const QByteArray &contentType, const QByteArray &body,
                   const FakeTurn::Headers &headers);
    void sendStream(QTcpSocket *socket, WireProtocol protocol, const FakeTurn &turn);
    void endResponse(QTcpSocket *socket, const FakeTurn &turn);

    QTcpServer m_server;
    QHash<QTcpSocket *, Connection> m_connections;
    QQueue<FakeTurn> m_turns;
    QList<RecordedRequest> m_requests;
};

} // namespace qcode::test
