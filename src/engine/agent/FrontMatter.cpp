#include "FrontMatter.h"

#include <QStringDecoder>

#include "YamlReader.h"
#include "engine/config/ConfigFile.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

bool isDelimiter(QStringView line)
{
    return line.startsWith(u"---") && line.mid(3).trimmed().isEmpty();
}

} // namespace

Result<MarkdownDocument> FrontMatter::parse(const QString &input, const QString &fileName)
{
    QString text = input;
    if (text.startsWith(QChar(0xfeff)))
        text.remove(0, 1);

    MarkdownDocument document;
    document.sourceMap = ConfigSourceMap(fileName);
    const qsizetype firstBreak = text.indexOf(QLatin1Char('\n'));
    const QStringView firstLine = QStringView(text).left(firstBreak < 0 ? text.size() : firstBreak);
    if (!isDelimiter(firstLine.endsWith(u'\r') ? firstLine.chopped(1) : firstLine)) {
        document.body = text;
        return document;
    }

    // Find the closing delimiter line.
    qsizetype lineStart = firstBreak < 0 ? text.size() : firstBreak + 1;
    int lineNumber = 2;
    qsizetype closeStart = -1;
    qsizetype bodyStart = text.size();
    while (lineStart < text.size()) {
        const qsizetype lineEnd = text.indexOf(QLatin1Char('\n'), lineStart);
        QStringView line = QStringView(text).mid(lineStart, (lineEnd < 0 ? text.size() : lineEnd) - lineStart);
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (isDelimiter(line)) {
            closeStart = lineStart;
            bodyStart = lineEnd < 0 ? text.size() : lineEnd + 1;
            break;
        }
        lineStart = lineEnd < 0 ? text.size() : lineEnd + 1;
        ++lineNumber;
    }
    if (closeStart < 0)
        return Error{tr("%1:1: the front matter that starts here is never closed by a \"---\" line").arg(fileName)};

    const QString yaml = text.mid(firstBreak + 1, closeStart - (firstBreak + 1));
    Result<YamlDocument> parsed = YamlReader::parse(yaml, fileName, 2);
    if (!parsed)
        return parsed.error();
    if (parsed->root.isObject())
        document.data = parsed->root.toObject();
    else if (!parsed->root.isNull())
        return Error{tr("%1:2: the front matter must be \"key: value\" lines").arg(fileName)};
    document.sourceMap = parsed->sourceMap;
    document.body = text.mid(bodyStart);
    return document;
}

Result<MarkdownDocument> FrontMatter::read(const QString &path)
{
    const Result<QByteArray> bytes = ConfigFile::read(path);
    if (!bytes)
        return Error{u"%1: %2"_s.arg(path, bytes.errorMessage())};
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString text = decoder(*bytes);
    if (decoder.hasError())
        return Error{tr("%1: the file is not UTF-8 text").arg(path)};
    return parse(text, path);
}

} // namespace qcode
