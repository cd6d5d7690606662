#include <QTest>

#include <algorithm>

#include "ui/prompt/FuzzyMatcher.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class FuzzyMatcherTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesASubsequenceOnly();
    void anEmptyQueryMatchesEverything();
    void lowerCaseQueriesIgnoreCase();
    void aCapitalMakesTheQueryCaseSensitive();
    void reportsTheMatchedPositions();
    void wordStartsBeatMidWordMatches();
    void camelCaseHumpsCountAsWordStarts();
    void matchesAfterPathSeparatorsBeatOthers();
    void consecutiveRunsBeatScatteredMatches();
    void theBestAlignmentIsFoundNotTheFirst();
    void equalScoresRankTheShorterPathFirst();
    void everyWordOfTheQueryMustMatch();
    void ranksAFileListAsAPersonExpects();
};

namespace {

int score(const QString &query, const QString &text)
{
    const auto match = FuzzyMatcher(query).match(text);
    return match ? match->score : -1;
}

QStringList ranked(const QString &query, QStringList texts)
{
    const FuzzyMatcher matcher(query);
    texts.erase(std::remove_if(texts.begin(), texts.end(), [&](const QString &t) { return !matcher.match(t); }),
                texts.end());
    std::sort(texts.begin(), texts.end(), [&](const QString &a, const QString &b) {
        return FuzzyMatcher::ranksBefore(*matcher.match(a), a, *matcher.match(b), b);
    });
    return texts;
}

} // namespace

void FuzzyMatcherTest::matchesASubsequenceOnly()
{
    QVERIFY(FuzzyMatcher(u"abc"_s).match(u"a-b-c"_s));
    QVERIFY(!FuzzyMatcher(u"abc"_s).match(u"acb"_s));
    QVERIFY(!FuzzyMatcher(u"abcd"_s).match(u"abc"_s));
    QVERIFY(!FuzzyMatcher(u"x"_s).match(QString()));
}

void FuzzyMatcherTest::anEmptyQueryMatchesEverything()
{
    const auto match = FuzzyMatcher(u"  "_s).match(u"anything"_s);
    QVERIFY(match);
    QCOMPARE(match->score, 0);
    QVERIFY(match->positions.isEmpty());
}

void FuzzyMatcherTest::lowerCaseQueriesIgnoreCase()
{
    QVERIFY(!FuzzyMatcher(u"readme"_s).isCaseSensitive());
    QVERIFY(FuzzyMatcher(u"readme"_s).match(u"README.md"_s));
    QVERIFY(FuzzyMatcher(u"größe"_s).match(u"GRÖSSE-größe"_s));
}

void FuzzyMatcherTest::aCapitalMakesTheQueryCaseSensitive()
{
    QVERIFY(FuzzyMatcher(u"Read"_s).isCaseSensitive());
    QVERIFY(FuzzyMatcher(u"Read"_s).match(u"Readme.md"_s));
    QVERIFY(!FuzzyMatcher(u"Read"_s).match(u"README.md"_s));
    QVERIFY(!FuzzyMatcher(u"Read"_s).match(u"readme.md"_s));
}

void FuzzyMatcherTest::reportsTheMatchedPositions()
{
    const auto match = FuzzyMatcher(u"pb"_s).match(u"src/PromptBox.cpp"_s);
    QVERIFY(match);
    QCOMPARE(match->positions, (QList<int>{4, 10}));
}

void FuzzyMatcherTest::wordStartsBeatMidWordMatches()
{
    QVERIFY(score(u"fb"_s, u"foo_bar"_s) > score(u"fb"_s, u"xfoxbx"_s));
    QVERIFY(score(u"pb"_s, u"prompt-box"_s) > score(u"pb"_s, u"dropbear"_s));
}

void FuzzyMatcherTest::camelCaseHumpsCountAsWordStarts()
{
    QVERIFY(score(u"pb"_s, u"PromptBox"_s) > score(u"pb"_s, u"dropbear"_s));
    QVERIFY(score(u"fm"_s, u"FuzzyMatcher"_s) > score(u"fm"_s, u"foamy"_s));
}

void FuzzyMatcherTest::matchesAfterPathSeparatorsBeatOthers()
{
    QVERIFY(score(u"uip"_s, u"src/ui/prompt"_s) > score(u"uip"_s, u"src/quip.cpp"_s));
    // A separator counts a little more than a word break.
    QVERIFY(score(u"b"_s, u"a/b"_s) > score(u"b"_s, u"a_b"_s));
}

void FuzzyMatcherTest::consecutiveRunsBeatScatteredMatches()
{
    QVERIFY(score(u"abc"_s, u"xabcxx"_s) > score(u"abc"_s, u"xaxbxc"_s));
    QVERIFY(score(u"edit"_s, u"PromptEditor.h"_s) > score(u"edit"_s, u"engine/data/items"_s));
}

void FuzzyMatcherTest::theBestAlignmentIsFoundNotTheFirst()
{
    // A greedy match would take the "ma" before the slash; the best one is
    // the run "main" after it.
    const auto match = FuzzyMatcher(u"main"_s).match(u"ma/main.cpp"_s);
    QVERIFY(match);
    QCOMPARE(match->positions, (QList<int>{3, 4, 5, 6}));
}

void FuzzyMatcherTest::equalScoresRankTheShorterPathFirst()
{
    QCOMPARE(score(u"main"_s, u"a/main.cpp"_s), score(u"main"_s, u"a/b/main.cpp"_s));
    QCOMPARE(ranked(u"main"_s, {u"a/b/main.cpp"_s, u"a/main.cpp"_s}), (QStringList{u"a/main.cpp"_s, u"a/b/main.cpp"_s}));
}

void FuzzyMatcherTest::everyWordOfTheQueryMustMatch()
{
    QVERIFY(FuzzyMatcher(u"claude sonnet"_s).match(u"Claude Sonnet 4.5 anthropic/claude-sonnet-4-5"_s));
    QVERIFY(!FuzzyMatcher(u"claude opus"_s).match(u"Claude Sonnet 4.5"_s));
}

void FuzzyMatcherTest::ranksAFileListAsAPersonExpects()
{
    const QStringList files{u"src/engine/session/PromptLoop.cpp"_s, u"docs/problem-report.md"_s,
                            u"src/ui/prompt/PromptBox.cpp"_s, u"src/ui/prompt/PromptBox.h"_s,
                            u"tests/ui/prompt/tst_prompt_box.cpp"_s, u"build/debug/deps/pbx.o"_s};
    const QStringList order = ranked(u"promptbox"_s, files);
    QCOMPARE(order.mid(0, 2), (QStringList{u"src/ui/prompt/PromptBox.h"_s, u"src/ui/prompt/PromptBox.cpp"_s}));
    QVERIFY(order.contains(u"tests/ui/prompt/tst_prompt_box.cpp"_s));
    QVERIFY(!order.contains(u"build/debug/deps/pbx.o"_s));
}

QTEST_GUILESS_MAIN(FuzzyMatcherTest)
#include "tst_fuzzy_matcher.moc"
