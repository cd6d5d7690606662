#include "ProviderError.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QRegularExpression>

#include <cmath>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Messages providers use when the prompt does not fit the context window
// (wire formats §7, reference §3.4). Structured codes are checked first;
// these catch servers that only say it in words.
const QRegularExpression &overflowPattern()
{
    static const QRegularExpression pattern(
        uR"(prompt is too long|exceed context limit|context[_ ]length[_ ]exceeded|exceeds the context window|)"
        uR"(maximum context length is \d+|input token count.*exceeds the maximum|exceeds the available context size|)"
        uR"(exceed_context_size_error|context length of only|greater than the context length|)"
        uR"(maximum prompt length is \d+|too large for model with \d+ maximum context length|exceeded model token limit|)"
        uR"(context window exceeds limit|exceeds the limit of \d+|input is too long for requested model|)"
        uR"(reduce the length of the messages)"_s,
        QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

QString stringOrNumber(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toInteger());
    return {};
}

struct ErrorFields {
    QString message;
    QString type;
    QString code;
    std::optional<qint64> retryInfoMs;
    bool perDayQuota = false;
};

// The error object sits in different places: `{"error":{…}}` (OpenAI,
// Gemini, Anthropic, OpenRouter), `{"message":…}` at the top (vLLM), or a
// Responses `{"response":{"error":{…}}}`.
ErrorFields readErrorFields(const QJsonObject &root)
{
    QJsonObject error = root;
    if (root.value("error"_L1).isObject())
        error = root.value("error"_L1).toObject();
    else if (root.value("response"_L1).toObject().value("error"_L1).isObject())
        error = root.value("response"_L1).toObject().value("error"_L1).toObject();

    ErrorFields fields;
    fields.message = error.value("message"_L1).toString();
    if (fields.message.isEmpty() && root.value("error"_L1).isString())
        fields.message = root.value("error"_L1).toString();
    fields.type = error.value("type"_L1).toString();
    if (fields.type.isEmpty())
        fields.type = error.value("status"_L1).toString(); // google.rpc.Status
    fields.code = stringOrNumber(error.value("code"_L1));

    // OpenRouter wraps the upstream provider's words in metadata.raw.
    const QString raw = error.value("metadata"_L1).toObject().value("raw"_L1).toString();
    if (!raw.isEmpty() && !fields.message.contains(raw))
        fields.message = fields.message.isEmpty() ? raw : fields.message + u": "_s + raw;

    // Gemini: google.rpc.RetryInfo {retryDelay:"34.4s"} and QuotaFailure.
    const QJsonArray details = error.value("details"_L1).toArray();
    for (const QJsonValue &detail : details) {
        const QJsonObject object = detail.toObject();
        const QString typeUrl = object.value("@type"_L1).toString();
        if (typeUrl.endsWith("google.rpc.RetryInfo"_L1)) {
            QString delay = object.value("retryDelay"_L1).toString();
            if (delay.endsWith(u's')) {
                delay.chop(1);
                bool ok = false;
                const double seconds = delay.toDouble(&ok);
                if (ok && seconds >= 0)
                    fields.retryInfoMs = qint64(std::ceil(seconds * 1000));
            }
        } else if (typeUrl.endsWith("google.rpc.QuotaFailure"_L1)) {
            const QJsonArray violations = object.value("violations"_L1).toArray();
            for (const QJsonValue &violation : violations) {
                if (violation.toObject().value("quotaId"_L1).toString().contains("PerDay"_L1))
                    fields.perDayQuota = true;
            }
        }
    }
    return fields;
}

bool anyOf(const ErrorFields &fields, std::initializer_list<QLatin1StringView> names)
{
    for (QLatin1StringView name : names) {
        if (fields.type.compare(name, Qt::CaseInsensitive) == 0 || fields.code.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

ProviderError::Kind kindFromStatus(int status)
{
    using Kind = ProviderError::Kind;
    switch (status) {
    case 401: return Kind::Auth;
    case 402: return Kind::RateLimit; // payment required: a quota, see retryable()
    case 403: return Kind::Permission;
    case 404: return Kind::NotFound;
    case 408: return Kind::Timeout;
    case 409: return Kind::Server;    // a conflict on the provider's side; the SDKs retry it
    case 429: return Kind::RateLimit;
    case 503:
    case 529: return Kind::Overloaded;
    case 504: return Kind::Timeout;
    default: break;
    }
    if (status >= 500 && status < 600)
        return Kind::Server;
    if (status >= 400 && status < 500)
        return Kind::BadRequest;
    return Kind::Unknown;
}

// Fills kind, retryable and the byte-limit flag from what the provider said.
void classify(ProviderError &error, const ErrorFields &fields, const QString &bodyText)
{
    using Kind = ProviderError::Kind;
    const int status = error.httpStatus;

    error.requestTooLarge = status == 413 || anyOf(fields, {"request_too_large"_L1});
    const bool overflowByCode = anyOf(fields, {"context_length_exceeded"_L1, "exceed_context_size_error"_L1});
    // A 429 "Request too large … tokens per min" is a rate limit, not an
    // overflow, whatever its words.
    const bool overflowByText = status != 429 && !anyOf(fields, {"rate_limit_exceeded"_L1, "rate_limit_error"_L1})
        && (ProviderError::looksLikeContextOverflow(fields.message)
            || (fields.message.isEmpty() && ProviderError::looksLikeContextOverflow(bodyText)));

    if (!error.requestTooLarge && (overflowByCode || overflowByText))
        error.kind = Kind::ContextOverflow;
    else if (anyOf(fields, {"authentication_error"_L1, "invalid_api_key"_L1, "UNAUTHENTICATED"_L1})
             || fields.message.contains("API key not valid"_L1))
        error.kind = Kind::Auth;
    else if (anyOf(fields, {"permission_error"_L1, "PERMISSION_DENIED"_L1}))
        error.kind = Kind::Permission;
    else if (anyOf(fields, {"not_found_error"_L1, "model_not_found"_L1, "NOT_FOUND"_L1}))
        error.kind = Kind::NotFound;
    else if (anyOf(fields, {"rate_limit_error"_L1, "rate_limit_exceeded"_L1, "RESOURCE_EXHAUSTED"_L1,
                            "too_many_requests"_L1, "insufficient_quota"_L1, "billing_error"_L1}))
        error.kind = Kind::RateLimit;
    else if (anyOf(fields, {"overloaded_error"_L1, "UNAVAILABLE"_L1}))
        error.kind = Kind::Overloaded;
    else if (anyOf(fields, {"timeout_error"_L1, "DEADLINE_EXCEEDED"_L1}))
        error.kind = Kind::Timeout;
    else if (anyOf(fields, {"api_error"_L1, "server_error"_L1, "INTERNAL"_L1}))
        error.kind = Kind::Server;
    else if (anyOf(fields, {"invalid_request_error"_L1, "INVALID_ARGUMENT"_L1, "FAILED_PRECONDITION"_L1,
                            "request_too_large"_L1}))
        error.kind = Kind::BadRequest;
    else if (status != 0 && status != 200)
        error.kind = kindFromStatus(status);
    else if (bool ok = false; fields.code.toInt(&ok), ok)
        error.kind = kindFromStatus(fields.code.toInt()); // OpenRouter's numeric code in a 200 stream
    else
        error.kind = Kind::Unknown;

    const bool billing = anyOf(fields, {"insufficient_quota"_L1, "billing_error"_L1}) || status == 402 || fields.perDayQuota;
    switch (error.kind) {
    case Kind::RateLimit:
        error.retryable = !billing;
        break;
    case Kind::Overloaded:
    case Kind::Server:
    case Kind::Timeout:
    case Kind::Network:
        error.retryable = true;
        break;
    default:
        // Groq rejects a tool call the model wrote badly; the next attempt
        // usually writes it well.
        error.retryable = anyOf(fields, {"tool_use_failed"_L1});
        break;
    }

    const QByteArray shouldRetry = ProviderError::header(error.headers, "x-should-retry").trimmed().toLower();
    if (error.kind != Kind::ContextOverflow && !billing) {
        if (shouldRetry == "true")
            error.retryable = true;
        else if (shouldRetry == "false")
            error.retryable = false;
    }
}

std::optional<qint64> retryDelayFromText(const QString &message)
{
    // OpenAI repeats the delay in words: "Please try again in 26.604s."
    static const QRegularExpression pattern(uR"(try again in (\d+(?:\.\d+)?)\s*(ms|s)\b)"_s,
                                            QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(message);
    if (!match.hasMatch())
        return std::nullopt;
    const double value = match.captured(1).toDouble();
    const bool millis = match.captured(2).compare("ms"_L1, Qt::CaseInsensitive) == 0;
    return qint64(std::ceil(millis ? value : value * 1000));
}

QString bodyAsText(const QByteArray &body)
{
    QString text = QString::fromUtf8(body).trimmed();
    if (text.size() > 500)
        text = text.left(500) + u'…';
    return text;
}

} // namespace

QByteArray ProviderError::header(const Headers &headers, QByteArrayView name)
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

std::optional<qint64> ProviderError::retryDelayFromHeaders(const Headers &headers, const QDateTime &now)
{
    bool ok = false;
    const QByteArray millis = header(headers, "retry-after-ms").trimmed();
    if (!millis.isEmpty()) {
        const double value = millis.toDouble(&ok);
        if (ok && std::isfinite(value) && value >= 0)
            return qint64(std::ceil(value));
    }
    const QByteArray after = header(headers, "retry-after").trimmed();
    if (after.isEmpty())
        return std::nullopt;
    const double seconds = after.toDouble(&ok);
    if (ok && std::isfinite(seconds) && seconds >= 0)
        return qint64(std::ceil(seconds * 1000));
    // HTTP dates end in "GMT", which Qt 6.4's RFC 2822 parser does not
    // take; it does take the numeric zone.
    QString text = QString::fromLatin1(after);
    if (text.endsWith(" GMT"_L1))
        text = text.chopped(3) + u"+0000"_s;
    const QDateTime date = QDateTime::fromString(text, Qt::RFC2822Date);
    if (date.isValid()) {
        const qint64 delta = now.msecsTo(date);
        if (delta > 0)
            return delta;
    }
    return std::nullopt;
}

bool ProviderError::looksLikeContextOverflow(const QString &text)
{
    return !text.isEmpty() && overflowPattern().match(text).hasMatch();
}

ProviderError ProviderError::fromHttpResponse(int httpStatus, const Headers &headers, const QByteArray &body,
                                              const QDateTime &now)
{
    ProviderError error;
    error.httpStatus = httpStatus;
    error.headers = headers;
    error.body = body;

    const QJsonDocument document = QJsonDocument::fromJson(body);
    ErrorFields fields;
    if (document.isObject()) {
        fields = readErrorFields(document.object());
    } else if (body.trimmed().startsWith('<')) {
        // A proxy or gateway answered with an HTML page; its text is noise.
        fields.message = tr("The server answered with an HTML page instead of an API response.");
    } else {
        fields.message = bodyAsText(body);
    }
    error.message = fields.message;
    error.errorType = fields.type;
    error.errorCode = fields.code;
    classify(error, fields, bodyAsText(body));

    error.retryAfterMs = retryDelayFromHeaders(headers, now);
    if (!error.retryAfterMs)
        error.retryAfterMs = fields.retryInfoMs;
    if (!error.retryAfterMs && error.retryable)
        error.retryAfterMs = retryDelayFromText(error.message);
    return error;
}

ProviderError ProviderError::fromStreamPayload(const QJsonObject &payload, int httpStatus)
{
    ProviderError error;
    error.httpStatus = httpStatus;
    error.body = QJsonDocument(payload).toJson(QJsonDocument::Compact);
    const ErrorFields fields = readErrorFields(payload);
    error.message = fields.message;
    error.errorType = fields.type;
    error.errorCode = fields.code;
    classify(error, fields, QString());
    error.retryAfterMs = fields.retryInfoMs;
    if (!error.retryAfterMs && error.retryable)
        error.retryAfterMs = retryDelayFromText(error.message);
    return error;
}

ProviderError ProviderError::network(const QString &detail)
{
    ProviderError error;
    error.kind = Kind::Network;
    error.message = detail;
    error.retryable = true;
    return error;
}

ProviderError ProviderError::timeout(const QString &detail)
{
    ProviderError error;
    error.kind = Kind::Timeout;
    error.message = detail;
    error.retryable = true;
    return error;
}

ProviderError ProviderError::aborted()
{
    ProviderError error;
    error.kind = Kind::Aborted;
    return error;
}

ProviderError ProviderError::truncatedStream()
{
    ProviderError error = network(tr("The connection closed before the provider finished its answer."));
    error.httpStatus = 200;
    return error;
}

ProviderError ProviderError::malformedStream(const QString &detail)
{
    ProviderError error;
    error.kind = Kind::Unknown;
    error.httpStatus = 200;
    error.message = detail;
    return error;
}

QString ProviderError::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Auth: return u"auth"_s;
    case Kind::Permission: return u"permission"_s;
    case Kind::NotFound: return u"not-found"_s;
    case Kind::RateLimit: return u"rate-limit"_s;
    case Kind::Overloaded: return u"overloaded"_s;
    case Kind::ContextOverflow: return u"context-overflow"_s;
    case Kind::BadRequest: return u"bad-request"_s;
    case Kind::Server: return u"server"_s;
    case Kind::Network: return u"network"_s;
    case Kind::Timeout: return u"timeout"_s;
    case Kind::Aborted: return u"aborted"_s;
    case Kind::Unknown: break;
    }
    return u"unknown"_s;
}

QString ProviderError::sentence() const
{
    // The provider's words, with the status when there was a real HTTP
    // failure, so the person can search for it or quote it.
    QString detail = message.trimmed();
    if (detail.isEmpty())
        detail = errorType.isEmpty() ? errorCode : errorType;
    if (httpStatus != 0 && httpStatus != 200)
        detail = detail.isEmpty() ? tr("HTTP %1").arg(httpStatus) : tr("HTTP %1: %2").arg(httpStatus).arg(detail);
    if (detail.isEmpty())
        detail = tr("no details given");

    const bool quota = errorType == "insufficient_quota"_L1 || errorCode == "insufficient_quota"_L1
        || errorType == "billing_error"_L1 || httpStatus == 402;

    switch (kind) {
    case Kind::Auth:
        return tr("The provider rejected the API key (%1). Check the key in the settings or in the provider's environment variable.").arg(detail);
    case Kind::Permission:
        return tr("The API key may not use this model or feature (%1). Check the key's permissions with the provider.").arg(detail);
    case Kind::NotFound:
        return tr("The provider does not know this model or address (%1). Check the model name and the base URL.").arg(detail);
    case Kind::RateLimit:
        if (quota || !retryable)
            return tr("The account has run out of quota or credit (%1). Add credit or change the plan with the provider, or choose another model.").arg(detail);
        if (retryAfterMs)
            return tr("The provider's rate limit was reached (%1). qcode will try again in %n second(s).", nullptr,
                      int((*retryAfterMs + 999) / 1000)).arg(detail);
        return tr("The provider's rate limit was reached (%1). qcode will try again after a pause.").arg(detail);
    case Kind::Overloaded:
        return tr("The provider is overloaded right now (%1). qcode will try again shortly.").arg(detail);
    case Kind::ContextOverflow:
        return tr("The conversation no longer fits the model's context window (%1). Compact the session or start a new one.").arg(detail);
    case Kind::BadRequest:
        if (requestTooLarge)
            return tr("The request is too large for the provider (%1). Remove some images or attached files and try again.").arg(detail);
        if (retryable)
            return tr("The model produced a tool call the provider rejected (%1). qcode will ask again.").arg(detail);
        return tr("The provider rejected the request (%1). Check the model's options in the configuration.").arg(detail);
    case Kind::Server:
        return retryable ? tr("The provider had an internal error (%1). qcode will try again.").arg(detail)
                         : tr("The provider had an internal error (%1). Try again later.").arg(detail);
    case Kind::Network:
        return tr("The connection to the provider failed (%1). Check the network and the provider's address; qcode will try again.").arg(detail);
    case Kind::Timeout:
        return tr("The provider did not answer in time (%1). qcode will try again.").arg(detail);
    case Kind::Aborted:
        return tr("The request was stopped before the provider finished.");
    case Kind::Unknown:
        break;
    }
    return tr("The provider returned an error qcode does not recognise (%1).").arg(detail);
}

} // namespace qcode
