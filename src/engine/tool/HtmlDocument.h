#pragma once

#include <QHash>
#include <QString>
#include <QStringView>

#include <memory>
#include <vector>

namespace qcode {

// A forgiving HTML reader for webfetch: the page as a tree of elements and
// text, good enough to turn into Markdown or plain text. It never fails:
// unclosed tags are closed where a browser would close them (a new <p>
// or a block ends an open <p>, a new <li> ends the previous one …), stray
// end tags are ignored, a "<" that starts no tag is text. Comments,
// doctypes and processing instructions are dropped; so are <script>,
// <style>, <noscript>, <template> and the <head>, whose content is never
// page text. Character references (&amp;, &#8212;, &#x1F600;, &nbsp; …)
// are decoded in text and attribute values.
class HtmlDocument
{
public:
    struct Node {
        QString tag;  // lower case; empty for a text node
        QString text; // a text node's text, decoded
        QHash<QString, QString> attributes;
        std::vector<std::unique_ptr<Node>> children;
        Node *parent = nullptr;

        bool isText() const { return tag.isEmpty(); }
        QString attribute(const QString &name) const { return attributes.value(name); }
    };

    static HtmlDocument parse(QStringView html);

    // The root: a nameless element holding the page's top-level nodes.
    const Node &root() const { return *m_root; }

    // Text with its character references decoded; unknown ones stay as written.
    static QString decodeEntities(QStringView text);

private:
    HtmlDocument();

    std::unique_ptr<Node> m_root;
};

} // namespace qcode
