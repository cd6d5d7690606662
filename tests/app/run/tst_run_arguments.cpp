// `qcode run`'s command line: every flag of issue 4 as `opencode run`
// spells it, and every kind of bad input refused with a sentence that says
// what is wrong. Then the request: folders and files made absolute and
// checked, the message from words or from piped standard input.

#include <QDir>
#include <QTest>

#include "RunArguments.h"
#include "RunRequest.h"
#include "TempTree.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class RunArgumentsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void noArgumentsAreValid();
    void everyFlagIsRead();
    void shortAliasesMatchOpenCode();
    void messageWordsMixWithOptions();
    void doubleDashEndsOptions();
    void filesRepeatInOrder();
    void formatJsonAndDefault();
    void badInputIsRefusedWithAReason_data();
    void badInputIsRefusedWithAReason();
    void helpListsEveryFlag();
    void helpStatesTheExitStatuses();

    void directoryDefaultsToTheCurrentFolder();
    void relativeDirectoryIsTakenFromTheCurrentFolder();
    void missingOrNonFolderDirectoryIsAnError();
    void filesAreTakenFromTheProjectFolder();
    void missingFileIsAnErrorNamingIt();
    void messageWordsAreJoinedWithSpaces();
    void messageComesFromPipedInputWithoutWords();
    void pipedInputIsNotReadWhenWordsAreGiven();
    void noMessageAnywhereIsAnError();
    void whitespaceOnlyMessageIsAnError();

private:
    static RunArguments parsed(const QStringList &arguments);
    TempTree m_tree;
};

RunArguments RunArgumentsTest::parsed(const QStringList &arguments)
{
    Result<RunArguments> result = RunArgumentParser::parse(arguments);
    if (!result)
        qWarning("parse failed: %s", qPrintable(result.error().message));
    return result ? *result : RunArguments{};
}

void RunArgumentsTest::noArgumentsAreValid()
{
    Result<RunArguments> result = RunArgumentParser::parse({});
    QVERIFY(result.ok());
    QVERIFY(result->messageWords.isEmpty());
    QCOMPARE(result->format, RunFormat::Default);
    QVERIFY(!result->autoApprove);
    QVERIFY(!result->continueLast);
    QVERIFY(!result->help);
    QVERIFY(!result->model);
    QVERIFY(!result->agent);
    QVERIFY(!result->sessionID);
}

void RunArgumentsTest::everyFlagIsRead()
{
    Result<RunArguments> result = RunArgumentParser::parse(
        {u"--dir"_s, u"proj"_s, u"--model"_s, u"openrouter/anthropic/claude-x"_s, u"--agent"_s, u"plan"_s,
         u"--session"_s, u"ses_abc"_s, u"--file"_s, u"a.txt"_s, u"--format"_s, u"json"_s, u"--auto-approve"_s,
         u"hello"_s});
    QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
    QCOMPARE(result->directory, u"proj"_s);
    QVERIFY(result->model);
    // The provider is before the first slash; the model keeps the rest.
    QCOMPARE(result->model->providerID, u"openrouter"_s);
    QCOMPARE(result->model->modelID, u"anthropic/claude-x"_s);
    QCOMPARE(result->agent, std::optional(u"plan"_s));
    QCOMPARE(result->sessionID, std::optional(u"ses_abc"_s));
    QCOMPARE(result->files, QStringList{u"a.txt"_s});
    QCOMPARE(result->format, RunFormat::Json);
    QVERIFY(result->autoApprove);
    QCOMPARE(result->messageWords, QStringList{u"hello"_s});

    const RunArguments continued = parsed({u"--continue"_s, u"--help"_s});
    QVERIFY(continued.continueLast);
    QVERIFY(continued.help);
}

void RunArgumentsTest::shortAliasesMatchOpenCode()
{
    const RunArguments a = parsed({u"-m"_s, u"p/m"_s, u"-c"_s, u"-f"_s, u"x"_s, u"-h"_s});
    QCOMPARE(a.model->providerID, u"p"_s);
    QVERIFY(a.continueLast);
    QCOMPARE(a.files, QStringList{u"x"_s});
    QVERIFY(a.help);
    QCOMPARE(parsed({u"-s"_s, u"ses_1"_s}).sessionID, std::optional(u"ses_1"_s));
    QCOMPARE(parsed({u"--model=p/m2"_s}).model->modelID, u"m2"_s);
}

