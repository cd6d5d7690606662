#include "HtmlToMarkdown.h"

#include <QRegularExpression>
#include <QSet>
#include <QStringList>

#include "HtmlDocument.h"

using namespace Qt::StringLiterals;

namespace qcode::HtmlToMarkdown {

namespace {

using Node = HtmlDocument::Node;

// A <br> inside a paragraph; becomes Markdown's two-space hard break, or
// nothing at the end of a block.
constexpr QChar HardBreak(0xE000);

const QSet<QString> &blockElements()
{
    static const QSet<QString> tags{u"address"_s, u"article"_s, u"aside"_s,  u"body"_s,    u"center"_s, u"dd"_s,
                                    u"details"_s, u"dialog"_s,  u"div"_s,    u"dl"_s,      u"dt"_s,     u"fieldset"_s,
                                    u"figcaption"_s, u"figure"_s, u"footer"_s, u"form"_s, u"header"_s, u"html"_s,
                                    u"main"_s,    u"nav"_s,     u"p"_s,      u"section"_s, u"summary"_s, u"caption"_s};
    return tags;
}

QString collapseWhitespace(const QString &text)
{
    static const QRegularExpression space(u"[ \\t\\n\\r\\f]+"_s);
    QString out = text;
    out.replace(space, u" "_s);
    out.replace(QChar(0x00A0), u' ');
    return out;
}

// Everything a node holds as raw text (a <pre>'s content).
void rawText(const Node &node, QString &out)
{
    if (node.isText()) {
        out += node.text;
        return;
    }
    if (node.tag == u"br"_s)
        out += u'\n';
    for (const auto &child : node.children)
        rawText(*child, out);
}

class Writer
{
public:
    QString result()
    {
        endBlock();
        QString out = m_out;
        while (out.endsWith(u'\n'))
            out.chop(1);
        out.replace(HardBreak, u"  "_s);
        return out;
    }

    void write(const Node &node)
    {
        if (node.isText()) {
            writeText(node.text);
            return;
        }
        const QString &tag = node.tag;
        if (tag.size() == 2 && tag.at(0) == u'h' && tag.at(1) >= u'1' && tag.at(1) <= u'6') {
            const QString content = inlineContent(node);
            if (!content.isEmpty())
                writeBlock(QString(QString(tag.at(1).digitValue(), u'#') + u' ' + content));
        } else if (tag == u"ul"_s || tag == u"ol"_s) {
            writeList(node);
        } else if (tag == u"pre"_s) {
            writeCode(node);
        } else if (tag == u"blockquote"_s) {
            const QString content = blockContent(node);
            if (!content.isEmpty())
                writeBlock(prefixLines(content, u"> "_s, u"> "_s));
        } else if (tag == u"table"_s) {
            writeTable(node);
        } else if (tag == u"hr"_s) {
            writeBlock(u"---"_s);
        } else if (tag == u"br"_s) {
            trimTrailingSpaces();
            m_out += HardBreak;
            m_out += u'\n';
        } else if (tag == u"strong"_s || tag == u"b"_s) {
            writeDelimited(node, u"**"_s);
        } else if (tag == u"em"_s || tag == u"i"_s) {
            writeDelimited(node, u"*"_s);
        } else if (tag == u"code"_s || tag == u"kbd"_s || tag == u"samp"_s || tag == u"tt"_s) {
            writeInlineCode(node);
        } else if (tag == u"a"_s) {
            writeLink(node);
        } else if (tag == u"img"_s) {
            const QString src = node.attribute(u"src"_s);
            if (!src.isEmpty())
                writeInline(u"![%1](%2)"_s.arg(collapseWhitespace(node.attribute(u"alt"_s)).trimmed(), src));
        } else if (tag == u"li"_s) {
            // A list item outside any list: a paragraph of its own.
            writeBlock(blockContent(node));
        } else if (blockElements().contains(tag)) {
            const QString content = blockContent(node);
            if (!content.isEmpty())
                writeBlock(content);
        } else {
            writeChildren(node);
        }
    }

