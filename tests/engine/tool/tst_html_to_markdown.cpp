#include <QTest>

#include "engine/tool/HtmlDocument.h"
#include "engine/tool/HtmlToMarkdown.h"
#include "engine/tool/HtmlToText.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

// Pages as sites send them; kept outside the test class, where moc does
// not read them.
QString articlePage()
{
    return QString::fromUtf8(
        "<!DOCTYPE html>\n"
        "<html lang=\"en\">\n"
        "<head>\n"
        "  <meta charset=\"utf-8\">\n"
        "  <title>Release notes &mdash; Example</title>\n"
        "  <link rel=\"stylesheet\" href=\"/site.css\">\n"
        "  <style>body { font-family: sans-serif; } .x > p { color: red; }</style>\n"
        "  <script>window.dataLayer = []; if (a < b && c > d) { track(\"</div>\"); }</script>\n"
        "</head>\n"
        "<body>\n"
        "  <nav><a href=\"/\">Home</a></nav>\n"
        "  <main>\n"
        "    <h1>Release   notes</h1>\n"
        "    <p>Version <strong>2.0</strong> is out &amp; it&#39;s <em>fast</em>.\n"
        "       Read the <a href=\"https://example.com/blog\" title=\"The blog\">announcement</a>.</p>\n"
        "    <h2>Install</h2>\n"
        "    <pre><code class=\"language-bash\">pip install example&gt;=2.0\n"
        "echo \"done\"\n"
        "</code></pre>\n"
        "    <p>Use <code>example --help</code> for options.</p>\n"
        "    <noscript><p>Enable JavaScript</p></noscript>\n"
        "    <img src=\"/logo.png\" alt=\"Example logo\">\n"
        "  </main>\n"
        "</body>\n"
        "</html>");
}

QString nestedListPage()
{
    return QString::fromUtf8(
        "<ul>\n"
        "  <li>Fruit\n"
        "    <ul>\n"
        "      <li>Apple</li>\n"
        "      <li>Pear\n"
        "        <ol><li>Conference</li><li>Williams</li></ol>\n"
        "      </li>\n"
        "    </ul>\n"
        "  </li>\n"
        "  <li>Vegetables</li>\n"
        "</ul>\n"
        "<ol start=\"3\"><li>third</li><li>fourth</li></ol>");
}

QString tablePage()
{
    return QString::fromUtf8(
        "<table>\n"
        "  <caption>Sizes</caption>\n"
        "  <thead><tr><th>Name</th><th>Size</th></tr></thead>\n"
        "  <tbody>\n"
        "    <tr><td>a|b</td><td>1 KB</td></tr>\n"
        "    <tr><td>c<td>2 KB\n"
        "  </tbody>\n"
        "</table>");
}

QString malformedPage()
{
    return QString::fromUtf8(
        "<div><p>First <b>bold <i>both</b> after</i>\n"
        "<p>Second paragraph</div></span>\n"
        "<p>Third with a lone < sign and 3 > 2</p>\n"
        "<a href=\"https://example.com/x\">unclosed link\n"
        "<p>Last");
}

} // namespace

class HtmlToMarkdownTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void anArticleBecomesMarkdown()
    {
        const QString markdown = HtmlToMarkdown::convert(articlePage());
        QVERIFY2(markdown.contains(u"# Release notes\n"_s), qPrintable(markdown));
        QVERIFY(markdown.contains(u"## Install"_s));
        QVERIFY(markdown.contains(u"Version **2.0** is out & it's *fast*."_s));
        QVERIFY(markdown.contains(u"[announcement](https://example.com/blog \"The blog\")"_s));
        QVERIFY(markdown.contains(u"```bash\npip install example>=2.0\necho \"done\"\n```"_s));
        QVERIFY(markdown.contains(u"Use `example --help` for options."_s));
        QVERIFY(markdown.contains(u"![Example logo](/logo.png)"_s));
        QVERIFY(markdown.contains(u"[Home](/)"_s));
    }

    void scriptsStylesNoscriptAndTheHeadAreLeftOut()
    {
        const QString markdown = HtmlToMarkdown::convert(articlePage());
        QVERIFY(!markdown.contains(u"dataLayer"_s));
        QVERIFY(!markdown.contains(u"font-family"_s));
        QVERIFY(!markdown.contains(u"Enable JavaScript"_s));
        QVERIFY(!markdown.contains(u"Release notes — Example"_s));
        QVERIFY(!markdown.contains(u"<"_s));
    }

    void nestedListsAreIndentedUnderTheirItem()
    {
        const QString markdown = HtmlToMarkdown::convert(nestedListPage());
        const QString expected = u"- Fruit\n"
                                 "  - Apple\n"
                                 "  - Pear\n"
                                 "    1. Conference\n"
                                 "    2. Williams\n"
                                 "- Vegetables\n\n"
                                 "3. third\n"
                                 "4. fourth"_s;
        QCOMPARE(markdown, expected);
    }

    void tablesBecomeGitHubTables()
    {
        const QString markdown = HtmlToMarkdown::convert(tablePage());
        const QString expected = u"Sizes\n\n"
                                 "| Name | Size |\n"
                                 "| --- | --- |\n"
                                 "| a\\|b | 1 KB |\n"
                                 "| c | 2 KB |"_s;
        QCOMPARE(markdown, expected);
    }

    void malformedTagsAreRepairedAsABrowserWould()
    {
        const QString markdown = HtmlToMarkdown::convert(malformedPage());
        QVERIFY2(markdown.contains(u"First **bold *both*** after"_s), qPrintable(markdown));
        QVERIFY(markdown.contains(u"\n\nSecond paragraph\n\n"_s));
        QVERIFY(markdown.contains(u"Third with a lone < sign and 3 > 2"_s));
        QVERIFY(markdown.contains(u"[unclosed link Last](https://example.com/x)"_s)
                || markdown.contains(u"[unclosed link](https://example.com/x)"_s));
        QVERIFY(markdown.endsWith(u"Last"_s) || markdown.endsWith(u")"_s));
    }

    void entitiesAreDecodedAndUnknownOnesKept()
    {
        QCOMPARE(HtmlDocument::decodeEntities(u"&lt;a&gt; &amp;amp; &#x1F600; &#8212; &nbsp;&copy; &bogus; & x"_s),
                 u"<a> &amp; \U0001F600 \u2014 \u00A0\u00A9 &bogus; & x"_s);
        QCOMPARE(HtmlDocument::decodeEntities(u"&#0; &#xD800; &#99999999;"_s), u"&#0; &#xD800; &#99999999;"_s);
    }

    void whitespaceCollapsesExceptInPre()
    {
        const QString markdown = HtmlToMarkdown::convert(u"<p>  a \n\n  b\t c  </p><pre>  x\n    y</pre>"_s);
        QCOMPARE(markdown, u"a b c\n\n```\n  x\n    y\n```"_s);
    }

    void emphasisKeepsItsSpacesOutside()
    {
        QCOMPARE(HtmlToMarkdown::convert(u"<p>a<strong> b </strong>c</p>"_s), u"a **b** c"_s);
        QCOMPARE(HtmlToMarkdown::convert(u"<p>x<em></em>y</p>"_s), u"xy"_s);
    }

    void codeWithBackticksGetsALongerFence()
    {
        QCOMPARE(HtmlToMarkdown::convert(u"<p><code>a`b</code></p>"_s), u"``a`b``"_s);
        QCOMPARE(HtmlToMarkdown::convert(u"<pre>```\nx\n```</pre>"_s), u"````\n```\nx\n```\n````"_s);
    }

    void lineBreaksAndRulesAndQuotes()
    {
        QCOMPARE(HtmlToMarkdown::convert(u"<p>one<br>two<br/></p><hr><blockquote><p>q1</p><p>q2</p></blockquote>"_s),
                 u"one  \ntwo\n\n---\n\n> q1\n>\n> q2"_s);
    }

    void anEmptyOrTextOnlyPageIsHandled()
    {
        QCOMPARE(HtmlToMarkdown::convert(u""_s), QString());
        QCOMPARE(HtmlToMarkdown::convert(u"just text"_s), u"just text"_s);
        QCOMPARE(HtmlToMarkdown::convert(u"<!-- only a comment"_s), QString());
        QCOMPARE(HtmlToMarkdown::convert(u"<div class=\"a"_s), QString());
    }

    void aVeryDeepPageDoesNotExhaustTheStack()
    {
        const int depth = 20000;
        QString html;
        for (int i = 0; i < depth; ++i)
            html += u"<div><span>"_s;
        html += u"deep <a href=\"x\"><textarea></textarea>link</a>"_s;
        const QString markdown = HtmlToMarkdown::convert(html);
        QVERIFY2(markdown.startsWith(u"deep"_s), qPrintable(markdown.left(200)));
        // Past the depth cap elements become siblings: the text survives.
        QVERIFY(markdown.contains(u"link"_s));
        QVERIFY(HtmlToText::convert(html).startsWith(u"deep"_s));
    }

    void aLinkStartingWithAnEmptyElementIsKept()
    {
        QCOMPARE(HtmlToMarkdown::convert(u"<p>see<a href=\"x\"><textarea></textarea>link</a></p>"_s), u"see[link](x)"_s);
    }

    void textModeKeepsOnlyWhatAReaderSees()
    {
        const QString text = HtmlToText::convert(articlePage());
        QVERIFY2(text.startsWith(u"Home\nRelease notes\nVersion 2.0 is out & it's fast."_s), qPrintable(text));
        QVERIFY(text.contains(u"pip install example>=2.0\necho \"done\""_s));
        QVERIFY(!text.contains(u"dataLayer"_s));
        QVERIFY(!text.contains(u"font-family"_s));
        QVERIFY(!text.contains(u"Enable JavaScript"_s));
        QVERIFY(!text.contains(u'<'));
        QCOMPARE(HtmlToText::convert(tablePage()), u"Sizes\nName\tSize\na|b\t1 KB\nc\t2 KB"_s);
    }
};

QTEST_GUILESS_MAIN(HtmlToMarkdownTest)
#include "tst_html_to_markdown.moc"
