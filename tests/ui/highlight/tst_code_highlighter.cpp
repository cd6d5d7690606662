#include <QElapsedTimer>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

#include "ui/highlight/CodeBlockHighlighter.h"
#include "ui/highlight/CodeHighlighter.h"
#include "ui/highlight/CodeLanguage.h"

using namespace Qt::StringLiterals;
using namespace qcode;

// Colouring needs KSyntaxHighlighting or GNU Source-highlight, both
// optional at build time; without either there is nothing to check.
#define SKIP_WITHOUT_COLOURING(highlighter)                                                                   \
    do {                                                                                                      \
        if ((highlighter)->backendName() == u"plain"_s)                                                       \
            QSKIP("This build found no highlighting library (KSyntaxHighlighting or GNU Source-highlight)");  \
    } while (false)

namespace {

// The span that covers `offset`, or null.
const HighlightSpan *spanAt(const QList<HighlightSpan> &spans, qsizetype offset)
{
    for (const HighlightSpan &span : spans) {
        if (offset >= span.start && offset < span.start + span.length)
            return &span;
    }
    return nullptr;
}

QColor colourAt(const QList<HighlightSpan> &spans, qsizetype offset)
{
    const HighlightSpan *span = spanAt(spans, offset);
    return span && span->format.hasProperty(QTextFormat::ForegroundBrush) ? span->format.foreground().color() : QColor();
}

QList<QTextLayout::FormatRange> formatsOf(const QTextDocument &document, int blockNumber)
{
    return document.findBlockByNumber(blockNumber).layout()->formats();
}

} // namespace

class CodeHighlighterTest : public QObject
{
    Q_OBJECT

private:
    // The backend this build chose; the tests of colours need a real one.
    std::unique_ptr<CodeHighlighter> colouring();

private Q_SLOTS:
    void canonicalNamesFoldTheCommonAliasesAndFileNames_data();
    void canonicalNamesFoldTheCommonAliasesAndFileNames();
    void thePlainBackendKnowsNoLanguageAndColoursNothing();
    void knowsLanguagesByAliasAndByFileName();
    void aKeywordAndAStringAreColouredUnlikePlainText();
    void aBlockCommentCarriesItsStateToTheNextLine();
    void anUnknownLanguageGivesNoSpans();
    void spansAreInUtf16UnitsAfterCharactersOutsideTheBasicPlane();
    void oddAndHugeLinesNeitherCrashNorStall();
    void theDarkPaletteUsesOtherColours();
    void onlyTheCodeBlocksOfAMarkdownDocumentAreColoured();
    void twoTouchingFencesDoNotShareState();
    void aWholeDocumentCanBeColouredInOneLanguage();
    void withoutABackendTheDocumentStaysPlain();
};

std::unique_ptr<CodeHighlighter> CodeHighlighterTest::colouring()
{
    return CodeHighlighter::create();
}

void CodeHighlighterTest::canonicalNamesFoldTheCommonAliasesAndFileNames_data()
{
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("canonical");
    QTest::newRow("py") << u"py"_s << u"python"_s;
    QTest::newRow("Python") << u"Python"_s << u"python"_s;
    QTest::newRow("c++") << u"c++"_s << u"cpp"_s;
    QTest::newRow("cpp") << u"cpp"_s << u"cpp"_s;
    QTest::newRow("sh") << u"sh"_s << u"bash"_s;
    QTest::newRow("bash") << u"BASH"_s << u"bash"_s;
    QTest::newRow("ts") << u"ts"_s << u"typescript"_s;
    QTest::newRow("info string with attributes") << u"  python title=\"x.py\""_s << u"python"_s;
    QTest::newRow("pandoc braces") << u"{.rust}"_s << u"rust"_s;
    QTest::newRow("source file") << u"main.cpp"_s << u"cpp"_s;
    QTest::newRow("path") << u"src/app/Main.PY"_s << u"python"_s;
    QTest::newRow("CMakeLists.txt") << u"CMakeLists.txt"_s << u"cmake"_s;
    QTest::newRow("Makefile") << u"Makefile"_s << u"makefile"_s;
    QTest::newRow("dot file") << u".bashrc"_s << u"bash"_s;
    QTest::newRow("unknown stays lower case") << u"Brainfuck"_s << u"brainfuck"_s;
    QTest::newRow("empty") << QString() << QString();
    QTest::newRow("blank") << u"   "_s << QString();
}

void CodeHighlighterTest::canonicalNamesFoldTheCommonAliasesAndFileNames()
{
    QFETCH(QString, given);
    QFETCH(QString, canonical);
    QCOMPARE(canonicalLanguage(given), canonical);
}

