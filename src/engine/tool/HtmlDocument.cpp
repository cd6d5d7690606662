#include "HtmlDocument.h"

#include <QSet>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Deeper elements are kept as siblings at this depth: a hostile page of a
// million nested <div>s must not exhaust the stack of the renderers, which
// recurse over the tree.
constexpr int MaxDepth = 256;

const QSet<QString> &voidElements()
{
    static const QSet<QString> tags{u"area"_s, u"base"_s, u"br"_s,    u"col"_s,   u"embed"_s, u"hr"_s,   u"img"_s,
                                    u"input"_s, u"link"_s, u"meta"_s, u"param"_s, u"source"_s, u"track"_s, u"wbr"_s};
    return tags;
}

// Elements whose content is never page text: skipped whole.
const QSet<QString> &droppedElements()
{
    static const QSet<QString> tags{u"script"_s, u"style"_s, u"noscript"_s, u"template"_s, u"head"_s, u"title"_s};
    return tags;
}

// Elements whose content is read as text up to their end tag.
bool isRawText(const QString &tag)
{
    return tag == u"script"_s || tag == u"style"_s || tag == u"textarea"_s || tag == u"title"_s
           || tag == u"noscript"_s;
}

// Blocks that end an open paragraph when they start.
const QSet<QString> &closesParagraph()
{
    static const QSet<QString> tags{u"address"_s, u"article"_s, u"aside"_s, u"blockquote"_s, u"div"_s,  u"dl"_s,
                                    u"fieldset"_s, u"figure"_s, u"footer"_s, u"form"_s,      u"h1"_s,   u"h2"_s,
                                    u"h3"_s,      u"h4"_s,     u"h5"_s,     u"h6"_s,        u"header"_s, u"hr"_s,
                                    u"main"_s,    u"nav"_s,    u"ol"_s,     u"p"_s,         u"pre"_s,  u"section"_s,
                                    u"table"_s,   u"ul"_s};
    return tags;
}

const QHash<QString, QString> &namedEntities()
{
    static const QHash<QString, QString> entities{
        {u"amp"_s, u"&"_s},        {u"lt"_s, u"<"_s},          {u"gt"_s, u">"_s},          {u"quot"_s, u"\""_s},
        {u"apos"_s, u"'"_s},       {u"nbsp"_s, u"\u00A0"_s},  {u"copy"_s, u"\u00A9"_s},   {u"reg"_s, u"\u00AE"_s},
        {u"trade"_s, u"\u2122"_s}, {u"hellip"_s, u"\u2026"_s}, {u"mdash"_s, u"\u2014"_s}, {u"ndash"_s, u"\u2013"_s},
        {u"lsquo"_s, u"\u2018"_s}, {u"rsquo"_s, u"\u2019"_s},  {u"ldquo"_s, u"\u201C"_s}, {u"rdquo"_s, u"\u201D"_s},
        {u"laquo"_s, u"\u00AB"_s}, {u"raquo"_s, u"\u00BB"_s},  {u"bull"_s, u"\u2022"_s},  {u"middot"_s, u"\u00B7"_s},
        {u"euro"_s, u"\u20AC"_s},  {u"pound"_s, u"\u00A3"_s},  {u"yen"_s, u"\u00A5"_s},   {u"cent"_s, u"\u00A2"_s},
        {u"sect"_s, u"\u00A7"_s},  {u"para"_s, u"\u00B6"_s},   {u"deg"_s, u"\u00B0"_s},   {u"plusmn"_s, u"\u00B1"_s},
        {u"times"_s, u"\u00D7"_s}, {u"divide"_s, u"\u00F7"_s}, {u"larr"_s, u"\u2190"_s},  {u"rarr"_s, u"\u2192"_s},
        {u"uarr"_s, u"\u2191"_s},  {u"darr"_s, u"\u2193"_s},   {u"harr"_s, u"\u2194"_s},  {u"shy"_s, u"\u00AD"_s},
        {u"zwj"_s, u"\u200D"_s},   {u"zwnj"_s, u"\u200C"_s},   {u"thinsp"_s, u"\u2009"_s}, {u"ensp"_s, u"\u2002"_s},
        {u"emsp"_s, u"\u2003"_s},  {u"iexcl"_s, u"\u00A1"_s},  {u"iquest"_s, u"\u00BF"_s}, {u"frac12"_s, u"\u00BD"_s},
        {u"auml"_s, u"\u00E4"_s},  {u"ouml"_s, u"\u00F6"_s},   {u"uuml"_s, u"\u00FC"_s},  {u"szlig"_s, u"\u00DF"_s},
        {u"eacute"_s, u"\u00E9"_s}, {u"egrave"_s, u"\u00E8"_s}, {u"agrave"_s, u"\u00E0"_s}, {u"ccedil"_s, u"\u00E7"_s},
        {u"check"_s, u"\u2713"_s},
    };
    return entities;
}

