#include "JsoncParser.h"

#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace qcode {

QByteArray JsoncParser::strip(const QByteArray &text, qsizetype *unterminatedComment)
{
    QByteArray out = text;
    if (unterminatedComment)
        *unterminatedComment = -1;
    const qsizetype n = out.size();
    // The last comma seen outside strings whose fate is not decided yet:
    // it is blanked if the next significant byte closes an object or array.
    qsizetype pendingComma = -1;
    qsizetype i = 0;
    while (i < n) {
        const char c = out.at(i);
        if (c == '"') {
            pendingComma = -1;
            ++i;
            while (i < n && out.at(i) != '"') {
                if (out.at(i) == '\\')
                    ++i;
                ++i;
            }
            ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && out.at(i + 1) == '/') {
            while (i < n && out.at(i) != '\n' && out.at(i) != '\r')
                out[i++] = ' ';
            continue;
        }
        if (c == '/' && i + 1 < n && out.at(i + 1) == '*') {
            const qsizetype start = i;
            out[i++] = ' ';
            out[i++] = ' ';
            while (i < n && !(out.at(i) == '*' && i + 1 < n && out.at(i + 1) == '/')) {
                if (out.at(i) != '\n' && out.at(i) != '\r')
                    out[i] = ' ';
                ++i;
            }
            if (i >= n) {
                if (unterminatedComment)
                    *unterminatedComment = start;
                return out;
            }
            out[i++] = ' ';
            out[i++] = ' ';
            continue;
        }
        if (c == ',') {
            pendingComma = i;
        } else if (c == '}' || c == ']') {
            if (pendingComma >= 0)
                out[pendingComma] = ' ';
            pendingComma = -1;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            pendingComma = -1;
        }
        ++i;
    }
    return out;
}

std::pair<int, int> JsoncParser::lineAndColumn(const QByteArray &text, qsizetype offset)
{
    offset = std::clamp<qsizetype>(offset, 0, text.size());
    int line = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < offset; ++i) {
        if (text.at(i) == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    // Columns count characters, not UTF-8 bytes, as an editor shows them.
    const int column = int(QString::fromUtf8(text.mid(lineStart, offset - lineStart)).size()) + 1;
    return {line, column};
}

Result<QJsonObject> JsoncParser::parseObject(const QByteArray &text, const QString &fileName)
{
    const auto located = [&](qsizetype offset, const QString &what) {
        const auto [line, column] = lineAndColumn(text, offset);
        return Error{tr("%1:%2:%3: %4").arg(fileName).arg(line).arg(column).arg(what)};
    };

    qsizetype unterminated = -1;
    QByteArray clean = strip(text, &unterminated);
    if (unterminated >= 0)
        return located(unterminated, tr("a /* comment is never closed"));
    if (clean.startsWith("\xEF\xBB\xBF"))
        clean.replace(0, 3, "   "); // a byte-order mark some Windows editors write

    if (clean.trimmed().isEmpty())
        return QJsonObject(); // an empty file configures nothing, as in OpenCode

    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(clean, &error);
    if (error.error != QJsonParseError::NoError) {
        // Qt reports the offset just past the offending token; step back
        // onto it so the column points at what the reader must fix.
        qsizetype offset = std::max<qsizetype>(0, error.offset - 1);
        while (offset > 0 && offset < clean.size() && QByteArrayView(" \t\r\n").contains(clean.at(offset)))
            --offset;
        return located(offset, error.errorString());
    }
    if (!document.isObject())
        return located(0, tr("the configuration must be a JSON object { … }"));
    return document.object();
}

} // namespace qcode