void CodeHighlighterTest::thePlainBackendKnowsNoLanguageAndColoursNothing()
{
    auto plain = CodeHighlighter::createPlain();
    QCOMPARE(plain->backendName(), u"plain"_s);
    QVERIFY(!plain->knowsLanguage(u"cpp"_s));
    QList<HighlightSpan> spans;
    QCOMPARE(plain->highlightLine(u"cpp"_s, u"int main() { return 0; }"_s, 0, spans), 0);
    QVERIFY(spans.isEmpty());
}

void CodeHighlighterTest::knowsLanguagesByAliasAndByFileName()
{
    auto highlighter = colouring();
    SKIP_WITHOUT_COLOURING(highlighter);
    for (const QString &language : {u"py"_s, u"python"_s, u"c++"_s, u"cpp"_s, u"CPP"_s, u"sh"_s, u"bash"_s, u"json"_s,
                                    u"diff"_s, u"js"_s, u"ts"_s, u"main.cpp"_s, u"tool.py"_s, u"Makefile"_s})
        QVERIFY2(highlighter->knowsLanguage(language), qPrintable(language));
    QVERIFY(!highlighter->knowsLanguage(u"no-such-language"_s));
    QVERIFY(!highlighter->knowsLanguage(QString()));
    QVERIFY(!highlighter->knowsLanguage(u"text"_s));
}

void CodeHighlighterTest::aKeywordAndAStringAreColouredUnlikePlainText()
{
    auto highlighter = colouring();
    SKIP_WITHOUT_COLOURING(highlighter);
    const QString line = u"return value + \"text\";"_s;
    QList<HighlightSpan> spans;
    QCOMPARE(highlighter->highlightLine(u"c++"_s, line, 0, spans), 0);
    const QColor keyword = colourAt(spans, line.indexOf(u"return"));
    const QColor string = colourAt(spans, line.indexOf(u"text"));
    QVERIFY(keyword.isValid());
    QVERIFY(string.isValid());
    QVERIFY(keyword != string);
    QCOMPARE(colourAt(spans, line.indexOf(u"value")), QColor());
    // The keyword's span is the keyword, not the whole line.
    const HighlightSpan *keywordSpan = spanAt(spans, 0);
    QCOMPARE(keywordSpan->length, 6);
}

void CodeHighlighterTest::aBlockCommentCarriesItsStateToTheNextLine()
{
    auto highlighter = colouring();
    SKIP_WITHOUT_COLOURING(highlighter);
    QList<HighlightSpan> first;
    const int inComment = highlighter->highlightLine(u"cpp"_s, u"int a; /* a comment"_s, 0, first);
    QVERIFY(inComment != 0);
    const QColor comment = colourAt(first, 10);
    QVERIFY(comment.isValid());

    const QString next = u"still the comment */ return b;"_s;
    QList<HighlightSpan> continued;
    QCOMPARE(highlighter->highlightLine(u"cpp"_s, next, inComment, continued), 0);
    QCOMPARE(colourAt(continued, 0), comment);
    QCOMPARE(colourAt(continued, next.indexOf(u"*/")), comment);
    QVERIFY(colourAt(continued, next.indexOf(u"return")) != comment);

    QList<HighlightSpan> fresh;
    highlighter->highlightLine(u"cpp"_s, next, 0, fresh);
    QVERIFY(colourAt(fresh, 0) != comment);
}

void CodeHighlighterTest::anUnknownLanguageGivesNoSpans()
{
    auto highlighter = colouring();
    for (const QString &language : {u"no-such-language"_s, QString(), u"```"_s, u"\u0000\uFFFF"_s}) {
        QList<HighlightSpan> spans;
        QCOMPARE(highlighter->highlightLine(language, u"int main() { return 0; }"_s, 7, spans), 0);
        QVERIFY(spans.isEmpty());
    }
}

void CodeHighlighterTest::spansAreInUtf16UnitsAfterCharactersOutsideTheBasicPlane()
{
    auto highlighter = colouring();
    SKIP_WITHOUT_COLOURING(highlighter);
    const QString line = u"/* \U0001F600 é 中 */ return 1;"_s;
    QList<HighlightSpan> spans;
    highlighter->highlightLine(u"cpp"_s, line, 0, spans);
    const HighlightSpan *keyword = spanAt(spans, line.indexOf(u"return"));
    QVERIFY(keyword);
    QCOMPARE(keyword->start, line.indexOf(u"return"));
    QCOMPARE(keyword->length, 6);
    const HighlightSpan *comment = spanAt(spans, 0);
    QVERIFY(comment);
    QCOMPARE(comment->start + comment->length, line.indexOf(u"*/") + 2);
}

