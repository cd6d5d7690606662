#include <QTest>

#include "engine/glob/Wildcard.h"

using namespace Qt::StringLiterals;
using namespace qcode;

// OpenCode's permission wildcard: its test/util/wildcard.test.ts
// (reference §12.1).
class TestWildcard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void questionMarkMatchesExactlyOneCharacter()
    {
        QVERIFY(Wildcard::match(u"file1.txt"_s, u"file?.txt"_s));
        QVERIFY(!Wildcard::match(u"file12.txt"_s, u"file?.txt"_s));
    }

    void regexCharactersAreLiteral()
    {
        QVERIFY(Wildcard::match(u"foo+bar"_s, u"foo+bar"_s));
        QVERIFY(!Wildcard::match(u"foooobar"_s, u"foo+bar"_s));
        QVERIFY(Wildcard::match(u"a(b)[c]{d}^$|.e"_s, u"a(b)[c]{d}^$|.e"_s));
    }

    void aTrailingSpaceStarAlsoMatchesTheBareCommand()
    {
        QVERIFY(Wildcard::match(u"ls"_s, u"ls *"_s));
        QVERIFY(Wildcard::match(u"ls -la"_s, u"ls *"_s));
        QVERIFY(Wildcard::match(u"ls foo bar"_s, u"ls *"_s));
        QVERIFY(!Wildcard::match(u"lstmeval"_s, u"ls *"_s));
        QVERIFY(Wildcard::match(u"ls"_s, u"ls*"_s));
        QVERIFY(Wildcard::match(u"lstmeval"_s, u"ls*"_s));
        for (const QString &command : {u"git"_s, u"git status"_s, u"git commit -m foo"_s})
            QVERIFY(Wildcard::match(command, u"git *"_s));
        QVERIFY(Wildcard::match(u"rm -rf"_s, u"rm -rf *"_s));
        QVERIFY(Wildcard::match(u"rm -rf build"_s, u"rm -rf *"_s));
    }

    void starMatchesAcrossSlashesIn12()
    {
        // OpenCode 1.2: "*" is ".*", so "*.env" matches a nested .env too.
        QVERIFY(Wildcard::match(u"src/.env"_s, u"*.env"_s));
        QVERIFY(Wildcard::match(u"/a/b/c.txt"_s, u"/a/*"_s));
        QVERIFY(!Wildcard::match(u"/a"_s, u"/a/*"_s));
    }

    void backslashesCountAsSlashes()
    {
        QVERIFY(Wildcard::match(u"C:\\Windows\\System32\\cmd.exe"_s, u"C:/Windows/System32/*"_s));
        QVERIFY(Wildcard::match(u"C:/Windows/System32/cmd.exe"_s, u"C:\\Windows\\System32\\*"_s));
    }

    void matchingIsCaseSensitiveAndWhole()
    {
        QVERIFY(!Wildcard::match(u"README.md"_s, u"readme.md"_s));
        QVERIFY(!Wildcard::match(u"xREADME.md"_s, u"README.md"_s));
        QVERIFY(Wildcard::match(u"line1\nline2"_s, u"line1*"_s)); // "." matches newlines
    }

    // --- fromConfig --------------------------------------------------------
};

QTEST_GUILESS_MAIN(TestWildcard)
#include "tst_wildcard.moc"
