#include "DataUrl.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

bool isHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

} // namespace

Result<QByteArray> DataUrl::decode(const QString &url)
{
    if (!url.startsWith("data:"_L1, Qt::CaseInsensitive))
        return Error{QStringLiteral("This is not a data URL: it does not start with \"data:\".")};
    const qsizetype comma = url.indexOf(u',');
    if (comma < 0)
        return Error{QStringLiteral("The data URL has no comma before its contents.")};
    const QStringView header = QStringView(url).mid(5, comma - 5);
    const QByteArray payload = QStringView(url).mid(comma + 1).toLatin1();
    if (header.endsWith(u";base64", Qt::CaseInsensitive)) {
        // Browsers and Node accept base64 without its final padding.
        auto decoded = QByteArray::fromBase64Encoding(payload, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            decoded = QByteArray::fromBase64Encoding(payload + QByteArray((4 - payload.size() % 4) % 4, '='),
                                                     QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return Error{QStringLiteral("The data URL's base64 contents are broken.")};
        return *decoded;
    }
    // decodeURIComponent refuses a "%" without two hex digits; so does qcode.
    for (qsizetype i = 0; i < payload.size(); ++i) {
        if (payload.at(i) == '%'
            && (i + 2 >= payload.size() || !isHex(payload.at(i + 1)) || !isHex(payload.at(i + 2))))
            return Error{QStringLiteral("The data URL has a broken escape at character %1.").arg(comma + 2 + i)};
    }
    return QByteArray::fromPercentEncoding(payload);
}

Result<QString> DataUrl::decodeText(const QString &url)
{
    auto bytes = decode(url);
    if (!bytes)
        return bytes.error();
    return QString::fromUtf8(*bytes);
}

QString DataUrl::encode(const QString &mime, const QByteArray &bytes)
{
    return u"data:%1;base64,"_s.arg(mime) + QString::fromLatin1(bytes.toBase64());
}

} // namespace qcode
