// IgnoreRules: gitignore(5) patterns, and the precedence ripgrep gives the
// ignore files it honours, for the in-process search.

#include <QtTest>

#include <QDir>

#include "TempTree.h"
#include "engine/glob/IgnoreRules.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class IgnoreRulesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void patternsMatchAsGitignoreSays_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("matches");
        QTest::newRow("name anywhere") << u"*.log"_s << u"x/y/a.log"_s << true;
        QTest::newRow("name at top") << u"*.log"_s << u"a.log"_s << true;
        QTest::newRow("not a suffix") << u"*.log"_s << u"a.logx"_s << false;
        QTest::newRow("star stays in folder") << u"src/*.c"_s << u"src/a/b.c"_s << false;
        QTest::newRow("anchored by slash") << u"/root.txt"_s << u"root.txt"_s << true;
        QTest::newRow("anchored not deeper") << u"/root.txt"_s << u"sub/root.txt"_s << false;
        QTest::newRow("inner slash anchors") << u"doc/frotz"_s << u"a/doc/frotz"_s << false;
        QTest::newRow("double star none") << u"sub/**/x.txt"_s << u"sub/x.txt"_s << true;
        QTest::newRow("double star many") << u"sub/**/x.txt"_s << u"sub/a/b/x.txt"_s << true;
        QTest::newRow("leading double star") << u"**/bar"_s << u"a/b/bar"_s << true;
        QTest::newRow("trailing double star") << u"foo/**"_s << u"foo/x/y"_s << true;
        QTest::newRow("trailing double star not itself") << u"foo/**"_s << u"foo"_s << false;
        QTest::newRow("question mark") << u"a?c"_s << u"abc"_s << true;
        QTest::newRow("question mark no slash") << u"a?c"_s << u"a/c"_s << false;
        QTest::newRow("class") << u"[ab].txt"_s << u"b.txt"_s << true;
        QTest::newRow("negated class") << u"[!ab].txt"_s << u"b.txt"_s << false;
        QTest::newRow("negated class other") << u"[!ab].txt"_s << u"c.txt"_s << true;
        QTest::newRow("escaped hash") << u"\\#notes"_s << u"#notes"_s << true;
        QTest::newRow("trailing spaces") << u"x.txt   "_s << u"x.txt"_s << true;
        QTest::newRow("crlf line") << u"x.txt\r"_s << u"x.txt"_s << true;
        QTest::newRow("regex specials are literal") << u"a+(b).txt"_s << u"a+(b).txt"_s << true;
    }

    void patternsMatchAsGitignoreSays()
    {
        QFETCH(QString, line);
        QFETCH(QString, path);
        QFETCH(bool, matches);
        const IgnoreRules::Pattern pattern = IgnoreRules::compile(line);
        QVERIFY(pattern.ok);
        QCOMPARE(pattern.regex.match(path).hasMatch(), matches);
    }

    void blankLinesAndCommentsAreNoPatterns()
    {
        for (const QString &line : {u""_s, u"   "_s, u"# a comment"_s, u"!"_s, u"/"_s})
            QVERIFY2(!IgnoreRules::compile(line).ok, qPrintable(line));
        QVERIFY(IgnoreRules::compile(u"!keep.log"_s).negated);
        QVERIFY(IgnoreRules::compile(u"build/"_s).directoryOnly);
    }

    void gitignoreCountsOnlyInsideARepository()
    {
        test::TempTree tree;
        QVERIFY(tree.write(u"plain/.gitignore"_s, "*.log\n"));
        QVERIFY(tree.write(u"plain/.ignore"_s, "*.tmp\n"));
        const IgnoreRules plain = IgnoreRules::forSearchRoot(tree.path(u"plain"_s), {});
        QVERIFY(!plain.isIgnored(tree.path(u"plain/a.log"_s), false));
        QVERIFY(plain.isIgnored(tree.path(u"plain/a.tmp"_s), false));

        QVERIFY(tree.write(u"repo/.git/HEAD"_s, "ref: refs/heads/main\n"));
        QVERIFY(tree.write(u"repo/.gitignore"_s, "*.log\n!keep.log\nbuild/\n"));
        QVERIFY(tree.write(u"repo/.git/info/exclude"_s, "secret.txt\n"));
        QVERIFY(tree.write(u"global-ignore"_s, "*.swp\n"));
        const IgnoreRules repo = IgnoreRules::forSearchRoot(tree.path(u"repo"_s), tree.path(u"global-ignore"_s));
        QVERIFY(repo.isIgnored(tree.path(u"repo/a.log"_s), false));
        QVERIFY(!repo.isIgnored(tree.path(u"repo/keep.log"_s), false));
        QVERIFY(repo.isIgnored(tree.path(u"repo/build"_s), true));
        QVERIFY(!repo.isIgnored(tree.path(u"repo/build"_s), false)); // a file named build
        QVERIFY(repo.isIgnored(tree.path(u"repo/secret.txt"_s), false));
        QVERIFY(repo.isIgnored(tree.path(u"repo/x.swp"_s), false));
    }

    void deeperFilesAndRgignoreWin()
    {
        test::TempTree tree;
        QVERIFY(tree.write(u"repo/.git/HEAD"_s, "ref: refs/heads/main\n"));
        QVERIFY(tree.write(u"repo/.gitignore"_s, "*.gen\n"));
        QVERIFY(tree.write(u"repo/sub/.gitignore"_s, "!wanted.gen\n"));
        QVERIFY(tree.write(u"repo/sub/.ignore"_s, "other.gen\n"));
        QVERIFY(tree.write(u"repo/sub/.rgignore"_s, "!other.gen\n"));
        const IgnoreRules top = IgnoreRules::forSearchRoot(tree.path(u"repo"_s), {});
        const IgnoreRules sub = top.enter(tree.path(u"repo/sub"_s));
        QVERIFY(sub.isIgnored(tree.path(u"repo/sub/x.gen"_s), false));
        QVERIFY(!sub.isIgnored(tree.path(u"repo/sub/wanted.gen"_s), false));
        QVERIFY(!sub.isIgnored(tree.path(u"repo/sub/other.gen"_s), false));
        // The parent's rules are unchanged by entering.
        QVERIFY(top.isIgnored(tree.path(u"repo/sub/wanted.gen"_s), false));
    }

    void aSearchBelowTheTopReadsTheParentsFiles()
    {
        test::TempTree tree;
        QVERIFY(tree.write(u"repo/.git/HEAD"_s, "ref: refs/heads/main\n"));
        QVERIFY(tree.write(u"repo/.gitignore"_s, "/src/generated/\n*.o\n"));
        const IgnoreRules rules = IgnoreRules::forSearchRoot(tree.path(u"repo/src"_s), {});
        QVERIFY(rules.isIgnored(tree.path(u"repo/src/generated"_s), true));
        QVERIFY(rules.isIgnored(tree.path(u"repo/src/a.o"_s), false));
        QVERIFY(!rules.isIgnored(tree.path(u"repo/src/a.c"_s), false));
    }
};

QTEST_GUILESS_MAIN(IgnoreRulesTest)
#include "tst_ignore_rules.moc"
