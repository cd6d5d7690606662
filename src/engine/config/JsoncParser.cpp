#include "JsoncParser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Walks JSON that QJsonDocument has accepted (comments already blanked)
// and records where each value starts, keyed by its path.
class ValueScanner
{
public:
    ValueScanner(const QByteArray &text, QHash<QString, qsizetype> &offsets) : m_text(text), m_offsets(offsets) {}

    void scan() { value(QString()); }

private:
    char at(qsizetype i) const { return i < m_text.size() ? m_text.at(i) : '\0'; }

    void skipSpace()
    {
        while (QByteArrayView(" \t\r\n").contains(at(m_pos)))
            ++m_pos;
    }

    QString string()
    {
        const qsizetype start = m_pos++;
        bool escaped = false;
        while (m_pos < m_text.size() && at(m_pos) != '"') {
            if (at(m_pos) == '\\') {
                escaped = true;
                ++m_pos;
            }
            ++m_pos;
        }
        ++m_pos;
        const QByteArray raw = m_text.mid(start, m_pos - start);
        if (!escaped)
            return QString::fromUtf8(raw.mid(1, raw.size() - 2));
        return QJsonDocument::fromJson('[' + raw + ']').array().at(0).toString();
    }

    void value(const QString &path)
    {
        skipSpace();
        m_offsets.insert(path, m_pos);
        const char c = at(m_pos);
        if (c == '{' || c == '[') {
            const char close = c == '{' ? '}' : ']';
            ++m_pos;
            skipSpace();
            int index = 0;
            while (m_pos < m_text.size() && at(m_pos) != close) {
                QString segment;
                if (c == '{') {
                    segment = string();
                    skipSpace();
                    ++m_pos; // ':'
                } else {
                    segment = QString::number(index++);
                }
                value(path + QChar(0x1f) + segment);
                skipSpace();
                if (at(m_pos) == ',') {
                    ++m_pos;
                    skipSpace();
                }
            }
            ++m_pos;
            return;
        }
        if (c == '"') {
            string();
            return;
        }
        while (m_pos < m_text.size() && !QByteArrayView(",}] \t\r\n").contains(at(m_pos)))
            ++m_pos;
    }

    const QByteArray &m_text;
    QHash<QString, qsizetype> &m_offsets;
    qsizetype m_pos = 0;
};

} // namespace

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
    ConfigError error;
    std::optional<JsoncDocument> document = parseDocument(text, fileName, &error);
    if (!document)
        return Error{error.toString()};
    return document->root;
}

std::optional<JsoncDocument> JsoncParser::parseDocument(const QByteArray &text, const QString &fileName,
                                                        ConfigError *error)
{
    const auto fail = [&](qsizetype offset, const QString &what) -> std::optional<JsoncDocument> {
        const auto [line, column] = lineAndColumn(text, offset);
        if (error)
            *error = ConfigError{fileName, line, column, what};
        return std::nullopt;
    };

    qsizetype unterminated = -1;
    QByteArray clean = strip(text, &unterminated);
    if (unterminated >= 0)
        return fail(unterminated, tr("a /* comment is never closed"));
    if (clean.startsWith("\xEF\xBB\xBF"))
        clean.replace(0, 3, "   "); // a byte-order mark some Windows editors write

    JsoncDocument document;
    document.text = text;
    if (clean.trimmed().isEmpty())
        return document; // an empty file configures nothing, as in OpenCode

    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(clean, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // Qt reports the offset just past the offending token; step back
        // onto it so the column points at what the reader must fix.
        qsizetype offset = std::max<qsizetype>(0, parseError.offset - 1);
        while (offset > 0 && offset < clean.size() && QByteArrayView(" \t\r\n").contains(clean.at(offset)))
            --offset;
        return fail(offset, parseError.errorString());
    }
    if (!json.isObject()) {
        qsizetype first = 0;
        while (first < clean.size() && QByteArrayView(" \t\r\n").contains(clean.at(first)))
            ++first;
        return fail(first, tr("the configuration must be a JSON object { … }"));
    }
    document.root = json.object();
    ValueScanner(clean, document.valueOffsets).scan();
    return document;
}

qsizetype JsoncParser::invalidUtf8Offset(const QByteArray &text)
{
    const auto *bytes = reinterpret_cast<const unsigned char *>(text.constData());
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const unsigned char c = bytes[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        int length = 0;
        char32_t lowest = 0;
        char32_t code = 0;
        if ((c & 0xE0) == 0xC0) {
            length = 2;
            lowest = 0x80;
            code = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            length = 3;
            lowest = 0x800;
            code = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            length = 4;
            lowest = 0x10000;
            code = c & 0x07;
        } else {
            return i;
        }
        if (i + length > n)
            return i;
        for (int k = 1; k < length; ++k) {
            if ((bytes[i + k] & 0xC0) != 0x80)
                return i;
            code = (code << 6) | (bytes[i + k] & 0x3F);
        }
        // Overlong forms, UTF-16 surrogates and code points past Unicode
        // are not UTF-8 either.
        if (code < lowest || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF)
            return i;
        i += length;
    }
    return -1;
}

QString JsoncDocument::pathKey(const QStringList &path)
{
    QString key;
    for (const QString &segment : path)
        key += QChar(0x1f) + segment;
    return key;
}

std::pair<int, int> JsoncDocument::position(const QStringList &path) const
{
    for (qsizetype depth = path.size(); depth >= 0; --depth) {
        const auto found = valueOffsets.constFind(pathKey(path.first(depth)));
        if (found != valueOffsets.constEnd())
            return JsoncParser::lineAndColumn(text, *found);
    }
    return {1, 1};
}

} // namespace qcode
