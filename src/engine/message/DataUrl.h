#pragma once

#include <QByteArray>
#include <QString>

#include "model/Result.h"

namespace qcode {

// RFC 2397 data URLs, "data:[<mime>][;base64],<payload>".
class DataUrl
{
public:
    // The payload's bytes; an error sentence for a URL that is not a data
    // URL, has no comma, or has broken base64 or percent-escapes.
    static Result<QByteArray> decode(const QString &url);
    // The payload as UTF-8 text (invalid bytes become U+FFFD, as in
    // OpenCode).
    static Result<QString> decodeText(const QString &url);
    static QString encode(const QString &mime, const QByteArray &bytes);
};

} // namespace qcode
