#include "WebFetchTool.h"

#include <QJsonArray>
#include <QNetworkRequest>
#include <QStringDecoder>
#include <QUrl>

#include <memory>

#include <QCoro/QCoroSignal>

#include "HtmlToMarkdown.h"
#include "HtmlToText.h"
#include "ToolPermission.h"
#include "WebDownload.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QByteArray BrowserUserAgent =
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 "
    "Safari/537.36";

QByteArray acceptFor(const QString &format)
{
    if (format == u"text"_s)
        return "text/plain;q=1.0, text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1";
    if (format == u"html"_s)
        return "text/html;q=1.0, application/xhtml+xml;q=0.9, text/plain;q=0.8, text/markdown;q=0.7, */*;q=0.1";
    return "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1";
}

QNetworkRequest requestFor(const QUrl &url, const QString &format, const QByteArray &userAgent)
{
    QNetworkRequest request(url);
    request.setRawHeader("User-Agent", userAgent);
    request.setRawHeader("Accept", acceptFor(format));
    request.setRawHeader("Accept-Language", "en-US,en;q=0.9");
    return request;
}

// The body as text, in the charset the Content-Type names (UTF-8 when it
// names none or one Qt does not know).
QString decodeBody(const QByteArray &body, const QByteArray &contentType)
{
    QByteArray charset;
    for (const QByteArray &parameter : contentType.split(';')) {
        const QByteArray trimmed = parameter.trimmed();
        if (trimmed.toLower().startsWith("charset="))
            charset = trimmed.mid(8).trimmed().replace('"', "");
    }
    QStringDecoder decoder(charset.isEmpty() ? "UTF-8" : charset.constData());
    if (!decoder.isValid())
        decoder = QStringDecoder(QStringDecoder::Utf8);
    return decoder.decode(body);
}

} // namespace

WebFetchTool::WebFetchTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString WebFetchTool::name() const
{
    return u"webfetch"_s;
}

QString WebFetchTool::description() const
{
    // Instructions for the model, in qcode's words; not translated.
    return u"Fetches a web page or file from a URL and returns its content.\n\n"
           "- The URL must be a complete http:// or https:// address.\n"
           "- format is markdown (the default: HTML pages converted to Markdown), text (HTML reduced to plain "
           "text) or html (the page as sent). Content that is not HTML is returned as it is; images come back "
           "as an attachment.\n"
           "- Responses over 5 MB are refused; timeout is in seconds (default 30, at most 120).\n"
           "- The tool only reads: it never submits forms or changes anything on the web.\n"
           "- For a large page, ask for the format you need and summarise what matters."_s;
}

QJsonObject WebFetchTool::parameters() const
{
    return QJsonObject{
        {u"type"_s, u"object"_s},
        {u"properties"_s,
         QJsonObject{
             {u"url"_s, QJsonObject{{u"type"_s, u"string"_s}, {u"description"_s, u"The URL to fetch content from"_s}}},
             {u"format"_s,
              QJsonObject{{u"type"_s, u"string"_s},
                          {u"enum"_s, QJsonArray{u"text"_s, u"markdown"_s, u"html"_s}},
                          {u"description"_s,
                           u"The format to return the content in (text, markdown, or html). Defaults to markdown."_s}}},
             {u"timeout"_s, QJsonObject{{u"type"_s, u"number"_s},
                                        {u"minimum"_s, 0},
                                        {u"description"_s, u"Optional timeout in seconds (max 120)"_s}}},
         }},
        {u"required"_s, QJsonArray{u"url"_s}},
    };
}

