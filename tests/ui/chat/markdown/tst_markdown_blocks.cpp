#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextList>

#include "ui/chat/markdown/FencedCode.h"
#include "ui/chat/markdown/MarkdownBlocks.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

struct Split {
    QStringList closed;
    QString open;
};

Split splitWhole(const QString &text)
{
    MarkdownBlocks blocks;
    Split split;
    split.closed = blocks.append(text);
    split.open = blocks.openBlock();
    return split;
}

Split splitInPieces(const QString &text, qsizetype pieceSize)
{
    MarkdownBlocks blocks;
    Split split;
    for (qsizetype i = 0; i < text.size(); i += pieceSize)
        split.closed += blocks.append(QStringView(text).mid(i, pieceSize));
    split.open = blocks.openBlock();
    return split;
}

// What a rendered block looks like, as far as telling a wrong split goes.
QStringList structure(const QString &markdown)
{
    QTextDocument document;
    document.setMarkdown(markdown, QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub
                                                                   | QTextDocument::MarkdownNoHTML));
    QStringList lines;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat format = block.blockFormat();
        if (block.text().isEmpty() && !format.hasProperty(QTextFormat::BlockCodeLanguage))
            continue;
        lines.append(u"%1|h%2|code:%3|list:%4|quote:%5"_s.arg(block.text())
                         .arg(format.headingLevel())
                         .arg(format.hasProperty(QTextFormat::BlockCodeLanguage))
                         .arg(block.textList() ? block.textList()->format().indent() : 0)
                         .arg(format.intProperty(QTextFormat::BlockQuoteLevel)));
    }
    return lines;
}

// An answer with every construct the splitter has to respect.
const QString Answer = uR"(# Building the project

Run the configure step first. It needs **CMake 3.25** and a compiler
with C++20 support; see [the docs](https://example.com/docs).

## Steps

1. Install the dependencies:

   ```bash
   # Debian and Ubuntu
   sudo apt install cmake ninja-build

   # Fedora
   sudo dnf install cmake
   ```

2. Configure:
   ```
   cmake --preset debug
   ```
3. Build
lazily continued line

- a bullet
  - nested bullet

    with a second paragraph
- another bullet

> A quote that spans
lazily onto this line.
>
> ```cpp
> # not a heading
> int x = 0;
> ```

Setext Heading
--------------

| Option | Meaning |
|--------|---------|
| `-j`   | jobs    |
| `-v`   | verbose |

    indented code
    # still code

    more indented code
Paragraph after code.
~~~~python
```
# inside a tilde fence
~~~
~~~~
Text right after the fence.
***
The end.
)"_s;

} // namespace

class MarkdownBlocksTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aBlankLineClosesAParagraph();
    void headingsAreBlocksOfTheirOwnAndInterruptParagraphs();
    void aFenceStaysOneBlockUntilItsClosingLine();
    void onlyAFenceOfTheSameCharacterAndAtLeastItsLengthCloses();
    void backticksInTheInfoStringMakeACodeSpanNotAFence();
    void anUnterminatedFenceStaysOpenToTheEnd();
    void aFenceInterruptsAParagraph();
    void aListContinuesAcrossBlankLinesWhileIndentedOrAnotherItem();
    void aFenceInsideAListKeepsTheListOneBlock();
    void anUnindentedLineEndsAListWhoseItemHasAnOpenFence();
    void aLazyLineContinuesAListItem();
    void aBlankLineSeparatesTwoQuotes();
    void aFenceInsideAQuoteKeepsItsHashLines();
    void aTableIsOneBlockUntilABlankLine();
    void indentedCodeContinuesAcrossBlankLines();
    void indentedTextCannotInterruptAParagraph();
    void crlfAndCrLineBreaksBecomeLf();
    void aCrLfSplitBetweenTwoPiecesIsOneLineBreak();
    void theSplitIsTheSameHoweverTheTextArrives();
    void renderingTheBlocksApartLooksLikeRenderingTheWhole();
    void fencedCodeIsTakenApartExactly();
    void hugeLinesAndDeepNestingStayLinear();
    void clearForgetsEverything();
};

void MarkdownBlocksTest::aBlankLineClosesAParagraph()
{
    const Split split = splitWhole(u"one\ntwo\n\n\nthree"_s);
    QCOMPARE(split.closed, QStringList{u"one\ntwo\n"_s});
    QCOMPARE(split.open, u"three"_s);
}

void MarkdownBlocksTest::headingsAreBlocksOfTheirOwnAndInterruptParagraphs()
{
    MarkdownBlocks blocks;
    QCOMPARE(blocks.append(u"# Title\ntext\n## Sub\n#hashtag\n"_s),
             (QStringList{u"# Title\n"_s, u"text\n"_s, u"## Sub\n"_s}));
    QCOMPARE(blocks.openBlock(), u"#hashtag\n"_s);
    QCOMPARE(blocks.openKind(), MarkdownBlocks::Kind::Paragraph);
    QCOMPARE(blocks.closedCount(), 3);
}

void MarkdownBlocksTest::aFenceStaysOneBlockUntilItsClosingLine()
{
    MarkdownBlocks blocks;
    QVERIFY(blocks.append(u"```py\nprint(1)\n\n# comment\n"_s).isEmpty());
    QCOMPARE(blocks.openKind(), MarkdownBlocks::Kind::Fence);
    QCOMPARE(blocks.openBlock(), u"```py\nprint(1)\n\n# comment\n"_s);
    QCOMPARE(blocks.append(u"``"_s), QStringList());
    QCOMPARE(blocks.append(u"`\nafter\n"_s), QStringList{u"```py\nprint(1)\n\n# comment\n```\n"_s});
    QCOMPARE(blocks.openBlock(), u"after\n"_s);
}

