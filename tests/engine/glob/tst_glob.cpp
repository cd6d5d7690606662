#include <QTest>

#include "TempTree.h"
#include "engine/glob/Glob.h"

using namespace Qt::StringLiterals;
using namespace qcode;

// Bun.Glob's syntax, as config `instructions` use it.
class TestGlob : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wildcardsAreStarQuestionClassAndBraces()
    {
        QVERIFY(Glob::hasWildcard(u"*.md"_s));
        QVERIFY(Glob::hasWildcard(u"file?.md"_s));
        QVERIFY(Glob::hasWildcard(u"[ab].md"_s));
        QVERIFY(Glob::hasWildcard(u"{a,b}.md"_s));
        QVERIFY(!Glob::hasWildcard(u"docs/AGENTS.md"_s));
    }

    void aSegmentMatchesAWholeName()
    {
        QVERIFY(Glob::segmentExpression(u"*.md"_s).match(u"RULES.md"_s).hasMatch());
        QVERIFY(!Glob::segmentExpression(u"*.md"_s).match(u"RULES.md.bak"_s).hasMatch());
        QVERIFY(Glob::segmentExpression(u"file?.[!x]"_s).match(u"file1.c"_s).hasMatch());
        QVERIFY(!Glob::segmentExpression(u"file?.[!x]"_s).match(u"file1.x"_s).hasMatch());
        QVERIFY(Glob::segmentExpression(u"{a,b}+.md"_s).match(u"b+.md"_s).hasMatch());
        QVERIFY(!Glob::segmentExpression(u"{a,b}+.md"_s).match(u"bb.md"_s).hasMatch());
    }

    void findFilesWalksDoubleStarsAndSkipsDotNamesUnlessAsked()
    {
        const test::TempTree tree;
        QVERIFY(tree.write(u"RULES.md"_s, "x"));
        QVERIFY(tree.write(u"docs/a.md"_s, "x"));
        QVERIFY(tree.write(u"docs/deep/RULES.md"_s, "x"));
        QVERIFY(tree.write(u".hidden/RULES.md"_s, "x"));
        QVERIFY(tree.write(u"docs/.b.md"_s, "x"));
        QCOMPARE(Glob::findFiles(tree.root(), u"**/RULES.md"_s),
                 QStringList({tree.path(u"RULES.md"_s), tree.path(u"docs/deep/RULES.md"_s)}));
        QCOMPARE(Glob::findFiles(tree.root(), u"docs/*.md"_s), QStringList({tree.path(u"docs/a.md"_s)}));
        QCOMPARE(Glob::findFiles(tree.root(), u"docs/.*.md"_s), QStringList({tree.path(u"docs/.b.md"_s)}));
        QCOMPARE(Glob::findFiles(tree.root(), u".hidden/RULES.md"_s), QStringList({tree.path(u".hidden/RULES.md"_s)}));
        QVERIFY(Glob::findFiles(tree.root(), u"missing/*.md"_s).isEmpty());
    }

    void aDoubleStarWalkStopsAtItsFolderBudget()
    {
        const test::TempTree tree;
        QVERIFY(tree.write(u"a/b/c/d/RULES.md"_s, "x"));
        QVERIFY(Glob::findFiles(tree.root(), u"**/RULES.md"_s, 2).isEmpty());
        QCOMPARE(Glob::findFiles(tree.root(), u"**/RULES.md"_s).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestGlob)
#include "tst_glob.moc"
