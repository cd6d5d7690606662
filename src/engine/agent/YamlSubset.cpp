#include "YamlSubset.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

struct Line {
    int number = 0;  // in the file
    int indent = 0;  // leading spaces
    bool tabIndent = false;
    QString text;    // the whole line, without its line break

    QString content() const { return text.mid(indent); }
    bool isBlank() const { return content().trimmed().isEmpty(); }
    bool isSignificant() const
    {
        const QString c = content().trimmed();
        return !c.isEmpty() && !c.startsWith(QLatin1Char('#'));
    }
};

// Thrown inside the parser only, caught by YamlSubset::parse: the nesting
// is deep and every failure ends the whole parse.
struct ParseFailure {
    int line;
    QString message;
};

bool isSequenceItem(const QString &content)
{
    return content == "-"_L1 || content.startsWith("- "_L1) || content.startsWith("-\t"_L1);
}

// Where a value's trailing comment starts (" #"), or -1.
qsizetype commentStart(const QString &text)
{
    if (text.startsWith(QLatin1Char('#')))
        return 0;
    for (qsizetype i = 1; i < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('#') && text.at(i - 1).isSpace())
            return i;
    }
    return -1;
}

QString withoutComment(const QString &text)
{
    const qsizetype at = commentStart(text);
    return (at < 0 ? text : text.left(at)).trimmed();
}

// YAML 1.2 core schema for a plain (unquoted) scalar.
QJsonValue resolvePlain(const QString &text)
{
    if (text.isEmpty() || text == "~"_L1 || text == "null"_L1 || text == "Null"_L1 || text == "NULL"_L1)
        return QJsonValue::Null;
    if (text == "true"_L1 || text == "True"_L1 || text == "TRUE"_L1)
        return true;
    if (text == "false"_L1 || text == "False"_L1 || text == "FALSE"_L1)
        return false;
    static const QRegularExpression integer(u"\\A[-+]?[0-9]+\\z"_s);
    static const QRegularExpression hex(u"\\A0x[0-9a-fA-F]+\\z"_s);
    static const QRegularExpression octal(u"\\A0o[0-7]+\\z"_s);
    static const QRegularExpression real(u"\\A[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?\\z"_s);
    bool ok = false;
    if (integer.match(text).hasMatch()) {
        const double value = text.toDouble(&ok);
        if (ok)
            return value;
    }
    if (hex.match(text).hasMatch()) {
        const qlonglong value = text.mid(2).toLongLong(&ok, 16);
        if (ok)
            return double(value);
    }
    if (octal.match(text).hasMatch()) {
        const qlonglong value = text.mid(2).toLongLong(&ok, 8);
        if (ok)
            return double(value);
    }
    if (real.match(text).hasMatch()) {
        const double value = text.toDouble(&ok);
        if (ok)
            return value;
    }
    return text;
}

class Parser
{
public:
    Parser(const QString &text, QString fileName, int firstLine) : m_file(std::move(fileName))
    {
        QString normalized = text;
        normalized.replace("\r\n"_L1, "\n"_L1);
        normalized.replace(QLatin1Char('\r'), QLatin1Char('\n'));
        QStringList raw = normalized.split(QLatin1Char('\n'));
        if (normalized.endsWith(QLatin1Char('\n')))
            raw.removeLast(); // the line break ends the last line; it does not start another
        for (qsizetype i = 0; i < raw.size(); ++i) {
            Line line;
            line.number = firstLine + int(i);
            line.text = raw.at(i);
            while (line.indent < line.text.size() && line.text.at(line.indent) == QLatin1Char(' '))
                ++line.indent;
            line.tabIndent = line.indent < line.text.size() && line.text.at(line.indent) == QLatin1Char('\t');
            m_lines.append(line);
        }
        m_map = ConfigSourceMap(m_file);
    }

