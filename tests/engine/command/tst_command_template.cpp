// A slash command's template rules (reference §2.10): arguments, $1…$N,
// $ARGUMENTS, appending, !`cmd` segments and @references.

#include <QCoro/QCoroTask>
#include <QDir>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTest>

#include "TempTree.h"
#include "engine/command/CommandTemplate.h"
#include "engine/command/TemplateShell.h"
#include "engine/session/shell/ShellProcess.h"
#include "engine/session/shell/UserShell.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class CommandTemplateTest : public QObject
{
    Q_OBJECT

private:
    QString runShell(const QString &text, qint64 timeoutMs = TemplateShell::DefaultTimeoutMs)
    {
        const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        QCoro::Task<QString> running = TemplateShell::expand(
            text, TemplateShell::Options{u"/bin/sh"_s, m_tree.path(u"project"_s), environment, timeoutMs});
        return QCoro::waitFor(running);
    }

    test::TempTree m_tree;

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(m_tree.path(u"project"_s)));
    }

    void argumentsSplitAtBlanks_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QStringList>("tokens");
        QTest::newRow("words") << u"one two  three"_s << QStringList{u"one"_s, u"two"_s, u"three"_s};
        QTest::newRow("double quotes") << u"say \"hello world\" now"_s
                                       << QStringList{u"say"_s, u"hello world"_s, u"now"_s};
        QTest::newRow("single quotes") << u"'a b' c"_s << QStringList{u"a b"_s, u"c"_s};
        QTest::newRow("image") << u"look [Image 1] and [image 12]"_s
                               << QStringList{u"look"_s, u"[Image 1]"_s, u"and"_s, u"[image 12]"_s};
        QTest::newRow("empty quotes") << u"\"\" x"_s << QStringList{QString(), u"x"_s};
        QTest::newRow("quote glued to a word") << u"\"a\"b"_s << QStringList{u"a"_s, u"b"_s};
        QTest::newRow("unclosed quote") << u"\"open end"_s << QStringList{u"open"_s, u"end"_s};
        QTest::newRow("nothing") << u"   "_s << QStringList{};
    }

    void argumentsSplitAtBlanks()
    {
        QFETCH(QString, arguments);
        QFETCH(QStringList, tokens);
        QCOMPARE(CommandTemplate::splitArguments(arguments), tokens);
    }

    void placeholdersTakeTheTokensInOrder()
    {
        QCOMPARE(CommandTemplate::expand(u"Compare $1 with $2."_s, u"a.txt b.txt"_s), u"Compare a.txt with b.txt."_s);
        QCOMPARE(CommandTemplate::expand(u"$2 before $1"_s, u"x y"_s), u"y before x"_s);
        QCOMPARE(CommandTemplate::expand(u"$1 and $1"_s, u"x"_s), u"x and x"_s);
    }

    void theHighestPlaceholderSwallowsTheRest()
    {
        QCOMPARE(CommandTemplate::expand(u"File $1, note: $2"_s, u"a.txt fix the \"big bug\" now"_s),
                 u"File a.txt, note: fix the big bug now"_s);
        // The highest number swallows wherever it stands in the text.
        QCOMPARE(CommandTemplate::expand(u"$2 / $1"_s, u"a b c"_s), u"b c / a"_s);
    }

    void missingArgumentsBecomeEmpty()
    {
        QCOMPARE(CommandTemplate::expand(u"[$1] [$2] [$3]"_s, u"only"_s), u"[only] [] []"_s);
        QCOMPARE(CommandTemplate::expand(u"[$0]"_s, u"x"_s), u"[]"_s);
    }

    void argumentsPlaceholderTakesTheTextAsTyped()
    {
        QCOMPARE(CommandTemplate::expand(u"Review $ARGUMENTS carefully"_s, u"the  \"parser\" module"_s),
                 u"Review the  \"parser\" module carefully"_s);
        QCOMPARE(CommandTemplate::expand(u"$1: $ARGUMENTS"_s, u"a b"_s), u"a b: a b"_s);
    }

    void argumentsAreAppendedWhenNoPlaceholderTakesThem()
    {
        QCOMPARE(CommandTemplate::expand(u"Write the tests."_s, u"for the parser"_s),
                 u"Write the tests.\n\nfor the parser"_s);
        QCOMPARE(CommandTemplate::expand(u"Write the tests."_s, u"   "_s), u"Write the tests."_s);
        QCOMPARE(CommandTemplate::expand(u"Uses $1 only"_s, QString()), u"Uses  only"_s);
    }

    void shellSegmentsAreFound()
    {
        const QString text = u"Status:\n!`git status`\nLog: !`git log -1` and `not this`"_s;
        QCOMPARE(CommandTemplate::shellCommands(text), (QStringList{u"git status"_s, u"git log -1"_s}));
        QCOMPARE(CommandTemplate::replaceShellCommands(text, {u"clean"_s, u"abc"_s}),
                 u"Status:\nclean\nLog: abc and `not this`"_s);
    }

    void shellSegmentsAreReplacedByTheirOutput()
    {
        QVERIFY(m_tree.write(u"project/marker.txt"_s, "here"));
        const QString expanded = runShell(u"Files: !`ls` Echo: !`echo one; echo two >&2`."_s);
        // In the project folder, stdout and stderr together.
        QCOMPARE(expanded, u"Files: marker.txt\n Echo: one\ntwo\n."_s);
    }

    void aSlowShellSegmentIsStoppedAndSaysSo()
    {
        const QString expanded = runShell(u"[!`echo early; sleep 20`]"_s, 300);
        QVERIFY2(expanded.startsWith(u"[early\n"_s), qPrintable(expanded));
        QVERIFY2(expanded.contains(u"stopped after"_s), qPrintable(expanded));
        QVERIFY(expanded.endsWith(u']'));
    }

    void aShellThatCannotStartIsNamedInPlace()
    {
        const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        QCoro::Task<QString> running = TemplateShell::expand(
            u"<!`true`>"_s, TemplateShell::Options{m_tree.path(u"no-such-shell"_s), m_tree.path(u"project"_s),
                                                  environment, 1000});
        const QString expanded = QCoro::waitFor(running);
        QVERIFY2(expanded.startsWith(u"<Cannot run"_s), qPrintable(expanded));
    }

    void referencesAreFoundOnce()
    {
        QCOMPARE(CommandTemplate::references(u"Read @src/main.cpp and @./README.md, then ask @explore. Again @src/main.cpp"_s),
                 (QStringList{u"src/main.cpp"_s, u"./README.md"_s, u"explore"_s}));
        // Not inside words or after a backquote; a bare @ names nothing.
        QCOMPARE(CommandTemplate::references(u"mail me@example.com `@decorator` @ alone"_s), QStringList{});
        QCOMPARE(CommandTemplate::references(u"@~/notes.md"_s), QStringList{u"~/notes.md"_s});
    }

    void loginShellsReadTheirStartupFilesAndEvalTheCommand()
    {
        const QStringList bash = UserShell::arguments(u"/bin/bash"_s, u"echo 'it''s' $HOME"_s);
        QCOMPARE(bash.mid(0, 2), (QStringList{u"-l"_s, u"-c"_s}));
        QVERIFY(bash.at(2).contains(u"source ~/.bashrc"_s));
        QVERIFY(bash.at(2).endsWith(u"eval 'echo '\\''it'\\'''\\''s'\\'' $HOME'"_s));
        QVERIFY(UserShell::arguments(u"/usr/bin/zsh"_s, u"ls"_s).at(2).contains(u".zshrc"_s));
        QCOMPARE(UserShell::arguments(u"/usr/bin/fish"_s, u"ls"_s), (QStringList{u"-c"_s, u"ls"_s}));
        QCOMPARE(UserShell::arguments(u"/usr/bin/nu"_s, u"ls"_s), (QStringList{u"-c"_s, u"ls"_s}));
        QCOMPARE(UserShell::arguments(u"C:/Windows/System32/cmd.exe"_s, u"dir"_s), (QStringList{u"/c"_s, u"dir"_s}));
        QCOMPARE(UserShell::arguments(u"pwsh"_s, u"ls"_s), (QStringList{u"-NoProfile"_s, u"-Command"_s, u"ls"_s}));
        QCOMPARE(UserShell::arguments(u"/bin/dash"_s, u"ls"_s), (QStringList{u"-c"_s, u"ls"_s}));
        QCOMPARE(UserShell::arguments(u"/bin/bash"_s, u"ls"_s, UserShell::Mode::Plain), (QStringList{u"-c"_s, u"ls"_s}));
    }

    void theEvaluatedCommandRunsAsTyped()
    {
        // Quotes and variables reach the login shell untouched by the
        // wrapping; its startup file's aliases apply.
        const QString bash = QStandardPaths::findExecutable(u"bash"_s);
        if (bash.isEmpty())
            QSKIP("bash is not installed, and the login-shell wrapping is bash's and zsh's");
        QVERIFY(m_tree.write(u"home/.bashrc"_s, "alias greet='echo hello from the alias'\n"));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"HOME"_s, m_tree.path(u"home"_s));
        environment.insert(u"WHO"_s, u"me"_s);
        ShellProcess::Options options;
        options.program = bash;
        options.arguments = UserShell::arguments(bash, u"printf '%s|' \"a b\" '$WHO' \"$WHO\"; greet"_s);
        options.workingDirectory = m_tree.path(u"project"_s);
        options.environment = environment;
        options.timeoutMs = 10000;
        QCoro::Task<ShellProcess::Outcome> running = ShellProcess::run(options);
        const ShellProcess::Outcome outcome = QCoro::waitFor(running);
        QVERIFY(!outcome.startError);
        QCOMPARE(outcome.output, u"a b|$WHO|me|hello from the alias\n"_s);
    }
};

QTEST_GUILESS_MAIN(CommandTemplateTest)
#include "tst_command_template.moc"