void MarkdownBlocksTest::onlyAFenceOfTheSameCharacterAndAtLeastItsLengthCloses()
{
    const QString tilde = u"~~~~\n```\n~~~\nstill code\n~~~~~\n"_s;
    QCOMPARE(splitWhole(tilde + u"after"_s).closed, QStringList{tilde});
    const QString backticks = u"````md\n```\nnested\n```\n````\n"_s;
    QCOMPARE(splitWhole(backticks).closed, QStringList{backticks});
    // Indented up to three spaces still opens and closes; four is code text.
    const QString indented = u"   ```\na\n    ```\n  ```\n"_s;
    QCOMPARE(splitWhole(indented).closed, QStringList{indented});
}

void MarkdownBlocksTest::backticksInTheInfoStringMakeACodeSpanNotAFence()
{
    const Split split = splitWhole(u"```a`b```\n# heading\n"_s);
    QCOMPARE(split.closed, (QStringList{u"```a`b```\n"_s, u"# heading\n"_s}));
}

void MarkdownBlocksTest::anUnterminatedFenceStaysOpenToTheEnd()
{
    const QString text = u"intro\n\n```\ncode\n\n# x\n> y\n- z\n"_s;
    const Split split = splitWhole(text);
    QCOMPARE(split.closed, QStringList{u"intro\n"_s});
    QCOMPARE(split.open, u"```\ncode\n\n# x\n> y\n- z\n"_s);
}

void MarkdownBlocksTest::aFenceInterruptsAParagraph()
{
    const Split split = splitWhole(u"text\n```\ncode\n```\nmore\n"_s);
    QCOMPARE(split.closed, (QStringList{u"text\n"_s, u"```\ncode\n```\n"_s}));
    QCOMPARE(split.open, u"more\n"_s);
}

void MarkdownBlocksTest::aListContinuesAcrossBlankLinesWhileIndentedOrAnotherItem()
{
    const QString list = u"- a\n\n- b\n\n  more b\n\n\n3. c\n"_s;
    const Split split = splitWhole(list + u"\nafter\n"_s);
    QCOMPARE(split.closed, QStringList{list});
    QCOMPARE(split.open, u"after\n"_s);
}

void MarkdownBlocksTest::aFenceInsideAListKeepsTheListOneBlock()
{
    const QString list = u"1. step\n   ```bash\n   # comment\n\n   make\n   ```\n2. next\n"_s;
    const Split split = splitWhole(list + u"\nafter\n"_s);
    QCOMPARE(split.closed, QStringList{list});
    QCOMPARE(split.open, u"after\n"_s);
    // A fence opened on the item's own line counts too.
    const QString inline_ = u"- ```\n  # hash\n  ```\n"_s;
    QCOMPARE(splitWhole(inline_ + u"\nx\n"_s).closed, QStringList{inline_});
}