void RunArgumentsTest::messageWordsMixWithOptions()
{
    const RunArguments a = parsed({u"explain"_s, u"--agent"_s, u"build"_s, u"this"_s, u"code"_s});
    QCOMPARE(a.messageWords, (QStringList{u"explain"_s, u"this"_s, u"code"_s}));
    QCOMPARE(a.agent, std::optional(u"build"_s));
}

void RunArgumentsTest::doubleDashEndsOptions()
{
    const RunArguments a = parsed({u"--"_s, u"--format"_s, u"-x"_s});
    QCOMPARE(a.messageWords, (QStringList{u"--format"_s, u"-x"_s}));
    QCOMPARE(a.format, RunFormat::Default);
}

void RunArgumentsTest::filesRepeatInOrder()
{
    const RunArguments a = parsed({u"--file"_s, u"b"_s, u"-f"_s, u"a"_s, u"--file=c"_s});
    QCOMPARE(a.files, (QStringList{u"b"_s, u"a"_s, u"c"_s}));
}

void RunArgumentsTest::formatJsonAndDefault()
{
    QCOMPARE(parsed({u"--format"_s, u"default"_s}).format, RunFormat::Default);
    QCOMPARE(parsed({u"--format"_s, u"json"_s}).format, RunFormat::Json);
}

void RunArgumentsTest::badInputIsRefusedWithAReason_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown option") << QStringList{u"--yolo"_s} << u"yolo"_s;
    QTest::newRow("model without slash") << QStringList{u"--model"_s, u"gpt4"_s} << u"provider/model"_s;
    QTest::newRow("model without provider") << QStringList{u"--model"_s, u"/gpt4"_s} << u"provider/model"_s;
    QTest::newRow("model without model") << QStringList{u"-m"_s, u"openai/"_s} << u"provider/model"_s;
    QTest::newRow("model missing value") << QStringList{u"--model"_s} << u"model"_s;
    QTest::newRow("model twice") << QStringList{u"-m"_s, u"a/b"_s, u"-m"_s, u"c/d"_s} << u"more than once"_s;
    QTest::newRow("format other") << QStringList{u"--format"_s, u"xml"_s} << u"xml"_s;
    QTest::newRow("empty agent") << QStringList{u"--agent"_s, u""_s} << u"--agent"_s;
    QTest::newRow("empty dir") << QStringList{u"--dir="_s} << u"--dir"_s;
    QTest::newRow("empty session") << QStringList{u"--session"_s, u" "_s} << u"--session"_s;
    QTest::newRow("empty file") << QStringList{u"--file"_s, u""_s} << u"--file"_s;
    QTest::newRow("continue and session") << QStringList{u"-c"_s, u"-s"_s, u"ses_1"_s} << u"--continue"_s;
}

void RunArgumentsTest::badInputIsRefusedWithAReason()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, mentions);
    Result<RunArguments> result = RunArgumentParser::parse(arguments);
    QVERIFY(!result.ok());
    QVERIFY2(result.error().message.contains(mentions), qPrintable(result.error().message));
}

void RunArgumentsTest::helpListsEveryFlag()
{
    const QString help = RunArgumentParser::helpText();
    QVERIFY(help.startsWith(u"Usage: qcode run"_s));
    for (const QString &flag : {u"--dir"_s, u"--model"_s, u"--agent"_s, u"--continue"_s, u"--session"_s, u"--file"_s,
                                u"--format"_s, u"--auto-approve"_s, u"--help"_s, u"XDG_DATA_HOME"_s,
                                u"XDG_CONFIG_HOME"_s})
        QVERIFY2(help.contains(flag), qPrintable(flag));
}

void RunArgumentsTest::helpStatesTheExitStatuses()
{
    const QString help = RunArgumentParser::helpText();
    QVERIFY(help.contains(u"Exit status: 0 when the answer finished"_s));
    // A refusal on the way is not a failed run.
    QVERIFY(help.contains(u"refused on the way"_s));
    QVERIFY(help.contains(u"1 when the run itself failed"_s));
}

void RunArgumentsTest::directoryDefaultsToTheCurrentFolder()
{
    Result<RunRequest> request = RunRequestResolver::resolve(parsed({u"hi"_s}), m_tree.root(), {});
    QVERIFY2(request.ok(), qPrintable(request.errorMessage()));
    QCOMPARE(request->directory, QDir::cleanPath(m_tree.root()));
}

