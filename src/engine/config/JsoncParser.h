#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

#include "ConfigError.h"

#include "model/Result.h"

namespace qcode {

// A parsed JSONC object and where each of its values was written, so a
// value of the wrong type can be pointed at.
struct JsoncDocument {
    QJsonObject root;
    QByteArray text;                        // the text that was parsed
    QHash<QString, qsizetype> valueOffsets; // pathKey(path) → byte offset of the value

    // 1-based line and column of the value at `path` (object keys, list
    // indexes as numbers), or of its nearest recorded parent.
    std::pair<int, int> position(const QStringList &path) const;
    static QString pathKey(const QStringList &path);
};

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
    // The same with the position of every value; on failure `error` says
    // where and what.
    static std::optional<JsoncDocument> parseDocument(const QByteArray &text, const QString &fileName,
                                                      ConfigError *error);

    // -1 when `text` is valid UTF-8, else the offset of the first byte
    // that is not.
    static qsizetype invalidUtf8Offset(const QByteArray &text);

    // The text with comments and trailing commas replaced by spaces
    // (newlines kept); an unterminated block comment yields its offset.
    static QByteArray strip(const QByteArray &text, qsizetype *unterminatedComment = nullptr);

    // 1-based line and column (in characters) of a byte offset.
    static std::pair<int, int> lineAndColumn(const QByteArray &text, qsizetype offset);
};

} // namespace qcode