void MarkdownBlocksTest::anUnindentedLineEndsAListWhoseItemHasAnOpenFence()
{
    MarkdownBlocks blocks;
    QCOMPARE(blocks.append(u"- x\n  ```\n  code\nplain\n"_s), QStringList{u"- x\n  ```\n  code\n"_s});
    QCOMPARE(blocks.openBlock(), u"plain\n"_s);
    QCOMPARE(blocks.openKind(), MarkdownBlocks::Kind::Paragraph);
}

void MarkdownBlocksTest::aLazyLineContinuesAListItem()
{
    QCOMPARE(splitWhole(u"- item\nlazy\n\nafter\n"_s).closed, QStringList{u"- item\nlazy\n"_s});
    // A paragraph interrupted by an item becomes list-like.
    QCOMPARE(splitWhole(u"Steps:\n- one\n\n  still one\n\nafter\n"_s).closed,
             QStringList{u"Steps:\n- one\n\n  still one\n"_s});
}

void MarkdownBlocksTest::aBlankLineSeparatesTwoQuotes()
{
    const Split split = splitWhole(u"> a\nlazy\n> b\n\n> c\n"_s);
    QCOMPARE(split.closed, QStringList{u"> a\nlazy\n> b\n"_s});
    QCOMPARE(split.open, u"> c\n"_s);
    QCOMPARE(splitWhole(u"para\n> quote\n"_s).closed, QStringList{u"para\n"_s});
}

void MarkdownBlocksTest::aFenceInsideAQuoteKeepsItsHashLines()
{
    const QString quote = u"> ```\n> # x\n>\n> ```\n"_s;
    QCOMPARE(splitWhole(quote + u"\nafter"_s).closed, QStringList{quote});
    // An unquoted line ends the quote, and the fence in it.
    QCOMPARE(splitWhole(u"> ```\n> a\nb\n"_s).closed, QStringList{u"> ```\n> a\n"_s});
}

void MarkdownBlocksTest::aTableIsOneBlockUntilABlankLine()
{
    const QString table = u"| a | b |\n|---|---|\n| 1 | 2 |\n"_s;
    MarkdownBlocks blocks;
    for (const QString &row : table.split(u'\n', Qt::SkipEmptyParts))
        QVERIFY(blocks.append(QString(row + u'\n')).isEmpty());
    QCOMPARE(blocks.openBlock(), table);
    QCOMPARE(blocks.append(u"\nafter"_s), QStringList{table});
}

void MarkdownBlocksTest::indentedCodeContinuesAcrossBlankLines()
{
    const QString code = u"    a\n\n    # b\n"_s;
    const Split split = splitWhole(u"para\n\n"_s + code + u"after\n"_s);
    QCOMPARE(split.closed, (QStringList{u"para\n"_s, code}));
    QCOMPARE(split.open, u"after\n"_s);
}

void MarkdownBlocksTest::indentedTextCannotInterruptAParagraph()
{
    QCOMPARE(splitWhole(u"para\n    not code\n# h\n"_s).closed,
             (QStringList{u"para\n    not code\n"_s, u"# h\n"_s}));
}

void MarkdownBlocksTest::crlfAndCrLineBreaksBecomeLf()
{
    const Split crlf = splitWhole(u"a\r\nb\r\n\r\n```\r\nx\r\n```\r\nc"_s);
    QCOMPARE(crlf.closed, (QStringList{u"a\nb\n"_s, u"```\nx\n```\n"_s}));
    QCOMPARE(crlf.open, u"c"_s);
    const Split cr = splitWhole(u"a\rb\r\rc"_s);
    QCOMPARE(cr.closed, QStringList{u"a\nb\n"_s});
    QCOMPARE(cr.open, u"c"_s);
}

void MarkdownBlocksTest::aCrLfSplitBetweenTwoPiecesIsOneLineBreak()
{
    MarkdownBlocks blocks;
    QVERIFY(blocks.append(u"a\r"_s).isEmpty());
    QVERIFY(blocks.append(u"\nb\r"_s).isEmpty());
    QCOMPARE(blocks.openBlock(), u"a\nb\n"_s);
    QCOMPARE(blocks.append(u"\n\r"_s), QStringList{u"a\nb\n"_s});
    // A CR at the end of one piece and a CR at the start of the next are two breaks.
    QVERIFY(blocks.append(u"x\r"_s).isEmpty());
    QCOMPARE(blocks.append(u"\ry"_s), QStringList{u"x\n"_s});
    QCOMPARE(blocks.openBlock(), u"y"_s);
}