bool isNameChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'-' || c == u'_' || c == u':' || c == u'.';
}

class Builder
{
public:
    Builder(HtmlDocument::Node *root, QStringView html)
        : m_html(html)
        , m_current(root)
    {
    }

    void run()
    {
        while (m_pos < m_html.size()) {
            const qsizetype lt = m_html.indexOf(u'<', m_pos);
            if (lt < 0) {
                addText(m_html.mid(m_pos));
                break;
            }
            if (lt > m_pos)
                addText(m_html.mid(m_pos, lt - m_pos));
            m_pos = lt;
            if (!readMarkup()) {
                addText(u"<");
                ++m_pos;
            }
        }
    }

private:
    // At a '<': reads a tag, comment or declaration; false when it starts none.
    bool readMarkup()
    {
        const QStringView rest = m_html.mid(m_pos);
        if (rest.startsWith(u"<!--")) {
            const qsizetype end = m_html.indexOf(u"-->", m_pos + 4);
            m_pos = end < 0 ? m_html.size() : end + 3;
            return true;
        }
        if (rest.startsWith(u"<!") || rest.startsWith(u"<?")) {
            const qsizetype end = m_html.indexOf(u'>', m_pos);
            m_pos = end < 0 ? m_html.size() : end + 1;
            return true;
        }
        if (rest.size() < 2)
            return false;
        if (rest.at(1) == u'/') {
            if (rest.size() < 3 || !rest.at(2).isLetter())
                return false;
            qsizetype i = m_pos + 2;
            const QString name = readName(i);
            const qsizetype end = m_html.indexOf(u'>', i);
            m_pos = end < 0 ? m_html.size() : end + 1;
            closeElement(name);
            return true;
        }
        if (!rest.at(1).isLetter())
            return false;
        qsizetype i = m_pos + 1;
        const QString name = readName(i);
        QHash<QString, QString> attributes;
        bool selfClosing = false;
        readAttributes(i, attributes, selfClosing);
        m_pos = i;
        openElement(name, std::move(attributes), selfClosing);
        return true;
    }

    QString readName(qsizetype &i) const
    {
        const qsizetype start = i;
        while (i < m_html.size() && isNameChar(m_html.at(i)))
            ++i;
        return m_html.mid(start, i - start).toString().toLower();
    }

    void skipSpace(qsizetype &i) const
    {
        while (i < m_html.size() && m_html.at(i).isSpace())
            ++i;
    }