    void writeChildren(const Node &node)
    {
        for (const auto &child : node.children)
            write(*child);
    }

private:
    void writeText(const QString &text)
    {
        QString collapsed = collapseWhitespace(text);
        if (collapsed.startsWith(u' ') && atLineStartOrSpace())
            collapsed.remove(0, 1);
        m_out += collapsed;
    }

    void writeInline(const QString &text) { m_out += text; }

    bool atLineStartOrSpace() const
    {
        return (m_out.isEmpty() && !m_inline) || m_out.endsWith(u' ') || m_out.endsWith(u'\n');
    }

    void trimTrailingSpaces()
    {
        while (m_out.endsWith(u' ') || m_out.endsWith(u'\t'))
            m_out.chop(1);
    }

    // Ends the current paragraph: what follows starts after a blank line.
    void endBlock()
    {
        while (!m_out.isEmpty() && (m_out.back().isSpace() || m_out.back() == HardBreak))
            m_out.chop(1);
        if (!m_out.isEmpty())
            m_out += u"\n\n"_s;
    }

    void writeBlock(const QString &block)
    {
        endBlock();
        m_out += block;
        endBlock();
    }

    // A node's content rendered on its own, its blocks separated by blank lines.
    static QString blockContent(const Node &node)
    {
        Writer inner;
        inner.writeChildren(node);
        return inner.result();
    }

    // A node's content on one line (headings, cells, emphasis).
    static QString inlineContent(const Node &node)
    {
        QString content = blockContent(node);
        content.replace(u"  \n"_s, u" "_s);
        content.replace(QRegularExpression(u"\\s*\\n+\\s*"_s), u" "_s);
        return content.trimmed();
    }

    void writeDelimited(const Node &node, const QString &delimiter)
    {
        Writer inner;
        inner.m_inline = true;
        inner.writeChildren(node);
        const QString content = inner.m_out;
        const QString trimmed = content.trimmed();
        if (trimmed.isEmpty()) {
            if (!content.isEmpty() && !atLineStartOrSpace())
                m_out += u' ';
            return;
        }
        // Spaces inside the delimiters would break the emphasis: they go outside.
        if (content.front().isSpace() && !atLineStartOrSpace())
            m_out += u' ';
        m_out += delimiter + trimmed + delimiter;
        if (content.back().isSpace())
            m_out += u' ';
    }

    void writeInlineCode(const Node &node)
    {
        QString code;
        rawText(node, code);
        code.replace(u'\n', u' ');
        if (code.isEmpty())
            return;
        // Enough backticks that none inside ends the span.
        qsizetype longest = 0;
        qsizetype run = 0;
        for (const QChar c : std::as_const(code)) {
            run = c == u'`' ? run + 1 : 0;
            longest = std::max(longest, run);
        }
        const QString fence(longest + 1, u'`');
        const bool pad = code.startsWith(u'`') || code.endsWith(u'`');
        m_out += fence + (pad ? u" "_s : QString()) + code + (pad ? u" "_s : QString()) + fence;
    }

    void writeLink(const Node &node)
    {
        const QString href = node.attribute(u"href"_s);
        const QString text = inlineContent(node);
        if (href.isEmpty() || href.startsWith(u"javascript:"_s, Qt::CaseInsensitive)) {
            writeText(text);
            return;
        }
        if (text.isEmpty())
            return;
        const QString title = node.attribute(u"title"_s);
        if (!atLineStartOrSpace() && !m_out.endsWith(u'(') && !m_out.endsWith(u'[') && node.children.size() > 0
            && node.children.front()->isText() && node.children.front()->text.startsWith(u' '))
            m_out += u' ';
        m_out += u"[%1](%2%3)"_s.arg(text, href,
                                     title.isEmpty() ? QString() : u" \"%1\""_s.arg(QString(title).replace(u'"', u"\\\""_s)));
    }

    void writeCode(const Node &node)
    {
        QString code;
        rawText(node, code);
        if (code.startsWith(u'\n'))
            code.remove(0, 1);
        while (code.endsWith(u'\n'))
            code.chop(1);
        QString language;
        for (const auto &child : node.children) {
            if (child->tag != u"code"_s)
                continue;
            static const QRegularExpression languageClass(u"(?:^|\\s)(?:language|lang)-(\\S+)"_s);
            const QRegularExpressionMatch match = languageClass.match(child->attribute(u"class"_s));
            if (match.hasMatch())
                language = match.captured(1);
        }
        // A fence longer than any backtick run inside.
        qsizetype longest = 0;
        qsizetype run = 0;
        for (const QChar c : std::as_const(code)) {
            run = c == u'`' ? run + 1 : 0;
            longest = std::max(longest, run);
        }
        const QString fence(std::max<qsizetype>(3, longest + 1), u'`');
        writeBlock(fence + language + u'\n' + code + u'\n' + fence);
    }