void RunArgumentsTest::relativeDirectoryIsTakenFromTheCurrentFolder()
{
    QVERIFY(m_tree.write(u"proj/sub/keep"_s, "x"));
    Result<RunRequest> request =
        RunRequestResolver::resolve(parsed({u"--dir"_s, u"proj/./sub/.."_s, u"hi"_s}), m_tree.root(), {});
    QVERIFY2(request.ok(), qPrintable(request.errorMessage()));
    QCOMPARE(request->directory, m_tree.path(u"proj"_s));
}

void RunArgumentsTest::missingOrNonFolderDirectoryIsAnError()
{
    QVERIFY(m_tree.write(u"plain.txt"_s, "x"));
    Result<RunRequest> missing = RunRequestResolver::resolve(parsed({u"--dir"_s, u"nope"_s, u"hi"_s}), m_tree.root(), {});
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error().message.contains(u"does not exist"_s), qPrintable(missing.error().message));
    Result<RunRequest> file =
        RunRequestResolver::resolve(parsed({u"--dir"_s, u"plain.txt"_s, u"hi"_s}), m_tree.root(), {});
    QVERIFY(!file.ok());
    QVERIFY2(file.error().message.contains(u"not a folder"_s), qPrintable(file.error().message));
}

void RunArgumentsTest::filesAreTakenFromTheProjectFolder()
{
    QVERIFY(m_tree.write(u"proj/notes.md"_s, "n"));
    QVERIFY(m_tree.write(u"proj/src/a.cpp"_s, "a"));
    Result<RunRequest> request = RunRequestResolver::resolve(
        parsed({u"--dir"_s, u"proj"_s, u"-f"_s, u"notes.md"_s, u"-f"_s, u"src"_s, u"hi"_s}), m_tree.root(), {});
    QVERIFY2(request.ok(), qPrintable(request.errorMessage()));
    QCOMPARE(request->files, (QStringList{m_tree.path(u"proj/notes.md"_s), m_tree.path(u"proj/src"_s)}));
}

void RunArgumentsTest::missingFileIsAnErrorNamingIt()
{
    Result<RunRequest> request =
        RunRequestResolver::resolve(parsed({u"--file"_s, u"ghost.txt"_s, u"hi"_s}), m_tree.root(), {});
    QVERIFY(!request.ok());
    QVERIFY2(request.error().message.contains(u"ghost.txt"_s), qPrintable(request.error().message));
    QVERIFY(request.error().message.contains(u"not found"_s));
}

void RunArgumentsTest::messageWordsAreJoinedWithSpaces()
{
    Result<RunRequest> request =
        RunRequestResolver::resolve(parsed({u"explain"_s, u"the  code"_s, u"please"_s}), m_tree.root(), {});
    QVERIFY(request.ok());
    QCOMPARE(request->message, u"explain the  code please"_s);
}

void RunArgumentsTest::messageComesFromPipedInputWithoutWords()
{
    Result<RunRequest> request = RunRequestResolver::resolve(parsed({}), m_tree.root(), [] {
        return std::optional<QByteArray>("summarise\nthis file \xc3\xa9\n");
    });
    QVERIFY2(request.ok(), qPrintable(request.errorMessage()));
    QCOMPARE(request->message, u"summarise\nthis file é\n"_s);
}

void RunArgumentsTest::pipedInputIsNotReadWhenWordsAreGiven()
{
    bool read = false;
    Result<RunRequest> request = RunRequestResolver::resolve(parsed({u"hi"_s}), m_tree.root(), [&read] {
        read = true;
        return std::optional<QByteArray>("piped");
    });
    QVERIFY(request.ok());
    QVERIFY(!read);
    QCOMPARE(request->message, u"hi"_s);
}

void RunArgumentsTest::noMessageAnywhereIsAnError()
{
    // A terminal on standard input: nothing is read, and there are no words.
    Result<RunRequest> request =
        RunRequestResolver::resolve(parsed({}), m_tree.root(), [] { return std::optional<QByteArray>(); });
    QVERIFY(!request.ok());
    QVERIFY2(request.error().message.contains(u"message"_s), qPrintable(request.error().message));
}

void RunArgumentsTest::whitespaceOnlyMessageIsAnError()
{
    Result<RunRequest> piped =
        RunRequestResolver::resolve(parsed({}), m_tree.root(), [] { return std::optional<QByteArray>(" \n\t\n"); });
    QVERIFY(!piped.ok());
    Result<RunRequest> words = RunRequestResolver::resolve(parsed({u"  "_s}), m_tree.root(), {});
    QVERIFY(!words.ok());
}

QTEST_GUILESS_MAIN(RunArgumentsTest)
#include "tst_run_arguments.moc"