    YamlDocument parseDocument()
    {
        YamlDocument document;
        const int first = nextSignificant();
        if (first >= 0) {
            document.root = parseNode(m_lines.at(first).indent, {});
            const int rest = nextSignificant();
            if (rest >= 0)
                fail(m_lines.at(rest).number,
                     YamlSubset::tr("this line does not fit the structure above it; check its indentation"));
        }
        document.sourceMap = m_map;
        return document;
    }

private:
    [[noreturn]] void fail(int line, const QString &message) const { throw ParseFailure{line, message}; }

    // Moves to the next line with content (not blank, not a comment) and
    // returns its index, or -1 at the end.
    int nextSignificant()
    {
        while (m_pos < m_lines.size() && !m_lines.at(m_pos).isSignificant())
            ++m_pos;
        if (m_pos >= m_lines.size())
            return -1;
        if (m_lines.at(m_pos).tabIndent)
            fail(m_lines.at(m_pos).number, YamlSubset::tr("a tab is used for indentation; YAML indents with spaces only"));
        return int(m_pos);
    }

    // A "key:" at the start of `text`: the key and where the value starts,
    // or nothing when `text` is not a key.
    struct KeyAt {
        QString key;
        qsizetype valueStart = 0;
    };
    std::optional<KeyAt> keyAt(const QString &text, int lineNumber) const
    {
        if (text.startsWith(QLatin1Char('[')) || text.startsWith(QLatin1Char('{')) || text.startsWith(QLatin1Char('#')))
            return std::nullopt;
        if (text.startsWith(QLatin1Char('"')) || text.startsWith(QLatin1Char('\''))) {
            const QChar quote = text.at(0);
            qsizetype i = 1;
            while (i < text.size()) {
                if (quote == QLatin1Char('\'') && text.at(i) == quote && i + 1 < text.size() && text.at(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                if (quote == QLatin1Char('"') && text.at(i) == QLatin1Char('\\')) {
                    i += 2;
                    continue;
                }
                if (text.at(i) == quote)
                    break;
                ++i;
            }
            if (i >= text.size())
                return std::nullopt;
            qsizetype colon = i + 1;
            while (colon < text.size() && text.at(colon) == QLatin1Char(' '))
                ++colon;
            if (colon >= text.size() || text.at(colon) != QLatin1Char(':'))
                return std::nullopt;
            if (colon + 1 < text.size() && !text.at(colon + 1).isSpace())
                return std::nullopt;
            qsizetype end = 0;
            const QString key = quoted(text.left(i + 1), 0, &end, lineNumber);
            return KeyAt{key, colon + 1};
        }
        const qsizetype comment = commentStart(text);
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (comment >= 0 && i >= comment)
                break;
            if (text.at(i) == QLatin1Char(':') && (i + 1 == text.size() || text.at(i + 1).isSpace())) {
                const QString key = text.left(i).trimmed();
                if (key.isEmpty())
                    return std::nullopt;
                return KeyAt{key, i + 1};
            }
        }
        return std::nullopt;
    }

    // Nesting deeper than any agent file needs is refused, so a crafted
    // file cannot exhaust the stack.
    static constexpr int maxDepth = 64;

    // A block node whose first line is the current one, at `indent`.
    QJsonValue parseNode(int indent, const QStringList &path)
    {
        const Line &line = m_lines.at(m_pos);
        if (path.size() > maxDepth)
            fail(line.number, YamlSubset::tr("the values are nested too deeply"));
        const QString content = line.content();
        if (isSequenceItem(content))
            return parseSequence(indent, path);
        if (keyAt(content, line.number))
            return parseMapping(indent, path);
        // A scalar on lines of its own below its key.
        ++m_pos;
        return parseInlineValue(content, line, indent - 1);
    }

    QJsonObject parseMapping(int indent, const QStringList &path)
    {
        QJsonObject object;
        while (true) {
            const int i = nextSignificant();
            if (i < 0)
                break;
            const Line line = m_lines.at(i);
            if (line.indent < indent)
                break;
            if (line.indent > indent)
                fail(line.number, YamlSubset::tr("this line is indented more than the keys above it"));
            const QString content = line.content();
            if (isSequenceItem(content)) {
                // A list at a key's own indentation belongs to the key
                // before it, and parseValue takes it; one here is stray.
                fail(line.number, YamlSubset::tr("a list item \"- …\" where a \"key: value\" line was expected"));
            }
            const std::optional<KeyAt> at = keyAt(content, line.number);
            if (!at)
                fail(line.number, YamlSubset::tr("expected a \"key: value\" line, found \"%1\"").arg(content.trimmed()));
            if (object.contains(at->key))
                fail(line.number, YamlSubset::tr("the key \"%1\" is given twice").arg(at->key));
            m_map.recordKey(path, at->key, {m_file, line.number});
            ++m_pos;
            const QString rest = content.mid(at->valueStart).trimmed();
            object.insert(at->key, parseValue(rest, line, indent, path + QStringList{at->key}, true));
        }
        return object;
    }

    QJsonArray parseSequence(int indent, const QStringList &path)
    {
        QJsonArray array;
        while (true) {
            const int i = nextSignificant();
            if (i < 0)
                break;
            Line &line = m_lines[i];
            if (line.indent < indent)
                break;
            if (line.indent > indent)
                fail(line.number, YamlSubset::tr("this list item is indented more than the items above it"));
            const QString content = line.content();
            if (!isSequenceItem(content))
                break;
            qsizetype restStart = 1;
            while (restStart < content.size() && content.at(restStart).isSpace())
                ++restStart;
            const QString rest = content.mid(restStart);
            const QStringList itemPath = path + QStringList{QString::number(array.size())};
            if (!rest.isEmpty() && !rest.startsWith(QLatin1Char('#'))
                && (isSequenceItem(rest) || keyAt(rest, line.number))) {
                // "- key: value" opens a map (or "- - x" a list) whose
                // first line starts after the dash: read this line again as
                // if it were indented to there.
                line.indent = indent + int(restStart);
                line.text = QString(line.indent, QLatin1Char(' ')) + rest;
                array.append(parseNode(line.indent, itemPath));
                continue;
            }
            const Line item = line;
            ++m_pos;
            array.append(parseValue(rest.trimmed(), item, indent, itemPath, false));
        }
        return array;
    }

    // The value after "key:" or "- " on `line`; `parentIndent` is the
    // indentation of the key or dash.
    QJsonValue parseValue(const QString &rest, const Line &line, int parentIndent, const QStringList &path,
                          bool listAtSameIndent)
    {
        if (rest.isEmpty() || rest.startsWith(QLatin1Char('#'))) {
            const int next = nextSignificant();
            if (next < 0)
                return QJsonValue::Null;
            const Line &below = m_lines.at(next);
            if (below.indent > parentIndent)
                return parseNode(below.indent, path);
            if (listAtSameIndent && below.indent == parentIndent && isSequenceItem(below.content()))
                return parseSequence(parentIndent, path);
            return QJsonValue::Null;
        }
        return parseInlineValue(rest, line, parentIndent);
    }

    QJsonValue parseInlineValue(const QString &rest, const Line &line, int parentIndent)
    {
        const QChar first = rest.at(0);
        if (first == QLatin1Char('|') || first == QLatin1Char('>'))
            return blockScalar(rest, line, parentIndent);
        if (first == QLatin1Char('&') || first == QLatin1Char('!'))
            fail(line.number, YamlSubset::tr("YAML anchors (&) and tags (!) are not supported in front matter"));
        if (first == QLatin1Char('[') || first == QLatin1Char('{'))
            return flowCollection(rest, line, parentIndent);
        if (first == QLatin1Char('"') || first == QLatin1Char('\''))
            return quotedValue(rest, line, parentIndent);
        return plainValue(rest, parentIndent);
    }

    // A plain scalar, with the more-indented lines that continue it.
    QJsonValue plainValue(const QString &rest, int parentIndent)
    {
        QString text = withoutComment(rest);
        if (commentStart(rest) >= 0)
            return resolvePlain(text); // a comment ends a plain scalar
        int blanks = 0;
        bool continued = false;
        while (m_pos < m_lines.size()) {
            const Line &next = m_lines.at(m_pos);
            if (next.isBlank()) {
                ++blanks;
                ++m_pos;
                continue;
            }
            if (next.indent <= parentIndent || next.tabIndent || next.content().startsWith(QLatin1Char('#')))
                break;
            if (keyAt(next.content(), next.number))
                fail(next.number, YamlSubset::tr("this line is indented more than the keys above it (a nested map "
                                                 "starts on the line after its \"key:\")"));
            text += blanks > 0 ? QString(blanks, QLatin1Char('\n')) : QString(QLatin1Char(' '));
            text += withoutComment(next.content());
            blanks = 0;
            continued = true;
            ++m_pos;
            if (commentStart(next.content()) >= 0)
                break;
        }
        // Blank lines after the value were skipped above; give the ones
        // that end the scalar back so line numbers stay right for callers.
        m_pos -= blanks;
        return continued ? QJsonValue(text) : resolvePlain(text);
    }

    // The text of a quoted scalar starting at text[start]; *end is set after
    // its closing quote. Line breaks inside fold as YAML folds them.
    QString quoted(const QString &text, qsizetype start, qsizetype *end, int lineNumber) const
    {
        const QChar quote = text.at(start);
        const bool isDouble = quote == QLatin1Char('"');
        QString out;
        qsizetype i = start + 1;
        while (i < text.size()) {
            const QChar c = text.at(i);
            if (c == quote) {
                if (!isDouble && i + 1 < text.size() && text.at(i + 1) == quote) {
                    out += quote;
                    i += 2;
                    continue;
                }
                *end = i + 1;
                return out;
            }
            if (c == QLatin1Char('\n')) {
                while (!out.isEmpty() && (out.back() == QLatin1Char(' ') || out.back() == QLatin1Char('\t')))
                    out.chop(1);
                int breaks = 0;
                while (i < text.size() && text.at(i).isSpace()) {
                    if (text.at(i) == QLatin1Char('\n'))
                        ++breaks;
                    ++i;
                }
                out += breaks > 1 ? QString(breaks - 1, QLatin1Char('\n')) : QString(QLatin1Char(' '));
                continue;
            }
            if (isDouble && c == QLatin1Char('\\')) {
                if (i + 1 >= text.size())
                    break;
                const QChar e = text.at(i + 1);
                i += 2;
                switch (e.unicode()) {
                case '0': out += QChar(0); break;
                case 'a': out += QChar(7); break;
                case 'b': out += QChar(8); break;
                case 't': case '\t': out += QLatin1Char('\t'); break;
                case 'n': out += QLatin1Char('\n'); break;
                case 'v': out += QChar(11); break;
                case 'f': out += QChar(12); break;
                case 'r': out += QLatin1Char('\r'); break;
                case 'e': out += QChar(27); break;
                case ' ': out += QLatin1Char(' '); break;
                case '"': out += QLatin1Char('"'); break;
                case '/': out += QLatin1Char('/'); break;
                case '\\': out += QLatin1Char('\\'); break;
                case '\n':
                    // An escaped line break joins the lines without a space.
                    while (i < text.size() && (text.at(i) == QLatin1Char(' ') || text.at(i) == QLatin1Char('\t')))
                        ++i;
                    break;
                case 'x': case 'u': case 'U': {
                    const int digits = e == QLatin1Char('x') ? 2 : e == QLatin1Char('u') ? 4 : 8;
                    bool ok = false;
                    const uint code = text.mid(i, digits).toUInt(&ok, 16);
                    if (!ok || i + digits > text.size())
                        fail(lineNumber, YamlSubset::tr("a bad \\%1 escape in a double-quoted value").arg(e));
                    const char32_t ucs4 = code;
                    out += QString::fromUcs4(&ucs4, 1);
                    i += digits;
                    break;
                }
                default:
                    fail(lineNumber, YamlSubset::tr("an unknown escape \\%1 in a double-quoted value").arg(e));
                }
                continue;
            }
            out += c;
            ++i;
        }
        fail(lineNumber, YamlSubset::tr("a quoted value is never closed"));
    }

    // Joins `rest` and the lines after it until `complete` says the text
    // holds the whole value; the lines are consumed.
    template <typename Complete>
    QString gather(const QString &rest, const Line &line, int parentIndent, Complete complete, const QString &unclosed)
    {
        QString text = rest;
        while (!complete(text)) {
            if (m_pos >= m_lines.size() || (!m_lines.at(m_pos).isBlank() && m_lines.at(m_pos).indent <= parentIndent
                                            && parentIndent >= 0))
                fail(line.number, unclosed);
            text += QLatin1Char('\n') + m_lines.at(m_pos).text;
            ++m_pos;
        }
        return text;
    }

    QJsonValue quotedValue(const QString &rest, const Line &line, int parentIndent)
    {
        const auto closed = [](const QString &text) {
            const QChar quote = text.at(0);
            for (qsizetype i = 1; i < text.size(); ++i) {
                if (quote == QLatin1Char('"') && text.at(i) == QLatin1Char('\\')) {
                    ++i;
                    continue;
                }
                if (text.at(i) == quote) {
                    if (quote == QLatin1Char('\'') && i + 1 < text.size() && text.at(i + 1) == quote) {
                        ++i;
                        continue;
                    }
                    return true;
                }
            }
            return false;
        };
        const QString text = gather(rest, line, parentIndent, closed, YamlSubset::tr("a quoted value is never closed"));
        qsizetype end = 0;
        const QString value = quoted(text, 0, &end, line.number);
        const QString after = text.mid(end).trimmed();
        if (!after.isEmpty() && !after.startsWith(QLatin1Char('#')))
            fail(line.number, YamlSubset::tr("unexpected text \"%1\" after a quoted value").arg(after));
        return value;
    }

    QJsonValue blockScalar(const QString &header, const Line &line, int parentIndent)
    {
        const bool folded = header.at(0) == QLatin1Char('>');
        enum class Chomp { Clip, Strip, Keep } chomp = Chomp::Clip;
        int explicitIndent = 0;
        const QString indicators = withoutComment(header.mid(1));
        for (const QChar c : indicators) {
            if (c == QLatin1Char('-'))
                chomp = Chomp::Strip;
            else if (c == QLatin1Char('+'))
                chomp = Chomp::Keep;
            else if (c.isDigit() && c != QLatin1Char('0'))
                explicitIndent = c.digitValue();
            else
                fail(line.number, YamlSubset::tr("unexpected \"%1\" after a block scalar indicator").arg(indicators));
        }
        int contentIndent = explicitIndent > 0 ? std::max(parentIndent, 0) + explicitIndent : -1;
        QStringList lines;
        while (m_pos < m_lines.size()) {
            const Line &next = m_lines.at(m_pos);
            if (next.isBlank()) {
                lines.append(contentIndent > 0 ? next.text.mid(contentIndent) : QString());
                ++m_pos;
                continue;
            }
            if (contentIndent < 0) {
                if (next.indent <= parentIndent)
                    break;
                contentIndent = next.indent;
            }
            if (next.indent < contentIndent)
                break;
            lines.append(next.text.mid(contentIndent));
            ++m_pos;
        }
        int trailing = 0;
        while (!lines.isEmpty() && lines.constLast().trimmed().isEmpty()) {
            lines.removeLast();
            ++trailing;
        }
        QString text;
        if (!folded) {
            text = lines.join(QLatin1Char('\n'));
        } else {
            int blanks = 0;
            bool havePrevious = false;
            bool previousMoreIndented = false;
            for (const QString &l : std::as_const(lines)) {
                if (l.isEmpty()) {
                    ++blanks;
                    continue;
                }
                const bool moreIndented = l.startsWith(QLatin1Char(' ')) || l.startsWith(QLatin1Char('\t'));
                if (!havePrevious)
                    text += QString(blanks, QLatin1Char('\n')) + l;
                else if (!moreIndented && !previousMoreIndented)
                    text += (blanks == 0 ? QString(QLatin1Char(' ')) : QString(blanks, QLatin1Char('\n'))) + l;
                else
                    text += QString(blanks + 1, QLatin1Char('\n')) + l;
                blanks = 0;
                havePrevious = true;
                previousMoreIndented = moreIndented;
            }
        }
        if (lines.isEmpty())
            return chomp == Chomp::Keep ? QString(trailing, QLatin1Char('\n')) : QString();
        switch (chomp) {
        case Chomp::Strip:
            break;
        case Chomp::Clip:
            text += QLatin1Char('\n');
            break;
        case Chomp::Keep:
            text += QString(trailing + 1, QLatin1Char('\n'));
            break;
        }
        return text;
    }

    // [a, "b", {c: d}] and {a: 1, b: [x]}, possibly over several lines.
    QJsonValue flowCollection(const QString &rest, const Line &line, int parentIndent)
    {
        const auto balanced = [](const QString &text) {
            int depth = 0;
            QChar quote;
            for (qsizetype i = 0; i < text.size(); ++i) {
                const QChar c = text.at(i);
                if (!quote.isNull()) {
                    if (quote == QLatin1Char('"') && c == QLatin1Char('\\'))
                        ++i;
                    else if (c == quote)
                        quote = QChar();
                    continue;
                }
                if (c == QLatin1Char('"') || c == QLatin1Char('\''))
                    quote = c;
                else if (c == QLatin1Char('[') || c == QLatin1Char('{'))
                    ++depth;
                else if (c == QLatin1Char(']') || c == QLatin1Char('}'))
                    --depth;
                else if (c == QLatin1Char('#') && i > 0 && text.at(i - 1).isSpace()) {
                    // A comment runs to the end of its line.
                    while (i + 1 < text.size() && text.at(i + 1) != QLatin1Char('\n'))
                        ++i;
                    continue;
                }
                if (depth == 0)
                    return true;
            }
            return depth <= 0;
        };
        const QString text = gather(rest, line, parentIndent, balanced,
                                    YamlSubset::tr("a [ or { is never closed"));
        qsizetype i = 0;
        const QJsonValue value = flowNode(text, i, line.number);
        const QString after = text.mid(i).trimmed();
        if (!after.isEmpty() && !after.startsWith(QLatin1Char('#')))
            fail(line.number, YamlSubset::tr("unexpected text \"%1\" after a [list] or {map}").arg(after));
        return value;
    }

    void skipFlowSpace(const QString &text, qsizetype &i) const
    {
        while (i < text.size()) {
            if (text.at(i).isSpace()) {
                ++i;
            } else if (text.at(i) == QLatin1Char('#') && (i == 0 || text.at(i - 1).isSpace())) {
                while (i < text.size() && text.at(i) != QLatin1Char('\n'))
                    ++i;
            } else {
                break;
            }
        }
    }

    QString flowPlain(const QString &text, qsizetype &i, bool stopAtColon) const
    {
        const qsizetype start = i;
        while (i < text.size()) {
            const QChar c = text.at(i);
            if (c == QLatin1Char(',') || c == QLatin1Char(']') || c == QLatin1Char('}') || c == QLatin1Char('[')
                || c == QLatin1Char('{'))
                break;
            if (stopAtColon && c == QLatin1Char(':') && (i + 1 >= text.size() || text.at(i + 1).isSpace()
                                                         || text.at(i + 1) == QLatin1Char(',')
                                                         || text.at(i + 1) == QLatin1Char('}')))
                break;
            if (c == QLatin1Char('#') && i > start && text.at(i - 1).isSpace())
                break;
            ++i;
        }
        QString out = text.mid(start, i - start);
        out.replace(QLatin1Char('\n'), QLatin1Char(' '));
        return out.simplified();
    }

    QJsonValue flowNode(const QString &text, qsizetype &i, int lineNumber, int depth = 0) const
    {
        if (depth > maxDepth)
            fail(lineNumber, YamlSubset::tr("the values are nested too deeply"));
        skipFlowSpace(text, i);
        if (i >= text.size())
            fail(lineNumber, YamlSubset::tr("a [list] or {map} ends too early"));
        const QChar c = text.at(i);
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            qsizetype end = 0;
            const QString value = quoted(text, i, &end, lineNumber);
            i = end;
            return value;
        }
        if (c == QLatin1Char('[')) {
            ++i;
            QJsonArray array;
            while (true) {
                skipFlowSpace(text, i);
                if (i < text.size() && text.at(i) == QLatin1Char(']')) {
                    ++i;
                    return array;
                }
                array.append(flowNode(text, i, lineNumber, depth + 1));
                skipFlowSpace(text, i);
                if (i < text.size() && text.at(i) == QLatin1Char(',')) {
                    ++i;
                    continue;
                }
                if (i < text.size() && text.at(i) == QLatin1Char(']')) {
                    ++i;
                    return array;
                }
                fail(lineNumber, YamlSubset::tr("expected \",\" or \"]\" in a [list]"));
            }
        }
        if (c == QLatin1Char('{')) {
            ++i;
            QJsonObject object;
            while (true) {
                skipFlowSpace(text, i);
                if (i < text.size() && text.at(i) == QLatin1Char('}')) {
                    ++i;
                    return object;
                }
                QString key;
                if (i < text.size() && (text.at(i) == QLatin1Char('"') || text.at(i) == QLatin1Char('\''))) {
                    qsizetype end = 0;
                    key = quoted(text, i, &end, lineNumber);
                    i = end;
                } else {
                    key = flowPlain(text, i, true);
                }
                if (key.isEmpty())
                    fail(lineNumber, YamlSubset::tr("a key is missing in a {map}"));
                skipFlowSpace(text, i);
                QJsonValue value;
                if (i < text.size() && text.at(i) == QLatin1Char(':')) {
                    ++i;
                    skipFlowSpace(text, i);
                    if (i < text.size() && text.at(i) != QLatin1Char(',') && text.at(i) != QLatin1Char('}'))
                        value = flowNode(text, i, lineNumber, depth + 1);
                }
                if (object.contains(key))
                    fail(lineNumber, YamlSubset::tr("the key \"%1\" is given twice").arg(key));
                object.insert(key, value);
                skipFlowSpace(text, i);
                if (i < text.size() && text.at(i) == QLatin1Char(',')) {
                    ++i;
                    continue;
                }
                if (i < text.size() && text.at(i) == QLatin1Char('}')) {
                    ++i;
                    return object;
                }
                fail(lineNumber, YamlSubset::tr("expected \",\" or \"}\" in a {map}"));
            }
        }
        if (c == QLatin1Char(']') || c == QLatin1Char('}') || c == QLatin1Char(','))
            fail(lineNumber, YamlSubset::tr("unexpected \"%1\"").arg(c));
        return resolvePlain(flowPlain(text, i, false));
    }

    QList<Line> m_lines;
    qsizetype m_pos = 0;
    QString m_file;
    ConfigSourceMap m_map;
};

} // namespace

Result<YamlDocument> YamlSubset::parse(const QString &text, const QString &fileName, int firstLine)
{
    try {
        Parser parser(text, fileName, firstLine);
        return parser.parseDocument();
    } catch (const ParseFailure &failure) {
        return Error{u"%1:%2: %3"_s.arg(fileName).arg(failure.line).arg(failure.message)};
    }
}

} // namespace qcode