    // Up to and past the tag's '>' (or the end of the page).
    void readAttributes(qsizetype &i, QHash<QString, QString> &attributes, bool &selfClosing) const
    {
        while (i < m_html.size()) {
            skipSpace(i);
            if (i >= m_html.size())
                return;
            const QChar c = m_html.at(i);
            if (c == u'>') {
                ++i;
                return;
            }
            if (c == u'/') {
                selfClosing = i + 1 < m_html.size() && m_html.at(i + 1) == u'>';
                ++i;
                continue;
            }
            const qsizetype nameStart = i;
            while (i < m_html.size() && !m_html.at(i).isSpace() && m_html.at(i) != u'=' && m_html.at(i) != u'>'
                   && m_html.at(i) != u'/')
                ++i;
            const QString name = m_html.mid(nameStart, i - nameStart).toString().toLower();
            if (name.isEmpty()) {
                ++i; // a stray character: skip it, never loop on it
                continue;
            }
            skipSpace(i);
            QString value;
            if (i < m_html.size() && m_html.at(i) == u'=') {
                ++i;
                skipSpace(i);
                if (i < m_html.size() && (m_html.at(i) == u'"' || m_html.at(i) == u'\'')) {
                    const QChar quote = m_html.at(i);
                    const qsizetype end = m_html.indexOf(quote, i + 1);
                    const qsizetype stop = end < 0 ? m_html.size() : end;
                    value = HtmlDocument::decodeEntities(m_html.mid(i + 1, stop - i - 1));
                    i = end < 0 ? m_html.size() : end + 1;
                } else {
                    const qsizetype start = i;
                    while (i < m_html.size() && !m_html.at(i).isSpace() && m_html.at(i) != u'>')
                        ++i;
                    value = HtmlDocument::decodeEntities(m_html.mid(start, i - start));
                }
            }
            if (!attributes.contains(name))
                attributes.insert(name, value);
        }
    }

    void openElement(const QString &name, QHash<QString, QString> attributes, bool selfClosing)
    {
        if (isRawText(name)) {
            // Content up to the matching end tag, read as text.
            const QString endTag = u"</"_s + name;
            qsizetype end = m_pos;
            for (;;) {
                end = m_html.indexOf(endTag, end, Qt::CaseInsensitive);
                if (end < 0 || end + endTag.size() >= m_html.size() || !isNameChar(m_html.at(end + endTag.size())))
                    break;
                end += endTag.size();
            }
            const QStringView content = m_html.mid(m_pos, (end < 0 ? m_html.size() : end) - m_pos);
            if (end < 0) {
                m_pos = m_html.size();
            } else {
                const qsizetype close = m_html.indexOf(u'>', end);
                m_pos = close < 0 ? m_html.size() : close + 1;
            }
            if (droppedElements().contains(name) || selfClosing)
                return;
            HtmlDocument::Node *element = append(name, std::move(attributes));
            auto text = std::make_unique<HtmlDocument::Node>();
            text->text = HtmlDocument::decodeEntities(content);
            text->parent = element;
            element->children.push_back(std::move(text));
            return;
        }
        closeImplied(name);
        // <head> and <template> are read like any element; parse() drops
        // what they hold at the end.
        HtmlDocument::Node *element = append(name, std::move(attributes));
        if (!selfClosing && !voidElements().contains(name) && m_depth < MaxDepth) {
            m_current = element;
            ++m_depth;
        }
    }

    HtmlDocument::Node *append(const QString &name, QHash<QString, QString> attributes)
    {
        auto element = std::make_unique<HtmlDocument::Node>();
        element->tag = name;
        element->attributes = std::move(attributes);
        element->parent = m_current;
        HtmlDocument::Node *raw = element.get();
        m_current->children.push_back(std::move(element));
        return raw;
    }

    bool isOpen(const QString &name, const QSet<QString> &stopAt = {}) const
    {
        for (const HtmlDocument::Node *node = m_current; node && node->parent; node = node->parent) {
            if (node->tag == name)
                return true;
            if (stopAt.contains(node->tag))
                return false;
        }
        return false;
    }

