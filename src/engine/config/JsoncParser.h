#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include "model/Result.h"

namespace qcode {

// JSON with comments (`//`, `/* */`) and trailing commas, as opencode.jsonc
// and VS Code settings allow. Comments and trailing commas are blanked
// byte for byte, so the strict parser's error offset still points into
// the original text and the error can name its line and column.
class JsoncParser
{
    Q_DECLARE_TR_FUNCTIONS(JsoncParser)

public:
    // The root must be an object. Errors read
    // "<fileName>:<line>:<column>: <what is wrong>".
    static Result<QJsonObject> parseObject(const QByteArray &text, const QString &fileName);

    // The text with comments and trailing commas replaced by spaces
    // (newlines kept); an unterminated block comment yields its offset.
    static QByteArray strip(const QByteArray &text, qsizetype *unterminatedComment = nullptr);

    // 1-based line and column (in characters) of a byte offset.
    static std::pair<int, int> lineAndColumn(const QByteArray &text, qsizetype offset);
};

} // namespace qcode
