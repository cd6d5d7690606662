#include <QRandomGenerator>
#include <QTest>

#include "engine/tool/BashCommandPatterns.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QStringList words(const char *text)
{
    return QString::fromUtf8(text).split(u' ', Qt::SkipEmptyParts);
}

QStringList texts(const QString &script)
{
    QStringList out;
    for (const BashCommandPatterns::Command &command : BashCommandPatterns::split(script))
        out.append(command.text);
    return out;
}

} // namespace

class BashCommandPatternsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Reference §12.3 (OpenCode's arity tests).
    void arityPrefixes_data()
    {
        QTest::addColumn<QStringList>("tokens");
        QTest::addColumn<QStringList>("prefix");
        QTest::newRow("unknown") << words("unknown command subcommand") << words("unknown");
        QTest::newRow("touch") << words("touch foo.txt") << words("touch");
        QTest::newRow("git") << words("git checkout main") << words("git checkout");
        QTest::newRow("docker") << words("docker run nginx") << words("docker run");
        QTest::newRow("aws") << words("aws s3 ls my-bucket") << words("aws s3 ls");
        QTest::newRow("npm run") << words("npm run dev script") << words("npm run dev");
        QTest::newRow("docker compose") << words("docker compose up service") << words("docker compose up");
        QTest::newRow("consul kv") << words("consul kv get config") << words("consul kv get");
        QTest::newRow("exact length") << words("npm run dev") << words("npm run dev");
        QTest::newRow("shorter than arity") << words("git") << words("git");
        QTest::newRow("empty") << QStringList() << QStringList();
        QTest::newRow("single") << words("single") << words("single");
    }

    void arityPrefixes()
    {
        QFETCH(QStringList, tokens);
        QFETCH(QStringList, prefix);
        QCOMPARE(BashCommandPatterns::arityPrefix(tokens), prefix);
    }

    void alwaysPatterns()
    {
        QCOMPARE(BashCommandPatterns::alwaysPattern(words("echo hi")), u"echo *"_s);
        QCOMPARE(BashCommandPatterns::alwaysPattern(words("git checkout main")), u"git checkout *"_s);
        QCOMPARE(BashCommandPatterns::alwaysPattern(words("npm run dev x")), u"npm run dev *"_s);
        QCOMPARE(BashCommandPatterns::alwaysPattern(words("python script.py")), u"python script.py *"_s);
    }

    void splitsListsAndPipelines()
    {
        QCOMPARE(texts(u"git checkout main && npm run dev"_s), (QStringList{u"git checkout main"_s, u"npm run dev"_s}));
        QCOMPARE(texts(u"a; b || c | d |& e & f\ng"_s),
                 (QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"f"_s, u"g"_s}));
        QCOMPARE(texts(u"   "_s), QStringList());
    }

    void tokensKeepQuotesAndSkipRedirectionsAndAssignments()
    {
        const QList<BashCommandPatterns::Command> commands =
            BashCommandPatterns::split(u"FOO=1 grep -r \"a b\" 'c d' src 2>&1 > out.txt"_s);
        QCOMPARE(commands.size(), 1);
        QCOMPARE(commands[0].text, u"FOO=1 grep -r \"a b\" 'c d' src 2>&1 > out.txt"_s);
        QCOMPARE(commands[0].tokens, (QStringList{u"grep"_s, u"-r"_s, u"\"a b\""_s, u"'c d'"_s, u"src"_s}));
    }

    void quotedSeparatorsDoNotSplit()
    {
        QCOMPARE(texts(u"echo 'a && b' \"c; d\" e\\;f"_s), QStringList{u"echo 'a && b' \"c; d\" e\\;f"_s});
    }

    void substitutionsAreCommandsToo()
    {
        QCOMPARE(texts(u"echo $(rm -rf x) `ls` \"$(whoami)\""_s),
                 (QStringList{u"echo $(rm -rf x) `ls` \"$(whoami)\""_s, u"rm -rf x"_s, u"ls"_s, u"whoami"_s}));
        // A lone expansion is not a word of the command; a string is.
        const QList<BashCommandPatterns::Command> commands = BashCommandPatterns::split(u"rm $FILE \"$x\" $(pwd)/y"_s);
        QCOMPARE(commands.first().tokens, (QStringList{u"rm"_s, u"\"$x\""_s, u"$(pwd)/y"_s}));
        QCOMPARE(texts(u"echo $((1 + 2)) ${HOME}"_s), QStringList{u"echo $((1 + 2)) ${HOME}"_s});
    }

    void subshellsGroupsAndProcessSubstitution()
    {
        QCOMPARE(texts(u"(cd /tmp && ls) ; { make; }"_s),
                 (QStringList{u"cd /tmp"_s, u"ls"_s, u"make"_s}));
        QCOMPARE(texts(u"diff <(sort a) <(sort b)"_s),
                 (QStringList{u"diff <(sort a) <(sort b)"_s, u"sort a"_s, u"sort b"_s}));
    }

    void controlStructuresYieldTheirCommands()
    {
        QCOMPARE(texts(u"if [ -f x ]; then rm x; else touch x; fi"_s), (QStringList{u"rm x"_s, u"touch x"_s}));
        QCOMPARE(texts(u"for f in *.txt; do cat \"$f\"; done"_s), QStringList{u"cat \"$f\""_s});
        QCOMPARE(texts(u"while read l; do echo $l; done < list"_s), (QStringList{u"read l"_s, u"echo $l"_s}));
        QCOMPARE(texts(u"[[ -n $x && -d y ]] && ls"_s), QStringList{u"ls"_s});
        QCOMPARE(texts(u"case $1 in a) ls;; (b|c) rm y;; esac; pwd"_s),
                 (QStringList{u"ls"_s, u"rm y"_s, u"pwd"_s}));
        QCOMPARE(texts(u"f() { git status; }; function g { make; }"_s), (QStringList{u"git status"_s, u"make"_s}));
        QCOMPARE(texts(u"! grep -q x f"_s), QStringList{u"grep -q x f"_s});
        QCOMPARE(texts(u"(( i++ )) && echo ok"_s), QStringList{u"echo ok"_s});
    }

    void declarationsAndAssignmentsAreNotCommands()
    {
        QCOMPARE(texts(u"export A=1; X=2; local y; unset Z"_s), QStringList());
        QCOMPARE(texts(u"export A=$(date)"_s), QStringList{u"date"_s});
    }

    void commentsAndHereDocsAreSkipped()
    {
        QCOMPARE(texts(u"ls # rm -rf /\necho done"_s), (QStringList{u"ls"_s, u"echo done"_s}));
        QCOMPARE(texts(u"cat <<'EOF' > f.txt\nrm -rf /\nEOF\nls"_s), (QStringList{u"cat <<'EOF' > f.txt"_s, u"ls"_s}));
        QCOMPARE(texts(u"cat <<-END\n\trm x\n\tEND\npwd"_s), (QStringList{u"cat <<-END"_s, u"pwd"_s}));
    }

    void lineContinuationsJoinACommand()
    {
        QCOMPARE(BashCommandPatterns::split(u"ls \\\n  -la"_s).first().tokens, (QStringList{u"ls"_s, u"-la"_s}));
    }

    void anyInputEndsWithoutCrashing()
    {
        // Unbalanced quotes, brackets and here-docs must end the scan, not
        // loop; the answer for nonsense only has to be some list.
        const QString alphabet = u"ab ;&|()<>'\"$`\\\n#{}[]=-!*"_s;
        QRandomGenerator random(7);
        for (int round = 0; round < 3000; ++round) {
            QString script;
            const int length = random.bounded(1, 60);
            for (int k = 0; k < length; ++k)
                script.append(alphabet.at(random.bounded(alphabet.size())));
            const QList<BashCommandPatterns::Command> commands = BashCommandPatterns::split(script);
            for (const BashCommandPatterns::Command &command : commands)
                QVERIFY2(!command.tokens.isEmpty(), qPrintable(script));
        }
        QCOMPARE(texts(u"echo \"unterminated"_s), QStringList{u"echo \"unterminated"_s});
        QCOMPARE(texts(u"cat <<EOF\nno end"_s), QStringList{u"cat <<EOF"_s});
    }

    void deepNestingIsCutOffNotFollowedForever()
    {
        QString deep;
        for (int k = 0; k < 100000; ++k)
            deep += u"$("_s;
        const QList<BashCommandPatterns::Command> commands = BashCommandPatterns::split(u"ls; echo "_s + deep);
        QVERIFY(!commands.isEmpty());
        QCOMPARE(commands.first().text, u"ls"_s);
    }

    void redirectTargetsAreTheFilesRedirectedToOrFrom()
    {
        QCOMPARE(BashCommandPatterns::redirectTargets(
                     u"echo a > b 2>&1 >> 'c d' < in &> all $(cat < nested) <<EOF > after\nbody\nEOF\n"_s),
                 (QStringList{u"b"_s, u"c d"_s, u"in"_s, u"all"_s, u"nested"_s, u"after"_s}));
        QCOMPARE(BashCommandPatterns::redirectTargets(u"> \"$OUT\" ; ls 2>/dev/null"_s), QStringList{u"/dev/null"_s});
    }

    void pathArgumentsOfTheCommandsThatTouchFiles()
    {
        const auto paths = [](const QString &script) {
            return BashCommandPatterns::pathArguments(BashCommandPatterns::split(script).first());
        };
        QCOMPARE(paths(u"rm -rf ../x 'a b'"_s), (QStringList{u"../x"_s, u"a b"_s}));
        QCOMPARE(paths(u"chmod +x run.sh"_s), QStringList{u"run.sh"_s});
        QCOMPARE(paths(u"cp $SRC \"$DEST\" plain"_s), QStringList{u"plain"_s});
        QCOMPARE(paths(u"ls /etc"_s), QStringList());
        QCOMPARE(paths(u"cd /tmp"_s), QStringList{u"/tmp"_s});
    }
};

QTEST_GUILESS_MAIN(BashCommandPatternsTest)
#include "tst_bash_command_patterns.moc"