    void writeList(const Node &list)
    {
        const bool ordered = list.tag == u"ol"_s;
        int number = ordered ? list.attribute(u"start"_s).toInt() : 0;
        if (ordered && number <= 0)
            number = 1;
        QStringList items;
        for (const auto &child : list.children) {
            if (child->isText())
                continue; // whitespace between items
            if (child->tag == u"ul"_s || child->tag == u"ol"_s) {
                // A list nested directly in a list: under the previous item.
                Writer inner;
                inner.write(*child);
                const QString nested = inner.result();
                if (items.isEmpty())
                    items.append(nested);
                else
                    items.last() += u'\n' + prefixLines(nested, QString(2, u' '), QString(2, u' '));
                continue;
            }
            const QString marker = ordered ? u"%1. "_s.arg(number++) : u"- "_s;
            QString content = blockContent(*child);
            // A nested list follows its item's text on the next line.
            static const QRegularExpression beforeNestedList(u"\\n\\n(?=(?:- |\\d+\\. ))"_s);
            content.replace(beforeNestedList, u"\n"_s);
            items.append(prefixLines(content, marker, QString(marker.size(), u' ')));
        }
        if (!items.isEmpty())
            writeBlock(items.join(u'\n'));
    }

    static QString prefixLines(const QString &text, const QString &first, const QString &rest)
    {
        const QStringList lines = text.split(u'\n');
        QStringList out;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString &prefix = i == 0 ? first : rest;
            out.append(lines.at(i).isEmpty() ? QString(prefix).trimmed() : QString(prefix + lines.at(i)));
        }
        return out.join(u'\n');
    }

    static void collectRows(const Node &node, QList<const Node *> &rows)
    {
        for (const auto &child : node.children) {
            if (child->tag == u"tr"_s)
                rows.append(child.get());
            else if (child->tag == u"thead"_s || child->tag == u"tbody"_s || child->tag == u"tfoot"_s)
                collectRows(*child, rows);
        }
    }

    void writeTable(const Node &table)
    {
        QList<const Node *> rows;
        collectRows(table, rows);
        QList<QStringList> cells;
        qsizetype columns = 0;
        for (const Node *row : std::as_const(rows)) {
            QStringList line;
            for (const auto &cell : row->children) {
                if (cell->tag != u"td"_s && cell->tag != u"th"_s)
                    continue;
                line.append(inlineContent(*cell).replace(u'|', u"\\|"_s));
            }
            columns = std::max(columns, line.size());
            cells.append(line);
        }
        QString caption;
        for (const auto &child : table.children) {
            if (child->tag == u"caption"_s)
                caption = inlineContent(*child);
        }
        if (!caption.isEmpty())
            writeBlock(caption);
        if (columns == 0)
            return;
        QStringList lines;
        for (qsizetype r = 0; r < cells.size(); ++r) {
            QStringList line = cells.at(r);
            while (line.size() < columns)
                line.append(QString());
            lines.append(u"| "_s + line.join(u" | "_s) + u" |"_s);
            if (r == 0) {
                QStringList separator;
                for (qsizetype c = 0; c < columns; ++c)
                    separator.append(u"---"_s);
                lines.append(u"| "_s + separator.join(u" | "_s) + u" |"_s);
            }
        }
        writeBlock(lines.join(u'\n'));
    }

    QString m_out;
    // Renders the inside of an inline element: a leading space is kept,
    // for the caller to move outside the delimiters.
    bool m_inline = false;
};

} // namespace

QString convert(QStringView html)
{
    const HtmlDocument document = HtmlDocument::parse(html);
    Writer writer;
    writer.writeChildren(document.root());
    return writer.result();
}

} // namespace qcode::HtmlToMarkdown