QCoro::Task<ToolResult> WebFetchTool::execute(QJsonObject arguments, ToolContext context)
{
    const QString urlText = arguments.value(u"url"_s).toString().trimmed();
    const QString format = arguments.value(u"format"_s).toString(u"markdown"_s);
    const QUrl url(urlText, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != u"http"_s && scheme != u"https"_s) || url.host().isEmpty())
        co_return ToolFailure{u"URL must start with http:// or https:// and name a host: %1"_s.arg(urlText)};
    const double requested = arguments.contains(u"timeout"_s)
                                 ? arguments.value(u"timeout"_s).toDouble()
                                 : double(DefaultTimeoutSeconds);
    const int timeoutMs = int(std::min(requested, double(MaxTimeoutSeconds)) * 1000);
    if (!m_services.network)
        co_return ToolFailure{QStringLiteral("Web pages cannot be fetched here: there is no network access.")};

    PermissionRequest ask;
    ask.permission = u"webfetch"_s;
    ask.patterns = QStringList{urlText};
    ask.always = QStringList{u"*"_s};
    ask.metadata = QJsonObject{{u"url"_s, urlText}, {u"format"_s, format}, {u"timeout"_s, timeoutMs / 1000.0}};
    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    QPointer<AbortSignal> abort = context.abort;
    std::unique_ptr<WebDownload> download;
    const QByteArray userAgents[] = {BrowserUserAgent, QByteArray("opencode")};
    for (const QByteArray &userAgent : userAgents) {
        if (abort.isNull() || abort->isAborted())
            co_return ToolFailure{QStringLiteral("The fetch of %1 was stopped.").arg(urlText)};
        download = std::make_unique<WebDownload>(m_services.network, requestFor(url, format, userAgent),
                                                 MaxResponseBytes, std::max(timeoutMs, 1));
        WebDownload *current = download.get();
        const QMetaObject::Connection onAbort =
            QObject::connect(abort.data(), &AbortSignal::aborted, current, [current] { current->cancel(); });
        co_await qCoro(current, &WebDownload::finished);
        QObject::disconnect(onAbort);
        // Cloudflare's bot check lets some clients that say who they are through.
        const bool challenged = download->outcome() == WebDownload::Outcome::Done && download->status() == 403
                                && download->header("cf-mitigated").trimmed().toLower() == "challenge";
        if (!challenged)
            break;
    }

    switch (download->outcome()) {
    case WebDownload::Outcome::Pending:
    case WebDownload::Outcome::Done:
        break;
    case WebDownload::Outcome::TooLarge:
        co_return ToolFailure{u"Response too large (exceeds 5MB limit)"_s};
    case WebDownload::Outcome::TimedOut:
        co_return ToolFailure{u"Request timed out after %1 seconds"_s.arg(timeoutMs / 1000.0)};
    case WebDownload::Outcome::Cancelled:
        co_return ToolFailure{QStringLiteral("The fetch of %1 was stopped.").arg(urlText)};
    case WebDownload::Outcome::Failed:
        co_return ToolFailure{u"Request failed: %1"_s.arg(download->errorString())};
    }
    if (download->status() < 200 || download->status() > 299)
        co_return ToolFailure{u"Request failed with status code: %1"_s.arg(download->status())};

    const QByteArray contentType = download->header("Content-Type");
    const QString contentTypeText = QString::fromLatin1(contentType);
    const QString mime = QString::fromLatin1(contentType.split(';').value(0)).trimmed().toLower();
    ToolOutput output;
    output.title = u"%1 (%2)"_s.arg(urlText, contentTypeText);
    if (mime.startsWith(u"image/"_s) && mime != u"image/svg+xml"_s && mime != u"image/vnd.fastly.image-optimizer"_s) {
        output.output = u"Image fetched successfully"_s;
        FilePart image;
        image.mime = mime;
        image.url = u"data:%1;base64,%2"_s.arg(mime, QString::fromLatin1(download->body().toBase64()));
        output.attachments.append(image);
        co_return output;
    }
    const QString content = decodeBody(download->body(), contentType);
    const bool html = contentTypeText.contains(u"text/html"_s, Qt::CaseInsensitive);
    if (html && format == u"markdown"_s)
        output.output = HtmlToMarkdown::convert(content);
    else if (html && format == u"text"_s)
        output.output = HtmlToText::convert(content);
    else
        output.output = content;
    co_return output;
}

} // namespace qcode
