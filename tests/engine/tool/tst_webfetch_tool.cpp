#include <QHash>
#include <QNetworkAccessManager>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <functional>

#include "ToolTestSupport.h"
#include "engine/tool/WebDownload.h"
#include "engine/tool/WebFetchTool.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

// One request as the server read it.
struct SeenRequest {
    QByteArray path;
    QHash<QByteArray, QByteArray> headers; // names in lower case
};

// An HTTP/1.1 server on 127.0.0.1 for the tool to fetch from: each path
// answers with what the test scripted, or never (a stalled server).
class WebServer : public QObject
{
public:
    using Answer = std::function<void(QTcpSocket *socket, const SeenRequest &request)>;

    WebServer()
    {
        m_server.listen(QHostAddress::LocalHost);
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                QObject::connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onRead(socket); });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    QString url(const QString &path) const
    {
        return u"http://127.0.0.1:%1%2"_s.arg(m_server.serverPort()).arg(path);
    }

    void on(const QByteArray &path, Answer answer) { m_answers.insert(path, std::move(answer)); }

    // A complete answer, closed after it.
    void reply(const QByteArray &path, int status, const QByteArray &contentType, const QByteArray &body,
               const QByteArray &extraHeaders = {})
    {
        on(path, [=](QTcpSocket *socket, const SeenRequest &) {
            socket->write("HTTP/1.1 " + QByteArray::number(status) + " Status\r\nContent-Type: " + contentType
                          + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n" + extraHeaders
                          + "Connection: close\r\n\r\n" + body);
            socket->disconnectFromHost();
        });
    }

    const QList<SeenRequest> &requests() const { return m_requests; }

private:
    void onRead(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        buffer.remove(0, end + 4);
        SeenRequest request;
        request.path = lines.value(0).split(' ').value(1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines.at(i).indexOf(':');
            if (colon > 0)
                request.headers.insert(lines.at(i).left(colon).trimmed().toLower(), lines.at(i).mid(colon + 1).trimmed());
        }
        m_requests.append(request);
        if (const auto answer = m_answers.constFind(request.path); answer != m_answers.constEnd())
            (*answer)(socket, request);
    }

    QTcpServer m_server;
    QHash<QByteArray, Answer> m_answers;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QList<SeenRequest> m_requests;
};

QByteArray articleHtml()
{
    return "<html><head><title>T</title><script>var x = 1;</script></head>"
           "<body><h1>Hello &amp; welcome</h1><p>Some <b>bold</b> text.</p></body></html>";
}

} // namespace

class WebFetchToolTest : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_network;
    test::RecordingAsker m_asker;
    AbortSignal m_abort; // never fired: each abort test has its own

    ToolServices services()
    {
        ToolServices services;
        services.network = &m_network;
        return services;
    }

    ToolResult fetch(const QJsonObject &arguments, AbortSignal *abort = nullptr)
    {
        WebFetchTool tool(services());
        return test::runTool(tool, arguments, test::toolContext(u"/project"_s, &m_asker, abort ? abort : &m_abort));
    }

