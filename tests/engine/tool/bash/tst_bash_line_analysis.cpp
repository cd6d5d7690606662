#include <QRandomGenerator>
#include <QTest>

#include "engine/tool/bash/BashArity.h"
#include "engine/tool/bash/BashLineAnalysis.h"
#include "engine/tool/bash/BashSyntaxTree.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QStringList words(const char *text)
{
    return QString::fromUtf8(text).split(u' ', Qt::SkipEmptyParts);
}

// The texts of the commands a line can run; "OPAQUE" when it is judged whole.
QStringList texts(const QString &line)
{
    const BashLineAnalysis analysis = BashLineAnalysis::analyze(line);
    if (analysis.isOpaque())
        return {u"OPAQUE"_s};
    QStringList out;
    for (const BashLineAnalysis::Command &command : analysis.commands())
        out.append(command.text);
    return out;
}

QStringList names(const QString &line)
{
    QStringList out;
    for (const BashLineAnalysis::Command &command : BashLineAnalysis::analyze(line).commands())
        out.append(command.name());
    return out;
}

bool opaque(const QString &line)
{
    return BashLineAnalysis::analyze(line).isOpaque();
}

} // namespace

class BashLineAnalysisTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theSystemRuntimeLoadsTheVendoredGrammar() { QVERIFY(BashSyntaxTree::languageLoads()); }

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
        QCOMPARE(BashArity::prefix(tokens), prefix);
    }

    void alwaysPatterns()
    {
        QCOMPARE(BashArity::alwaysPattern(words("echo hi")), u"echo *"_s);
        QCOMPARE(BashArity::alwaysPattern(words("git checkout main")), u"git checkout *"_s);
        QCOMPARE(BashArity::alwaysPattern(words("npm run dev x")), u"npm run dev *"_s);
        QCOMPARE(BashArity::alwaysPattern(words("python script.py")), u"python script.py *"_s);
    }

    void splitsListsAndPipelines()
    {
        QCOMPARE(texts(u"git checkout main && npm run dev"_s), (QStringList{u"git checkout main"_s, u"npm run dev"_s}));
        QCOMPARE(texts(u"a; b || c | d |& e & f\ng"_s),
                 (QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"f"_s, u"g"_s}));
        QCOMPARE(texts(u"   "_s), QStringList());
    }

    void tokensKeepQuotesAndValuesLoseThem()
    {
        const QList<BashLineAnalysis::Command> commands =
            BashLineAnalysis::analyze(u"FOO=1 grep -r \"a b\" 'c d' src 2>&1 > out.txt"_s).commands();
        QCOMPARE(commands.size(), 1);
        QCOMPARE(commands[0].text, u"FOO=1 grep -r \"a b\" 'c d' src"_s);
        QCOMPARE(commands[0].tokens(), (QStringList{u"grep"_s, u"-r"_s, u"\"a b\""_s, u"'c d'"_s, u"src"_s}));
        QCOMPARE(commands[0].words[2].value, std::optional<QString>(u"a b"_s));
        QVERIFY(commands[0].isStatic());
    }

    void quotedSeparatorsDoNotSplit()
    {
        QCOMPARE(texts(u"echo 'a && b' \"c; d\" e\\;f"_s), QStringList{u"echo 'a && b' \"c; d\" e\\;f"_s});
    }

    void substitutionsAreCommandsToo()
    {
        QCOMPARE(texts(u"echo $(rm -rf x) `ls` \"$(whoami)\""_s),
                 (QStringList{u"echo $(rm -rf x) `ls` \"$(whoami)\""_s, u"rm -rf x"_s, u"ls"_s, u"whoami"_s}));
        const BashLineAnalysis::Command rm = BashLineAnalysis::analyze(u"rm $FILE \"$x\" $(pwd)/y"_s).commands().first();
        QCOMPARE(rm.tokens(), (QStringList{u"rm"_s, u"$FILE"_s, u"\"$x\""_s, u"$(pwd)/y"_s}));
        QVERIFY(!rm.isStatic());
        QCOMPARE(texts(u"echo $((1 + 2)) ${HOME}"_s), QStringList{u"echo $((1 + 2)) ${HOME}"_s});
    }

    void subshellsGroupsAndProcessSubstitution()
    {
        QCOMPARE(texts(u"(cd /tmp && ls) ; { make; }"_s), (QStringList{u"cd /tmp"_s, u"ls"_s, u"make"_s}));
        QCOMPARE(texts(u"diff <(sort a) <(sort b)"_s),
                 (QStringList{u"diff <(sort a) <(sort b)"_s, u"sort a"_s, u"sort b"_s}));
    }

    void controlStructuresYieldTheirCommands()
    {
        QCOMPARE(texts(u"if [ -f x ]; then rm x; else touch x; fi"_s),
                 (QStringList{u"[ -f x ]"_s, u"rm x"_s, u"touch x"_s}));
        QCOMPARE(texts(u"for f in *.txt; do cat \"$f\"; done"_s), QStringList{u"cat \"$f\""_s});
        QCOMPARE(texts(u"while read l; do echo $l; done < list"_s), (QStringList{u"read l"_s, u"echo $l"_s}));
        QCOMPARE(texts(u"[[ -n $x && -d y ]] && ls"_s), QStringList{u"ls"_s});
        QCOMPARE(texts(u"case $1 in a) ls;; (b|c) rm y;; esac; pwd"_s), (QStringList{u"ls"_s, u"rm y"_s, u"pwd"_s}));
        QCOMPARE(texts(u"! grep -q x f"_s), QStringList{u"grep -q x f"_s});
        QCOMPARE(texts(u"(( 1 + 2 )) && echo ok"_s), QStringList{u"echo ok"_s});
        QCOMPARE(texts(u"until false; do sleep 1; done"_s), (QStringList{u"false"_s, u"sleep 1"_s}));
    }

    void declarationsAndAssignmentsAreReportedAsSettingVariables()
    {
        const QList<BashLineAnalysis::Command> commands =
            BashLineAnalysis::analyze(u"export A=1; X=2; local y; unset Z"_s).commands();
        QCOMPARE(commands.size(), 4);
        for (const BashLineAnalysis::Command &command : commands)
            QVERIFY(command.setsVariables);
        QCOMPARE(names(u"export A=$(date)"_s), (QStringList{u"export"_s, u"date"_s}));
    }

    void commentsAndQuotedHereDocsRunNothing()
    {
        QCOMPARE(texts(u"ls # rm -rf /\necho done"_s), (QStringList{u"ls"_s, u"echo done"_s}));
        QCOMPARE(texts(u"cat <<'EOF' > f.txt\nrm -rf / $(rm x)\nEOF\nls"_s), (QStringList{u"cat"_s, u"ls"_s}));
        QCOMPARE(texts(u"cat <<-END\n\trm x\n\tEND\npwd"_s), (QStringList{u"cat"_s, u"pwd"_s}));
    }

    void hereDocBodiesThatExpandRunTheirSubstitutions()
    {
        QCOMPARE(names(u"cat <<EOF\nhello $(rm x)\nEOF"_s), (QStringList{u"cat"_s, u"rm"_s}));
        QCOMPARE(names(u"cat <<EOF | grep a\n${v:-$(rm x)}\nEOF"_s), (QStringList{u"cat"_s, u"grep"_s, u"rm"_s}));
        // The grammar reads `…` in a body as text; bash runs it.
        QVERIFY(opaque(u"cat <<EOF\n`rm x`\nEOF"_s));
    }

    void lineContinuationsJoinACommand()
    {
        QCOMPARE(BashLineAnalysis::analyze(u"ls \\\n  -la"_s).commands().first().tokens(),
                 (QStringList{u"ls"_s, u"-la"_s}));
        // Inside a word bash joins the halves; the grammar does not.
        QVERIFY(opaque(u"r\\\nm -rf x"_s));
    }

    void wrappersReportTheCommandTheyRun_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("env") << u"env A=1 -u B rm x"_s << QStringList{u"env"_s, u"rm"_s};
        QTest::newRow("xargs") << u"ls | xargs -0 -n 1 rm -f"_s << QStringList{u"ls"_s, u"xargs"_s, u"rm"_s};
        QTest::newRow("nice") << u"nice -n 5 make"_s << QStringList{u"nice"_s, u"make"_s};
        QTest::newRow("timeout") << u"timeout -s KILL 5 rm x"_s << QStringList{u"timeout"_s, u"rm"_s};
        QTest::newRow("nested") << u"sudo -u me env nohup rm x"_s
                                << QStringList{u"sudo"_s, u"env"_s, u"nohup"_s, u"rm"_s};
        QTest::newRow("command") << u"command -p rm x"_s << QStringList{u"command"_s, u"rm"_s};
        QTest::newRow("find -exec") << u"find . -name '*.o' -exec rm {} \\; -exec ls {} +"_s
                                    << QStringList{u"find"_s, u"rm"_s, u"ls"_s};
        QTest::newRow("time") << u"time make -j4"_s << QStringList{u"time"_s, u"make"_s};
    }

    void wrappersReportTheCommandTheyRun()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, names);
        QVERIFY2(!opaque(line), qPrintable(BashLineAnalysis::analyze(line).opaqueReason()));
        QCOMPARE(::names(line), names);
    }

    // The line runs code nobody can read from it: it is judged as a whole.
    void linesTheCheckerCannotAccountForAreOpaque_data()
    {
        QTest::addColumn<QString>("line");
        const char *const lines[] = {
            "eval rm x", "source ./x", ". ./x", "exec rm x", "bash -c 'rm x'", "sh -c \"rm x\"", "echo rm x | sh",
            "/bin/bash -lc 'rm x'", "alias ls=rm", "trap 'rm x' EXIT", "coproc rm x", "enable -n echo",
            "f() { rm x; }; f", "function g { :; }", "$cmd x", "\"$(echo rm)\" x", "${x} y", "PATH=. ls",
            "IFS=/ ; echo", "export BASH_ENV=./x", "PS4='$(rm x)' ; set -x", "env PATH=. ls", "env -S 'rm x'",
            "xargs --weird rm", "nice $n rm x", "echo $((x + 1))", "(( i++ ))", "echo $[ $(rm x) ]",
            "echo $(( $(rm x) ))", "x='a[$(rm x)]'; echo $((x))", "declare 'a[$(rm x)]=1'", "declare -i n=$x",
            "declare -n ref=x", "read 'a[$(rm x)]'", "printf -v 'a[$(rm x)]' 1", "unset 'a[$(rm x)]'",
            "[[ $x -eq 0 ]]", "[[ -v x ]]", "[ -v 'a[$(rm x)]' ]", "test -v x", "[ \"$op\" \"$x\" ]",
            "echo ${x@P}", "echo ${!x}", "echo ${a[i]}", "echo ${x:$n}", "a[i]=1", "a=([i]=1)", "let x=1",
            "for ((i = 0; i < 3; i++)); do :; done", "echo hi\r# ; rm x", "cat <<$'EOF'\nx\nEOF\nrm x",
            "echo `echo \\`rm x\\``", "echo \"unterminated", "echo 'a' )", "[ -f x ; rm y", "if then fi",
            "set -- 'a[$(rm x)]'", "shopt -s expand_aliases", "hash -p ./rm ls", "mapfile -C 'rm x' arr",
            "find . $x", "find . \"$x\" -exec rm {} \\;", "sudo -s rm x", "busybox sh -c 'rm x'",
            "echo ${x:=$(rm x)} ${PATH:=.}",
        };
        for (const char *line : lines)
            QTest::newRow(line) << QString::fromUtf8(line);
    }

    void linesTheCheckerCannotAccountForAreOpaque()
    {
        QFETCH(QString, line);
        const BashLineAnalysis analysis = BashLineAnalysis::analyze(line);
        QVERIFY2(analysis.isOpaque(), qPrintable(texts(line).join(u" | "_s)));
        QVERIFY(!analysis.opaqueReason().isEmpty());
    }

    // What used to slip past the hand-written scanner: either the hidden
    // command is reported, or the line is judged whole.
    void hiddenCommandsAreFoundOrTheLineIsOpaque_data()
    {
        QTest::addColumn<QString>("line");
        const char *const lines[] = {
            "echo $\"$(rm x)\"", "echo $`rm x`", "echo ${v:-$(rm x)}", "echo \"${v:-`rm x`}\"",
            "case $(rm x) in a) ;; esac", "case a in $(rm x)) ;; esac", "echo \"${x/'a'/$(rm x)}\"",
            "echo ${x/$(rm x)/b}", "echo > $(rm x)", "cat <<< $(rm x)", "echo <(rm x) >(rm x)",
            "x=$(rm x) ls", "arr=(a $(rm x))", "[[ $(rm x) == a ]]", "[ \"$(rm x)\" = a ]",
            "for f in $(rm x); do :; done", "echo \"$'$(rm x)'\"", "cat <<EOF\n$(rm x)\nEOF",
        };
        for (const char *line : lines)
            QTest::newRow(line) << QString::fromUtf8(line);
    }

    void hiddenCommandsAreFoundOrTheLineIsOpaque()
    {
        QFETCH(QString, line);
        const BashLineAnalysis analysis = BashLineAnalysis::analyze(line);
        QVERIFY2(analysis.isOpaque() || names(line).contains(u"rm"_s), qPrintable(texts(line).join(u" | "_s)));
    }

    void anyInputEndsWithoutCrashing()
    {
        const QString alphabet = u"ab ;&|()<>'\"$`\\\n#{}[]=-!*\r"_s;
        QRandomGenerator random(7);
        for (int round = 0; round < 3000; ++round) {
            QString line;
            const int length = random.bounded(1, 60);
            for (int k = 0; k < length; ++k)
                line.append(alphabet.at(random.bounded(alphabet.size())));
            const BashLineAnalysis analysis = BashLineAnalysis::analyze(line);
            for (const BashLineAnalysis::Command &command : analysis.commands())
                QVERIFY2(command.setsVariables || !command.words.isEmpty(), qPrintable(line));
        }
    }

    void deepNestingIsOpaqueNotFollowedForever()
    {
        QString deep;
        for (int k = 0; k < 100000; ++k)
            deep += u"$("_s;
        QVERIFY(opaque(u"ls; echo "_s + deep));
        QString closed;
        for (int k = 0; k < 300; ++k)
            closed = u"$(echo "_s + closed + u')';
        QVERIFY(opaque(u"ls; echo "_s + closed));
    }

    void redirectTargetsAreTheFilesRedirectedToOrFrom()
    {
        QCOMPARE(BashLineAnalysis::analyze(
                     u"echo a > b 2>&1 >> 'c d' < in &> all $(cat < nested) <<EOF > after\nbody\nEOF\n"_s)
                     .redirectTargets(),
                 (QStringList{u"b"_s, u"c d"_s, u"in"_s, u"all"_s, u"nested"_s, u"after"_s}));
        QCOMPARE(BashLineAnalysis::analyze(u"> \"$OUT\" ; ls 2>/dev/null >&log"_s).redirectTargets(),
                 (QStringList{u"/dev/null"_s, u"log"_s}));
    }

    void pathArgumentsOfTheCommandsThatTouchFiles()
    {
        const auto paths = [](const QString &line) {
            return BashLineAnalysis::pathArguments(BashLineAnalysis::analyze(line).commands().first());
        };
        QCOMPARE(paths(u"rm -rf ../x 'a b'"_s), (QStringList{u"../x"_s, u"a b"_s}));
        QCOMPARE(paths(u"chmod +x run.sh"_s), QStringList{u"run.sh"_s});
        QCOMPARE(paths(u"cp $SRC \"$DEST\" plain ~/h *.c"_s), (QStringList{u"plain"_s, u"~/h"_s, u"*.c"_s}));
        QCOMPARE(paths(u"ls /etc"_s), QStringList());
        QCOMPARE(paths(u"cd /tmp"_s), QStringList{u"/tmp"_s});
        QCOMPARE(paths(u"mkdir -p /outside/a/b"_s), QStringList{u"/outside/a/b"_s});
    }
};

QTEST_GUILESS_MAIN(BashLineAnalysisTest)
#include "tst_bash_line_analysis.moc"