void CodeHighlighterTest::oddAndHugeLinesNeitherCrashNorStall()
{
    auto highlighter = colouring();
    const QString withNul = u"int a = 0;"_s + QChar(u'\0') + u" return \"\0\";"_s;
    const QString loneSurrogates = u"return "_s + QChar(0xD800) + QChar(0xDFFF) + u" /* "_s + QChar(0xDC00);
    const QString huge = u"x = \""_s + QString(1024 * 1024, u'a');
    QElapsedTimer timer;
    timer.start();
    for (const QString &language : {u"cpp"_s, u"python"_s, u"json"_s, u"sh"_s, u"diff"_s}) {
        int state = 0;
        for (const QString &line : {withNul, loneSurrogates, huge, withNul}) {
            QList<HighlightSpan> spans;
            state = highlighter->highlightLine(language, line, state, spans);
            for (const HighlightSpan &span : std::as_const(spans)) {
                QVERIFY(span.start >= 0);
                QVERIFY(span.length > 0);
                QVERIFY(span.start + span.length <= line.size());
            }
        }
    }
    // A state from nowhere is treated as the initial one.
    QList<HighlightSpan> spans;
    highlighter->highlightLine(u"cpp"_s, u"return 0;"_s, 123456, spans);
    highlighter->highlightLine(u"cpp"_s, u"return 0;"_s, -5, spans);
    QVERIFY2(timer.elapsed() < 1500, qPrintable(u"took %1 ms"_s.arg(timer.elapsed())));
}

void CodeHighlighterTest::theDarkPaletteUsesOtherColours()
{
    auto highlighter = colouring();
    SKIP_WITHOUT_COLOURING(highlighter);
    QList<HighlightSpan> light;
    highlighter->highlightLine(u"cpp"_s, u"return 0;"_s, 0, light);
    highlighter->setDark(true);
    QList<HighlightSpan> dark;
    highlighter->highlightLine(u"cpp"_s, u"return 0;"_s, 0, dark);
    QVERIFY(colourAt(dark, 0).isValid());
    QVERIFY(colourAt(dark, 0) != colourAt(light, 0));
    // Dark backgrounds need light text.
    QVERIFY(colourAt(dark, 0).lightness() > colourAt(light, 0).lightness());
}

void CodeHighlighterTest::onlyTheCodeBlocksOfAMarkdownDocumentAreColoured()
{
    auto highlighter = colouring();
    SKIP_WITHOUT_COLOURING(highlighter);
    QTextDocument document;
    document.setMarkdown(u"return \"prose\" here\n\n```cpp\nreturn \"code\";\n/* open\nclosed */ int x;\n```\n\nreturn again\n"_s);
    CodeBlockHighlighter blocks(highlighter.get(), &document);
    blocks.rehighlight();
    QCOMPARE(document.blockCount(), 5);
    QVERIFY(formatsOf(document, 0).isEmpty());
    QVERIFY(!formatsOf(document, 1).isEmpty());
    QVERIFY(formatsOf(document, 4).isEmpty());
    // The comment opened on one line of the fence colours the start of the next.
    const QList<QTextLayout::FormatRange> closing = formatsOf(document, 3);
    QVERIFY(!closing.isEmpty());
    QCOMPARE(closing.first().start, 0);
    QVERIFY(closing.first().length >= 9);
}

void CodeHighlighterTest::twoTouchingFencesDoNotShareState()
{
    auto highlighter = colouring();
    SKIP_WITHOUT_COLOURING(highlighter);
    QTextDocument document;
    document.setMarkdown(u"```cpp\n/* never closed\n```\n```python\nvalue = 1\n```\n"_s);
    CodeBlockHighlighter blocks(highlighter.get(), &document);
    blocks.rehighlight();
    QCOMPARE(document.blockCount(), 2);
    for (const QTextLayout::FormatRange &range : formatsOf(document, 1))
        QVERIFY2(range.start > 0, "the python line is not a continuation of the C++ comment");
}

void CodeHighlighterTest::aWholeDocumentCanBeColouredInOneLanguage()
{
    auto highlighter = colouring();
    SKIP_WITHOUT_COLOURING(highlighter);
    QTextDocument document;
    document.setPlainText(u"def f():\n    \"\"\"starts\n    ends\"\"\"\n    return 1\n"_s);
    CodeBlockHighlighter blocks(highlighter.get(), u"script.py"_s, &document);
    blocks.rehighlight();
    QVERIFY(!formatsOf(document, 0).isEmpty());
    const QList<QTextLayout::FormatRange> inString = formatsOf(document, 2);
    QVERIFY(!inString.isEmpty());
    QCOMPARE(inString.first().start, 0);
}

void CodeHighlighterTest::withoutABackendTheDocumentStaysPlain()
{
    QTextDocument document;
    document.setMarkdown(u"```cpp\nreturn 0;\n```\n"_s);
    CodeBlockHighlighter nothing(nullptr, &document);
    nothing.rehighlight();
    QVERIFY(formatsOf(document, 0).isEmpty());
    auto plain = CodeHighlighter::createPlain();
    CodeBlockHighlighter plainBlocks(plain.get(), &document);
    plainBlocks.rehighlight();
    QVERIFY(formatsOf(document, 0).isEmpty());
}

QTEST_MAIN(CodeHighlighterTest)
#include "tst_code_highlighter.moc"
