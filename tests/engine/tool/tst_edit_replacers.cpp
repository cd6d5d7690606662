#include <QTest>

#include "engine/tool/EditReplacers.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QString lines(std::initializer_list<const char *> parts)
{
    QStringList out;
    for (const char *part : parts)
        out.append(QString::fromUtf8(part));
    return out.join(u'\n');
}

} // namespace

class EditReplacersTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void replacesAnExactUniqueMatch()
    {
        const Result<QString> result =
            EditReplacers::replace(u"old content here"_s, u"old content"_s, u"new content"_s, false);
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(*result, u"new content here"_s);
    }

    void identicalStringsAreRefused()
    {
        const Result<QString> result = EditReplacers::replace(u"abc"_s, u"b"_s, u"b"_s, false);
        QCOMPARE(result.errorMessage(), u"No changes to apply: oldString and newString are identical."_s);
    }

    void anAbsentStringIsNotFound()
    {
        const Result<QString> result = EditReplacers::replace(u"abc"_s, u"xyz"_s, u"q"_s, false);
        QCOMPARE(result.errorMessage(), u"Could not find oldString in the file. It must match exactly, including "
                                        "whitespace, indentation, and line endings."_s);
    }

    void twoOccurrencesWithoutReplaceAllAreAmbiguous()
    {
        const Result<QString> result = EditReplacers::replace(u"foo\nbar\nfoo\n"_s, u"foo"_s, u"baz"_s, false);
        QCOMPARE(result.errorMessage(), u"Found multiple matches for oldString. Provide more surrounding context "
                                        "to make the match unique."_s);
    }

    void replaceAllChangesEveryOccurrence()
    {
        const Result<QString> result = EditReplacers::replace(u"foo bar foo baz foo"_s, u"foo"_s, u"qux"_s, true);
        QCOMPARE(*result, u"qux bar qux baz qux"_s);
    }

    void replaceAllTakesDollarSignsLiterally()
    {
        // JavaScript's replaceAll would expand "$&"; a file must get what
        // the model wrote.
        const Result<QString> result = EditReplacers::replace(u"a b a"_s, u"a"_s, u"$&x"_s, true);
        QCOMPARE(*result, u"$&x b $&x"_s);
    }

    void replacesAMultilineBlock()
    {
        const QString content = lines({"int main() {", "    return 0;", "}", ""});
        const Result<QString> result = EditReplacers::replace(content, u"    return 0;\n}"_s, u"    return 1;\n}"_s, false);
        QCOMPARE(*result, lines({"int main() {", "    return 1;", "}", ""}));
    }

    void lineTrimmedMatchesIgnoringIndentation()
    {
        const QString content = lines({"def f():", "    foo()", "    bar()"});
        QCOMPARE(EditReplacers::lineTrimmed(content, u"foo()"_s), QStringList{u"    foo()"_s});
        // The exact substring wins first; the indentation stays the file's.
        const Result<QString> result = EditReplacers::replace(content, u"foo()"_s, u"baz()"_s, false);
        QCOMPARE(*result, lines({"def f():", "    baz()", "    bar()"}));
        // A multi-line search with other indentation is matched line by line.
        const Result<QString> block = EditReplacers::replace(content, u"foo()\n  bar()"_s, u"x()"_s, false);
        QCOMPARE(*block, lines({"def f():", "x()"}));
    }

    void lineTrimmedIgnoresATrailingEmptyLineOfTheSearch()
    {
        const QString content = lines({"a", "  b  ", "c"});
        QCOMPARE(EditReplacers::lineTrimmed(content, u"b\nc\n"_s), QStringList{u"  b  \nc"_s});
    }

    void blockAnchorAcceptsALoneCandidateWhateverItsMiddle()
    {
        const QString content = lines({"start", "completely different", "end", "tail"});
        const QString find = lines({"start", "something else entirely", "end"});
        QCOMPARE(EditReplacers::blockAnchor(content, find), QStringList{lines({"start", "completely different", "end"})});
    }

    void blockAnchorNeedsThreeLines()
    {
        QVERIFY(EditReplacers::blockAnchor(u"start\nend"_s, u"start\nend"_s).isEmpty());
    }

    void blockAnchorPicksTheMostSimilarOfSeveralCandidates()
    {
        const QString content =
            lines({"if (x) {", "    return alpha;", "}", "if (x) {", "    return betaa;", "}"});
        const QString find = lines({"if (x) {", "    return beta;", "}"});
        // Only the anchors decide the candidates; the middle line picks.
        QCOMPARE(EditReplacers::blockAnchor(content, find), QStringList{lines({"if (x) {", "    return betaa;", "}"})});
    }

    void blockAnchorRefusesCandidatesBelowTheThreshold()
    {
        const QString content = lines({"{", "aaaaaaaaaa", "}", "{", "bbbbbbbbbb", "}"});
        const QString find = lines({"{", "zzzzzzzzzz", "}"});
        QVERIFY(EditReplacers::blockAnchor(content, find).isEmpty());
        QVERIFY(EditReplacers::MultipleCandidatesSimilarityThreshold > 0.0);
    }

    void whitespaceNormalizedFindsTextWithOtherSpacing()
    {
        const QString content = lines({"int  x =   1;", "y"});
        QCOMPARE(EditReplacers::whitespaceNormalized(content, u"int x = 1;"_s), QStringList{u"int  x =   1;"_s});
        // Inside a longer line, the line's own spelling is recovered.
        const QStringList inner = EditReplacers::whitespaceNormalized(u"call(a,   b) + 1"_s, u"a, b"_s);
        QCOMPARE(inner, QStringList{u"a,   b"_s});
    }

    void indentationFlexibleMatchesABlockIndentedDifferently()
    {
        const QString content = lines({"class A {", "    void f() {", "        g();", "    }", "}"});
        const QString find = lines({"void f() {", "    g();", "}"});
        QCOMPARE(EditReplacers::indentationFlexible(content, find),
                 QStringList{lines({"    void f() {", "        g();", "    }"})});
        const Result<QString> result = EditReplacers::replace(content, find, lines({"void h() {", "}"}), false);
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
    }

    void escapeNormalizedUnescapesTheModelsText()
    {
        const QString content = lines({"print(\"a\")", "next"});
        // Found directly, and again as the two-line block it unescapes to.
        QCOMPARE(EditReplacers::escapeNormalized(content, u"print(\\\"a\\\")\\nnext"_s),
                 (QStringList{u"print(\"a\")\nnext"_s, u"print(\"a\")\nnext"_s}));
        const Result<QString> result = EditReplacers::replace(content, u"print(\\\"a\\\")"_s, u"print(1)"_s, false);
        QCOMPARE(*result, lines({"print(1)", "next"}));
    }

    void trimmedBoundaryIgnoresSurroundingBlanks()
    {
        QVERIFY(EditReplacers::trimmedBoundary(u"abc"_s, u"abc"_s).isEmpty());
        QCOMPARE(EditReplacers::trimmedBoundary(u"x abc y"_s, u"  abc \n"_s), QStringList{u"abc"_s});
    }

    void contextAwareNeedsHalfOfTheMiddleToMatch()
    {
        const QString content = lines({"fn a() {", "  one", "  two", "  three", "}"});
        const QString halfRight = lines({"fn a() {", "  one", "  TWO", "  three", "}"});
        QCOMPARE(EditReplacers::contextAware(content, halfRight), QStringList{content});
        const QString mostlyWrong = lines({"fn a() {", "  uno", "  dos", "  three", "}"});
        QVERIFY(EditReplacers::contextAware(content, mostlyWrong).isEmpty());
        const QString otherLength = lines({"fn a() {", "  one", "}"});
        QVERIFY(EditReplacers::contextAware(content, otherLength).isEmpty());
    }

    void multiOccurrenceYieldsEachExactOccurrence()
    {
        QCOMPARE(EditReplacers::multiOccurrence(u"ab ab ab"_s, u"ab"_s), (QStringList{u"ab"_s, u"ab"_s, u"ab"_s}));
        QVERIFY(EditReplacers::multiOccurrence(u"ab"_s, QString()).isEmpty());
    }

    void aLooseMatchThatOccursTwiceIsAmbiguous()
    {
        const QString content = lines({"  foo()", "x", "  foo()"});
        const Result<QString> result = EditReplacers::replace(content, u"foo()"_s, u"bar()"_s, false);
        QVERIFY(result.errorMessage().startsWith(u"Found multiple matches"_s));
    }

    void whitespaceOnlySearchNeverMatchesEverywhere()
    {
        // Trimmed proposals can be empty; an empty string must not be
        // "found" between every character.
        const Result<QString> result = EditReplacers::replace(u"abc"_s, u"   "_s, u"x"_s, true);
        QVERIFY(!result.ok());
    }

    void levenshteinCountsEdits()
    {
        QCOMPARE(EditReplacers::levenshtein(u"kitten"_s, u"sitting"_s), 3);
        QCOMPARE(EditReplacers::levenshtein(QString(), u"abc"_s), 3);
        QCOMPARE(EditReplacers::levenshtein(u"same"_s, u"same"_s), 0);
    }
};

QTEST_GUILESS_MAIN(EditReplacersTest)
#include "tst_edit_replacers.moc"