private Q_SLOTS:
    void init()
    {
        m_asker.requests.clear();
        m_asker.answers.clear();
    }

    void onlyHttpAndHttpsUrlsAreFetched()
    {
        for (const QString &url : {u"ftp://example.com/file"_s, u"file:///etc/passwd"_s, u"not a url"_s,
                                   u"http://"_s, u"javascript:alert(1)"_s}) {
            const ToolFailure &failure = test::failureIn(fetch({{"url"_L1, url}}));
            QVERIFY2(failure.message.startsWith(u"URL must start with http:// or https://"_s), qPrintable(failure.message));
        }
        QVERIFY(m_asker.requests.isEmpty());
    }

    void htmlBecomesMarkdownWithABrowserUserAgent()
    {
        WebServer server;
        server.reply("/page", 200, "text/html; charset=utf-8", articleHtml());
        const QString url = server.url(u"/page"_s);
        const ToolOutput &output = test::outputIn(fetch({{"url"_L1, url}}));
        QCOMPARE(output.output, u"# Hello & welcome\n\nSome **bold** text."_s);
        QCOMPARE(output.title, url + u" (text/html; charset=utf-8)"_s);
        QCOMPARE(server.requests().size(), 1);
        const SeenRequest &seen = server.requests().first();
        QVERIFY(seen.headers.value("user-agent").startsWith("Mozilla/5.0"));
        QVERIFY(seen.headers.value("accept").startsWith("text/markdown;q=1.0"));
        // Asked first, with the URL as the pattern.
        const PermissionRequest *asked = m_asker.find(u"webfetch"_s);
        QVERIFY(asked);
        QCOMPARE(asked->patterns, QStringList{url});
    }

    void textAndHtmlFormats()
    {
        WebServer server;
        server.reply("/page", 200, "text/html", articleHtml());
        const ToolOutput &text = test::outputIn(fetch({{"url"_L1, server.url(u"/page"_s)}, {"format"_L1, "text"_L1}}));
        QCOMPARE(text.output, u"Hello & welcome\nSome bold text."_s);
        QVERIFY(server.requests().last().headers.value("accept").startsWith("text/plain;q=1.0"));
        const ToolOutput &html = test::outputIn(fetch({{"url"_L1, server.url(u"/page"_s)}, {"format"_L1, "html"_L1}}));
        QCOMPARE(html.output, QString::fromUtf8(articleHtml()));
        QVERIFY(server.requests().last().headers.value("accept").startsWith("text/html;q=1.0"));
    }

    void otherContentComesAsItIs()
    {
        WebServer server;
        server.reply("/data.json", 200, "application/json", "{\"a\": \"<b>\"}");
        const ToolOutput &output = test::outputIn(fetch({{"url"_L1, server.url(u"/data.json"_s)}}));
        QCOMPARE(output.output, u"{\"a\": \"<b>\"}"_s);
        QVERIFY(output.attachments.isEmpty());
    }

    void imagesBecomeAnAttachment()
    {
        WebServer server;
        const QByteArray png("\x89PNG\r\n\x1a\n\0\0binary", 16);
        server.reply("/logo.png", 200, "image/png", png);
        const ToolOutput &output = test::outputIn(fetch({{"url"_L1, server.url(u"/logo.png"_s)}}));
        QCOMPARE(output.output, u"Image fetched successfully"_s);
        QCOMPARE(output.attachments.size(), 1);
        QCOMPARE(output.attachments.first().mime, u"image/png"_s);
        QCOMPARE(output.attachments.first().url, u"data:image/png;base64,"_s + QString::fromLatin1(png.toBase64()));
    }

    void anErrorStatusIsReported()
    {
        WebServer server;
        server.reply("/missing", 404, "text/html", "<p>not here</p>");
        const ToolFailure &failure = test::failureIn(fetch({{"url"_L1, server.url(u"/missing"_s)}}));
        QCOMPARE(failure.message, u"Request failed with status code: 404"_s);
    }

    void aCloudflareChallengeIsRetriedOnceAsOpencode()
    {
        WebServer server;
        server.on("/guarded", [](QTcpSocket *socket, const SeenRequest &request) {
            const bool opencode = request.headers.value("user-agent") == "opencode";
            const QByteArray body = opencode ? "passed" : "challenge page";
            socket->write("HTTP/1.1 " + QByteArray(opencode ? "200 OK" : "403 Forbidden")
                          + "\r\nContent-Type: text/plain\r\n" + (opencode ? "" : "cf-mitigated: challenge\r\n")
                          + "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
            socket->disconnectFromHost();
        });
        const ToolOutput &output = test::outputIn(fetch({{"url"_L1, server.url(u"/guarded"_s)}}));
        QCOMPARE(output.output, u"passed"_s);
        QCOMPARE(server.requests().size(), 2);

        // A plain 403 is not retried.
        server.reply("/forbidden", 403, "text/plain", "no");
        const ToolFailure &failure = test::failureIn(fetch({{"url"_L1, server.url(u"/forbidden"_s)}}));
        QCOMPARE(failure.message, u"Request failed with status code: 403"_s);
        QCOMPARE(server.requests().size(), 3);
    }

    void aDeclaredSizeOverTheCapIsRefusedWithoutReading()
    {
        WebServer server;
        // The header promises 6 MB and nothing follows: only the header can end this.
        server.on("/huge", [](QTcpSocket *socket, const SeenRequest &) {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6291456\r\n\r\n");
        });
        const ToolFailure &failure = test::failureIn(fetch({{"url"_L1, server.url(u"/huge"_s)}, {"timeout"_L1, 60}}));
        QCOMPARE(failure.message, u"Response too large (exceeds 5MB limit)"_s);
    }

    void aBodyOverTheCapIsRefusedWhileItArrives()
    {
        WebServer server;
        // No length given: the body itself crosses the cap, and the
        // connection then stays open, so only the cap can end the fetch.
        server.on("/stream", [](QTcpSocket *socket, const SeenRequest &) {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n");
            const QByteArray chunk(1024 * 1024, 'x');
            for (int i = 0; i < 6; ++i)
                socket->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
        });
        const ToolFailure &failure = test::failureIn(fetch({{"url"_L1, server.url(u"/stream"_s)}, {"timeout"_L1, 60}}));
        QCOMPARE(failure.message, u"Response too large (exceeds 5MB limit)"_s);
    }

    void aSilentServerTimesOut()
    {
        WebServer server;
        server.on("/silent", [](QTcpSocket *, const SeenRequest &) {});
        const ToolFailure &failure = test::failureIn(fetch({{"url"_L1, server.url(u"/silent"_s)}, {"timeout"_L1, 1}}));
        QCOMPARE(failure.message, u"Request timed out after 1 seconds"_s);
    }

    void theTimeoutIsCappedAtTwoMinutes()
    {
        WebServer server;
        server.reply("/page", 200, "text/plain", "ok");
        QVERIFY(test::outputOf(fetch({{"url"_L1, server.url(u"/page"_s)}, {"timeout"_L1, 100000}})));
        QCOMPARE(m_asker.find(u"webfetch"_s)->metadata.value("timeout"_L1).toDouble(), 120.0);
    }

    void redirectsAreFollowed()
    {
        WebServer server;
        server.on("/old", [&server](QTcpSocket *socket, const SeenRequest &) {
            socket->write("HTTP/1.1 301 Moved\r\nLocation: " + server.url(u"/new"_s).toUtf8()
                          + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            socket->disconnectFromHost();
        });
        server.reply("/new", 200, "text/plain", "moved here");
        QCOMPARE(test::outputIn(fetch({{"url"_L1, server.url(u"/old"_s)}})).output, u"moved here"_s);
    }

    void endlessRedirectsEndWithAnError()
    {
        WebServer server;
        server.on("/loop", [&server](QTcpSocket *socket, const SeenRequest &) {
            socket->write("HTTP/1.1 302 Found\r\nLocation: " + server.url(u"/loop"_s).toUtf8()
                          + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            socket->disconnectFromHost();
        });
        const ToolFailure &failure = test::failureIn(fetch({{"url"_L1, server.url(u"/loop"_s)}}));
        QVERIFY2(failure.message.startsWith(u"Request failed: "_s), qPrintable(failure.message));
        // Bounded; Qt may send a hop again when the server closes the
        // connection it hoped to reuse, so the count is not exact.
        QVERIFY2(server.requests().size() <= 2 * (WebDownload::MaxRedirects + 1),
                 qPrintable(QString::number(server.requests().size())));
    }

    void anUnreachableServerIsAClearError()
    {
        quint16 port = 0;
        {
            QTcpServer closed;
            QVERIFY(closed.listen(QHostAddress::LocalHost));
            port = closed.serverPort();
        }
        const ToolFailure &failure = test::failureIn(fetch({{"url"_L1, u"http://127.0.0.1:%1/"_s.arg(port)}}));
        QVERIFY2(failure.message.startsWith(u"Request failed: "_s), qPrintable(failure.message));
    }

    void abortStopsAFetchInFlight()
    {
        WebServer server;
        AbortSignal abort;
        server.on("/silent", [&abort](QTcpSocket *, const SeenRequest &) { abort.abort(); });
        const ToolFailure &failure =
            test::failureIn(fetch({{"url"_L1, server.url(u"/silent"_s)}, {"timeout"_L1, 60}}, &abort));
        QVERIFY2(failure.message.contains(u"stopped"_s), qPrintable(failure.message));
    }

    void aRejectedPermissionFetchesNothing()
    {
        WebServer server;
        server.reply("/page", 200, "text/plain", "ok");
        m_asker.answers.insert(u"webfetch"_s, PermissionAnswer{PermissionReply::Reject, {}, false});
        const ToolFailure &failure = test::failureIn(fetch({{"url"_L1, server.url(u"/page"_s)}}));
        QCOMPARE(failure.kind, ToolFailure::Kind::PermissionRejected);
        QVERIFY(server.requests().isEmpty());
    }
};

QTEST_GUILESS_MAIN(WebFetchToolTest)
#include "tst_webfetch_tool.moc"
