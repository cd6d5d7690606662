#include "MessageErrors.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QJsonObject apiErrorData(const ProviderError &error, const QString &message, bool retryable)
{
    QJsonObject data{{"message"_L1, message}, {"isRetryable"_L1, retryable}};
    if (error.httpStatus != 0)
        data.insert("statusCode"_L1, error.httpStatus);
    if (!error.headers.isEmpty()) {
        QJsonObject headers;
        for (const auto &[name, value] : error.headers)
            headers.insert(QString::fromLatin1(name).toLower(), QString::fromLatin1(value));
        data.insert("responseHeaders"_L1, headers);
    }
    if (!error.body.isEmpty())
        data.insert("responseBody"_L1, QString::fromUtf8(error.body));
    return data;
}

} // namespace

NamedError MessageErrors::fromProviderError(const ProviderError &error)
{
    if (error.kind == ProviderError::Kind::Aborted)
        return aborted();
    if (error.isContextOverflow()) {
        QJsonObject data{{"message"_L1, error.sentence()}};
        if (!error.body.isEmpty())
            data.insert("responseBody"_L1, QString::fromUtf8(error.body));
        return NamedError{u"ContextOverflowError"_s, data};
    }
    if (error.kind == ProviderError::Kind::Unknown && error.httpStatus == 0)
        return unknown(error.sentence());
    return NamedError{u"APIError"_s, apiErrorData(error, error.sentence(), error.retryable)};
}

NamedError MessageErrors::aborted()
{
    return NamedError{u"MessageAbortedError"_s, QJsonObject{{"message"_L1, tr("The answer was stopped.")}}};
}

NamedError MessageErrors::unknown(const QString &message)
{
    return NamedError{u"UnknownError"_s, QJsonObject{{"message"_L1, message}}};
}

NamedError MessageErrors::retriesExhausted(int attempts, const ProviderError &last)
{
    // The provider's own words: sentence() would promise another try.
    QString detail = last.message.trimmed();
    if (detail.isEmpty())
        detail = last.errorType.isEmpty() ? last.errorCode : last.errorType;
    if (last.httpStatus != 0 && last.httpStatus != 200)
        detail = detail.isEmpty() ? tr("HTTP %1").arg(last.httpStatus) : tr("HTTP %1: %2").arg(last.httpStatus).arg(detail);
    if (detail.isEmpty())
        detail = ProviderError::kindName(last.kind);
    const QString message = tr("The provider failed %n time(s) in a row, so qcode stopped trying (last error: %1). "
                               "Try again later or choose another model.",
                               nullptr, attempts)
                                .arg(detail);
    return NamedError{u"APIError"_s, apiErrorData(last, message, false)};
}

} // namespace qcode
