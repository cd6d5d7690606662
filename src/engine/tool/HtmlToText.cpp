#include "HtmlToText.h"

#include <QRegularExpression>
#include <QSet>

#include "HtmlDocument.h"

using namespace Qt::StringLiterals;

namespace qcode::HtmlToText {

namespace {

using Node = HtmlDocument::Node;

// Elements that stand on lines of their own.
const QSet<QString> &lineElements()
{
    static const QSet<QString> tags{
        u"address"_s, u"article"_s, u"aside"_s,   u"blockquote"_s, u"body"_s,   u"caption"_s, u"dd"_s,  u"details"_s,
        u"div"_s,     u"dl"_s,      u"dt"_s,      u"fieldset"_s,   u"figcaption"_s, u"figure"_s, u"footer"_s,
        u"form"_s,    u"h1"_s,      u"h2"_s,      u"h3"_s,         u"h4"_s,     u"h5"_s,      u"h6"_s,  u"header"_s,
        u"hr"_s,      u"html"_s,    u"li"_s,      u"main"_s,       u"nav"_s,    u"ol"_s,      u"p"_s,   u"pre"_s,
        u"section"_s, u"summary"_s, u"table"_s,   u"tbody"_s,      u"thead"_s,  u"tfoot"_s,   u"tr"_s,  u"ul"_s};
    return tags;
}

class Writer
{
public:
    void write(const Node &node, bool preformatted)
    {
        if (node.isText()) {
            writeText(node.text, preformatted);
            return;
        }
        if (node.tag == u"br"_s) {
            trimTrailingSpaces();
            m_out += u'\n';
            return;
        }
        const bool line = lineElements().contains(node.tag);
        if (line)
            newLine();
        if ((node.tag == u"td"_s || node.tag == u"th"_s) && !m_out.isEmpty() && !m_out.endsWith(u'\n')) {
            trimTrailingSpaces();
            m_out += u'\t';
        }
        if (node.tag == u"img"_s)
            writeText(node.attribute(u"alt"_s), false);
        const bool pre = preformatted || node.tag == u"pre"_s;
        for (const auto &child : node.children)
            write(*child, pre);
        if (line)
            newLine();
    }

    QString result() const
    {
        QString out = m_out;
        static const QRegularExpression blankLines(u"\\n{3,}"_s);
        out.replace(blankLines, u"\n\n"_s);
        return out.trimmed();
    }

private:
    void writeText(const QString &text, bool preformatted)
    {
        if (preformatted) {
            m_out += text;
            return;
        }
        static const QRegularExpression space(u"[ \\t\\n\\r\\f]+"_s);
        QString collapsed = text;
        collapsed.replace(space, u" "_s);
        collapsed.replace(QChar(0x00A0), u' ');
        if (collapsed.startsWith(u' ')
            && (m_out.isEmpty() || m_out.endsWith(u' ') || m_out.endsWith(u'\n') || m_out.endsWith(u'\t')))
            collapsed.remove(0, 1);
        m_out += collapsed;
    }

    void trimTrailingSpaces()
    {
        while (m_out.endsWith(u' '))
            m_out.chop(1);
    }

    void newLine()
    {
        trimTrailingSpaces();
        if (!m_out.isEmpty() && !m_out.endsWith(u'\n'))
            m_out += u'\n';
    }

    QString m_out;
};

} // namespace

QString convert(QStringView html)
{
    const HtmlDocument document = HtmlDocument::parse(html);
    Writer writer;
    for (const auto &child : document.root().children)
        writer.write(*child, false);
    return writer.result();
}

} // namespace qcode::HtmlToText