void MarkdownBlocksTest::theSplitIsTheSameHoweverTheTextArrives()
{
    const QString crlfAnswer = QString(Answer).replace(u"\n"_s, u"\r\n"_s);
    const Split whole = splitWhole(Answer);
    QCOMPARE(whole.closed.size(), 10);
    for (qsizetype piece : {1, 2, 3, 7, 64}) {
        const Split pieces = splitInPieces(Answer, piece);
        QCOMPARE(pieces.closed, whole.closed);
        QCOMPARE(pieces.open, whole.open);
        const Split crlfPieces = splitInPieces(crlfAnswer, piece);
        QCOMPARE(crlfPieces.closed, whole.closed);
        QCOMPARE(crlfPieces.open, whole.open);
    }
    // Random piece sizes, as a provider's stream delivers them.
    MarkdownBlocks blocks;
    QStringList closed;
    auto *random = QRandomGenerator::global();
    for (qsizetype i = 0; i < crlfAnswer.size();) {
        const qsizetype size = random->bounded(1, 12);
        closed += blocks.append(QStringView(crlfAnswer).mid(i, size));
        i += size;
    }
    QCOMPARE(closed, whole.closed);
    QCOMPARE(blocks.openBlock(), whole.open);
}

void MarkdownBlocksTest::renderingTheBlocksApartLooksLikeRenderingTheWhole()
{
    const Split split = splitWhole(Answer);
    QStringList apart;
    for (const QString &block : split.closed + QStringList{split.open})
        apart += structure(block);
    QCOMPARE(apart, structure(Answer));
}

void MarkdownBlocksTest::fencedCodeIsTakenApartExactly()
{
    const std::optional<FencedCode> code = FencedCode::parse(u"  ```python title=x\n  a\n    b\n\nc\n  ```\n"_s);
    QVERIFY(code);
    QCOMPARE(code->language, u"python"_s);
    QCOMPARE(code->fence.info, u"python title=x"_s);
    QVERIFY(code->closed);
    QCOMPARE(code->code(), u"a\n  b\n\nc"_s);

    const std::optional<FencedCode> open = FencedCode::parse(u"~~~\nx\n~~"_s);
    QVERIFY(open);
    QVERIFY(!open->closed);
    QCOMPARE(open->lines, (QStringList{u"x"_s, u"~~"_s}));
    QCOMPARE(FencedCode::parse(u"```\n"_s)->lines, QStringList());
    QCOMPARE(FencedCode::parse(u"```\n\n"_s)->lines, QStringList{QString()});
    QVERIFY(!FencedCode::parse(u"text\n```\n"_s));
}

void MarkdownBlocksTest::hugeLinesAndDeepNestingStayLinear()
{
    QElapsedTimer timer;
    timer.start();
    MarkdownBlocks blocks;
    const QString chunk(4096, u'x');
    for (int i = 0; i < 256; ++i) // 1 MiB without a line break
        QVERIFY(blocks.append(chunk).isEmpty());
    QCOMPARE(blocks.openBlockSize(), qsizetype(1024 * 1024));
    QCOMPARE(blocks.append(u"\n\n"_s).size(), 1);

    QString nested;
    for (int depth = 0; depth < 2000; ++depth)
        nested += QString(depth, u' ') + u"- > "_s + u"```"_s.repeated(depth % 2) + u'\n';
    blocks.append(nested);
    blocks.append(QString(QString(100000, u'>') + u"\n\n"_s));
    const QString nul = u"a"_s + QChar(u'\0') + u"\n\n"_s;
    QVERIFY(!blocks.append(nul).isEmpty());
    QVERIFY2(timer.elapsed() < 1500, qPrintable(u"took %1 ms"_s.arg(timer.elapsed())));
}

void MarkdownBlocksTest::clearForgetsEverything()
{
    MarkdownBlocks blocks;
    blocks.append(u"```\nopen fence\r"_s);
    blocks.clear();
    QCOMPARE(blocks.openBlock(), QString());
    QCOMPARE(blocks.closedCount(), 0);
    QCOMPARE(blocks.openKind(), MarkdownBlocks::Kind::None);
    QCOMPARE(blocks.append(u"\npara\n\n"_s), QStringList{u"para\n"_s});
}

QTEST_MAIN(MarkdownBlocksTest)
#include "tst_markdown_blocks.moc"