    // A browser's implied end tags, the common ones.
    void closeImplied(const QString &name)
    {
        static const QSet<QString> listScope{u"ul"_s, u"ol"_s, u"table"_s};
        static const QSet<QString> tableScope{u"table"_s};
        static const QSet<QString> headContent{u"meta"_s, u"link"_s, u"base"_s, u"title"_s, u"style"_s, u"script"_s,
                                               u"noscript"_s};
        // The body starts where the head's content ends, </head> or not.
        if (!headContent.contains(name) && isOpen(u"head"_s))
            closeElement(u"head"_s);
        if (closesParagraph().contains(name) && isOpen(u"p"_s, {u"div"_s, u"li"_s, u"td"_s, u"th"_s, u"blockquote"_s}))
            closeElement(u"p"_s);
        if (name == u"li"_s && isOpen(u"li"_s, listScope))
            closeElement(u"li"_s);
        if ((name == u"dt"_s || name == u"dd"_s)) {
            if (isOpen(u"dt"_s, {u"dl"_s}))
                closeElement(u"dt"_s);
            if (isOpen(u"dd"_s, {u"dl"_s}))
                closeElement(u"dd"_s);
        }
        if (name == u"td"_s || name == u"th"_s || name == u"tr"_s) {
            if (isOpen(u"td"_s, tableScope))
                closeElement(u"td"_s);
            if (isOpen(u"th"_s, tableScope))
                closeElement(u"th"_s);
        }
        if (name == u"tr"_s && isOpen(u"tr"_s, tableScope))
            closeElement(u"tr"_s);
        if (name == u"option"_s && isOpen(u"option"_s, {u"select"_s}))
            closeElement(u"option"_s);
    }

    // Closes `name` and everything opened inside it; a stray end tag
    // (nothing of that name open) is ignored.
    void closeElement(const QString &name)
    {
        HtmlDocument::Node *node = m_current;
        int levels = 1;
        while (node && node->parent && node->tag != name) {
            node = node->parent;
            ++levels;
        }
        if (!node || !node->parent)
            return;
        m_current = node->parent;
        m_depth -= levels;
    }

    void addText(QStringView raw)
    {
        if (raw.isEmpty())
            return;
        auto text = std::make_unique<HtmlDocument::Node>();
        text->text = HtmlDocument::decodeEntities(raw);
        text->parent = m_current;
        m_current->children.push_back(std::move(text));
    }

    QStringView m_html;
    qsizetype m_pos = 0;
    HtmlDocument::Node *m_current;
    int m_depth = 0; // of m_current below the root
};

} // namespace

HtmlDocument::HtmlDocument()
    : m_root(std::make_unique<Node>())
{
}

HtmlDocument HtmlDocument::parse(QStringView html)
{
    HtmlDocument document;
    Builder builder(document.m_root.get(), html);
    builder.run();
    // A <head> or <template> never closed: drop what it holds.
    std::vector<Node *> pending{document.m_root.get()};
    while (!pending.empty()) {
        Node *node = pending.back();
        pending.pop_back();
        if (droppedElements().contains(node->tag)) {
            node->children.clear();
            continue;
        }
        for (const auto &child : node->children)
            pending.push_back(child.get());
    }
    return document;
}

QString HtmlDocument::decodeEntities(QStringView text)
{
    if (!text.contains(u'&'))
        return text.toString();
    QString out;
    out.reserve(text.size());
    qsizetype i = 0;
    while (i < text.size()) {
        const QChar c = text.at(i);
        if (c != u'&') {
            out.append(c);
            ++i;
            continue;
        }
        const qsizetype semicolon = text.indexOf(u';', i + 1);
        if (semicolon < 0 || semicolon - i > 32) {
            out.append(c);
            ++i;
            continue;
        }
        const QStringView name = text.mid(i + 1, semicolon - i - 1);
        bool decoded = false;
        if (name.startsWith(u'#') && name.size() > 1) {
            bool ok = false;
            const bool hex = name.at(1) == u'x' || name.at(1) == u'X';
            const uint code = hex ? name.mid(2).toUInt(&ok, 16) : name.mid(1).toUInt(&ok, 10);
            if (ok && code > 0 && code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF)) {
                const char32_t point = code;
                out.append(QString::fromUcs4(&point, 1));
                decoded = true;
            }
        } else if (const auto found = namedEntities().constFind(name.toString()); found != namedEntities().constEnd()) {
            out.append(*found);
            decoded = true;
        }
        if (decoded) {
            i = semicolon + 1;
        } else {
            out.append(c);
            ++i;
        }
    }
    return out;
}

} // namespace qcode
