#include "OpenCodeYamlRepair.h"

#include <QRegularExpression>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString singleQuoted(const QString &text)
{
    return u"'"_s + QString(text).replace(u"'"_s, u"''"_s) + u"'"_s;
}

// Where the ":" that ends a plain key is (followed by a space or the end),
// or -1.
qsizetype keyColon(const QString &text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == u':' && (i + 1 == text.size() || text.at(i + 1).isSpace()))
            return i;
    }
    return -1;
}

// A plain value and its trailing comment, the value quoted if it starts
// with "*".
QString quoteStarValue(const QString &text)
{
    static const QRegularExpression nonSpace(u"\\S"_s);
    const qsizetype start = text.indexOf(nonSpace);
    if (start < 0 || text.at(start) != u'*')
        return text;
    static const QRegularExpression comment(u"\\s#"_s);
    const qsizetype commentAt = text.indexOf(comment, start);
    const QString value = text.mid(start, commentAt < 0 ? -1 : commentAt - start).trimmed();
    return text.left(start) + singleQuoted(value) + (commentAt < 0 ? QString() : text.mid(commentAt));
}

// A line, any indentation, list markers "- " first: a key or a value that
// starts with "*" is quoted.
QString quoteStars(const QString &line)
{
    static const QRegularExpression lead(u"\\A\\s*(?:-\\s+)*"_s);
    const qsizetype restAt = lead.match(line).capturedLength();
    const QString rest = line.mid(restAt);
    const qsizetype colon = keyColon(rest);
    if (rest.startsWith(u'*') && colon < 0)
        return line.left(restAt) + quoteStarValue(rest); // a list item
    if (colon < 0 || rest.startsWith(u'"') || rest.startsWith(u'\''))
        return line;
    const QString key = rest.left(colon).trimmed();
    const QString writtenKey = key.startsWith(u'*') ? singleQuoted(key) : rest.left(colon);
    return line.left(restAt) + writtenKey + u':' + quoteStarValue(rest.mid(colon + 1));
}

// OpenCode's rule: a top-level "key: value" whose value contains ":".
QString quoteValueWithColon(const QString &line)
{
    static const QRegularExpression keyValue(u"\\A([a-zA-Z_][a-zA-Z0-9_]*)\\s*:\\s*(.*)\\z"_s);
    const QRegularExpressionMatch match = keyValue.match(line);
    if (!match.hasMatch())
        return line;
    const QString value = match.captured(2).trimmed();
    static const QString notPlain = u"\"'|>[{"_s;
    if (value.isEmpty() || notPlain.contains(value.at(0)) || !value.contains(u':'))
        return line;
    return match.captured(1) + u": "_s + singleQuoted(value);
}

} // namespace

QString OpenCodeYamlRepair::repair(const QString &yaml)
{
    QStringList lines = yaml.split(u'\n');
    for (QString &line : lines) {
        const bool carriageReturn = line.endsWith(u'\r');
        QString text = carriageReturn ? line.chopped(1) : line;
        const QString trimmed = text.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith(u'#'))
            continue;
        const QString quoted = quoteValueWithColon(text);
        text = quoted != text ? quoted : quoteStars(text);
        line = carriageReturn ? text + u'\r' : text;
    }
    return lines.join(u'\n');
}

} // namespace qcode
