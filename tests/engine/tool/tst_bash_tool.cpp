#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTest>
#include <QTimer>

#include <csignal>
#include <unistd.h>

#include "ProcessProbe.h"
#include "ToolTestSupport.h"
#include "engine/tool/BashTool.h"
#include "TempTree.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QJsonObject bash(const QString &command, const QJsonObject &extra = {})
{
    QJsonObject arguments{{"command"_L1, command}, {"description"_L1, u"Runs a test command"_s}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        arguments.insert(it.key(), it.value());
    return arguments;
}

} // namespace

class BashToolTest : public QObject
{
    Q_OBJECT

private:
    test::TempTree m_tree;
    test::RecordingAsker m_asker;
    std::unique_ptr<AbortSignal> m_abort;
    QList<QJsonObject> m_progress;

    QString project() const { return m_tree.path(u"project"_s); }

    ToolContext context()
    {
        ToolContext toolContext = test::toolContext(project(), &m_asker, m_abort.get());
        toolContext.progress = [this](const QString &, const QJsonObject &metadata) { m_progress.append(metadata); };
        return toolContext;
    }

    ToolResult run(const QJsonObject &arguments) { return run(arguments, context()); }

    ToolResult run(const QJsonObject &arguments, const ToolContext &toolContext)
    {
        BashTool tool(ToolServices{nullptr, nullptr, m_tree.path(u"data"_s), nullptr, nullptr, nullptr, {}, {}});
        return test::runTool(tool, arguments, toolContext);
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(project()));
        m_asker.requests.clear();
        m_asker.answers.clear();
        m_abort = std::make_unique<AbortSignal>();
        m_progress.clear();
    }

    void runsACommandAfterAskingForIt()
    {
        const ToolResult result = run(bash(u"echo hi"_s));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->output, u"hi\n"_s);
        QCOMPARE(output->title, u"Runs a test command"_s);
        QCOMPARE(output->metadata.value("output"_L1).toString(), u"hi\n"_s);
        QCOMPARE(output->metadata.value("exit"_L1).toInt(-1), 0);
        QCOMPARE(output->metadata.value("description"_L1).toString(), u"Runs a test command"_s);
        QCOMPARE(m_asker.permissions(), QStringList{u"bash"_s});
        QCOMPARE(m_asker.requests.first().patterns, QStringList{u"echo hi"_s});
        QCOMPARE(m_asker.requests.first().always, QStringList{u"echo *"_s});
    }

    void eachCommandIsAPatternWithItsArityPrefix()
    {
        m_asker.answers.insert(u"bash"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const std::optional<ToolFailure> failure = test::failureOf(run(bash(u"git checkout main && npm run dev"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejected);
        const PermissionRequest &ask = m_asker.requests.first();
        QCOMPARE(ask.patterns, (QStringList{u"git checkout main"_s, u"npm run dev"_s}));
        QCOMPARE(ask.always, (QStringList{u"git checkout *"_s, u"npm run dev *"_s}));
    }

    void cdOutsideTheProjectAsksForThatFolderAndIsNotABashPattern()
    {
        QVERIFY(QDir().mkpath(m_tree.path(u"other"_s)));
        m_asker.answers.insert(u"bash"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(bash(u"cd %1 && ls"_s.arg(m_tree.path(u"other"_s))))));
        QCOMPARE(m_asker.permissions(), (QStringList{u"external_directory"_s, u"bash"_s}));
        QCOMPARE(m_asker.requests[0].patterns, QStringList{m_tree.path(u"other"_s) + u"/*"_s});
        QCOMPARE(m_asker.requests[0].always, QStringList{m_tree.path(u"other"_s) + u"/*"_s});
        QCOMPARE(m_asker.requests[1].patterns, QStringList{u"ls"_s});
    }

    void anExistingFileOutsideAsksForItsFolder()
    {
        QVERIFY(m_tree.write(u"x"_s, "keep me"));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(bash(u"rm ../x"_s))));
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests[0].patterns, QStringList{m_tree.root() + u"/*"_s});
        QVERIFY(QFile::exists(m_tree.path(u"x"_s)));
    }

    // mkdir -p and > create the missing folders: the nearest one that
    // exists is where they write.
    void aPathWhoseFoldersDoNotExistYetIsJudgedByItsNearestExistingAncestor_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("mkdir -p") << u"mkdir -p ../a/b/c && touch ../a/b/c/f"_s;
        QTest::newRow("redirect") << u"echo x > ../a/b/f"_s;
        QTest::newRow("rm") << u"rm ../nowhere/x"_s;
    }

    void aPathWhoseFoldersDoNotExistYetIsJudgedByItsNearestExistingAncestor()
    {
        QFETCH(QString, line);
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(bash(line))));
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests[0].patterns, QStringList{m_tree.root() + u"/*"_s});
        QVERIFY(!QFileInfo::exists(m_tree.path(u"a"_s)));
    }

    // eval, sh -c, a parse error …: one question for the whole line, which
    // only the bash rule for "*" can answer.
    void aLineTheCheckerCannotAccountForIsAskedForAsAWhole()
    {
        m_asker.answers.insert(u"bash"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(bash(u"echo $(eval touch made)"_s))));
        QCOMPARE(m_asker.permissions(), QStringList{u"bash"_s});
        const PermissionRequest &ask = m_asker.requests.first();
        QVERIFY(ask.judgedWhole);
        QCOMPARE(ask.patterns, QStringList{u"echo $(eval touch made)"_s});
        QCOMPARE(ask.always, QStringList{u"echo $(eval touch made)"_s});
        QVERIFY(ask.metadata.value("judgedWhole"_L1).toString().contains(u"eval"_s));
        QVERIFY(!QFile::exists(project() + u"/made"_s));
        // A line with wildcards offers no "always": it would allow more.
        m_asker.requests.clear();
        QVERIFY(test::failureOf(run(bash(u"eval 'ls *'"_s))));
        QVERIFY(m_asker.requests.first().judgedWhole);
        QVERIFY(m_asker.requests.first().always.isEmpty());
        // An understood line is not judged whole.
        m_asker.requests.clear();
        QVERIFY(test::failureOf(run(bash(u"echo a"_s))));
        QVERIFY(!m_asker.requests.first().judgedWhole);
    }

    void aSymlinkOutOfTheProjectIsSeenThrough()
    {
        QVERIFY(m_tree.write(u"secret/key"_s, "k"));
        QVERIFY(QFile::link(m_tree.path(u"secret"_s), project() + u"/link"_s));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const std::optional<ToolFailure> failure = test::failureOf(run(bash(u"cat link/key"_s)));
        QVERIFY(failure);
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"secret"_s) + u"/*"_s});
    }

    void aLineWithoutCommandsIsAskedForWhole()
    {
        QVERIFY(m_tree.write(u"project/keep.txt"_s, "data"));
        m_asker.answers.insert(u"bash"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(bash(u" > keep.txt"_s))));
        QCOMPARE(m_asker.requests.first().patterns, QStringList{u"> keep.txt"_s});
        QFile kept(project() + u"/keep.txt"_s);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("data"));
        // A lone cd is a command: it needs no bash question.
        m_asker.requests.clear();
        QVERIFY(test::outputOf(run(bash(u"cd ."_s))));
        QVERIFY(m_asker.requests.isEmpty());
    }

    void redirectionsOutsideTheProjectAskToo()
    {
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(bash(u"echo x > ../out.txt"_s))));
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.root() + u"/*"_s});
        QVERIFY(!QFile::exists(m_tree.path(u"out.txt"_s)));
        // The null device is not an outside folder.
        m_asker.requests.clear();
        QVERIFY(test::outputOf(run(bash(u"ls 2>/dev/null >/dev/null"_s))));
        QCOMPARE(m_asker.permissions(), QStringList{u"bash"_s});
    }

    void pathsInsideTheProjectAskNothingExtra()
    {
        QVERIFY(m_tree.write(u"project/sub/f.txt"_s, "x"));
        m_asker.answers.insert(u"bash"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(bash(u"cat sub/f.txt && rm sub/../sub/f.txt"_s))));
        QCOMPARE(m_asker.permissions(), QStringList{u"bash"_s});
    }

    void aWorkdirOutsideTheProjectIsExternal()
    {
        QVERIFY(QDir().mkpath(m_tree.path(u"other"_s)));
        const ToolResult result = run(bash(u"pwd"_s, {{"workdir"_L1, m_tree.path(u"other"_s)}}));
        QVERIFY2(test::outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(test::outputOf(result)->output.trimmed(), m_tree.path(u"other"_s));
        QCOMPARE(m_asker.permissions(), (QStringList{u"external_directory"_s, u"bash"_s}));
    }

    void theWorkdirDefaultsToTheProjectAndMustExist()
    {
        QVERIFY(QDir().mkpath(project() + u"/sub"_s));
        const ToolResult inProject = run(bash(u"pwd"_s));
        QCOMPARE(test::outputOf(inProject)->output.trimmed(), project());
        const ToolResult inSub = run(bash(u"pwd"_s, {{"workdir"_L1, u"sub"_s}}));
        QCOMPARE(test::outputOf(inSub)->output.trimmed(), project() + u"/sub"_s);
        QVERIFY(test::failureOf(run(bash(u"pwd"_s, {{"workdir"_L1, u"missing"_s}}))));
    }

    void aNonZeroExitIsNotAFailure()
    {
        const ToolResult result = run(bash(u"echo out; echo err >&2; exit 3"_s));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->metadata.value("exit"_L1).toInt(), 3);
        QVERIFY(output->output.contains(u"out\n"_s));
        QVERIFY(output->output.contains(u"err\n"_s));
    }

    void aTimeoutKillsTheCommandAndSaysSo()
    {
        const ToolResult result = run(bash(u"echo before; sleep 5"_s, {{"timeout"_L1, 100}}));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QVERIFY(output->output.startsWith(u"before\n"_s));
        QVERIFY(output->output.endsWith(
            u"\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout 100 ms\n</bash_metadata>"_s));
        QVERIFY(output->metadata.value("exit"_L1).isNull());
    }

    void aTimeoutKillsTheCommandsChildrenToo()
    {
        // The shell and its background child ignore SIGTERM: only the
        // group's SIGKILL ends them.
        const ToolResult result =
            run(bash(u"trap '' TERM; sleep 30 & echo $! > child.pid; sleep 30"_s, {{"timeout"_L1, 200}}));
        QVERIFY2(test::outputOf(result), qPrintable(test::describe(result)));
        QFile pidFile(project() + u"/child.pid"_s);
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const qint64 child = pidFile.readAll().trimmed().toLongLong();
        QVERIFY(child > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!test::processRuns(child), 5000);
    }

    void aBackgroundChildDoesNotHoldTheCommandOpen()
    {
        // The shell is done once it exits, even while a child it left
        // running still has the output pipe.
        const ToolResult result = run(bash(u"sleep 30 & echo $! > bg.pid; echo started"_s, {{"timeout"_L1, 5000}}));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->output, u"started\n"_s);
        QCOMPARE(output->metadata.value("exit"_L1).toInt(-1), 0);
        QFile pidFile(project() + u"/bg.pid"_s);
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const qint64 child = pidFile.readAll().trimmed().toLongLong();
        QVERIFY(child > 0);
        ::kill(pid_t(child), SIGKILL);
    }

    void anAbortStopsTheCommand()
    {
        ToolContext toolContext = context();
        AbortSignal *abort = m_abort.get();
        toolContext.progress = [abort](const QString &, const QJsonObject &metadata) {
            if (metadata.value("output"_L1).toString().contains(u"started"_s))
                QTimer::singleShot(0, abort, &AbortSignal::abort);
        };
        const ToolResult result = run(bash(u"echo started; sleep 20; echo never"_s), toolContext);
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QVERIFY(!output->output.contains(u"never"_s));
        QVERIFY(output->output.endsWith(u"\n\n<bash_metadata>\nUser aborted the command\n</bash_metadata>"_s));
    }

    void anAbortBeforeTheStartEndsAtOnce()
    {
        m_abort->abort();
        const ToolResult result = run(bash(u"sleep 20; echo never"_s));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QVERIFY(output->output.contains(u"User aborted the command"_s));
    }

    void outputIsShownLive()
    {
        // The command waits until the test has seen its first line live.
        ToolContext toolContext = context();
        const QString go = project() + u"/go"_s;
        toolContext.progress = [this, go](const QString &, const QJsonObject &metadata) {
            m_progress.append(metadata);
            if (metadata.value("output"_L1).toString() == u"one\n"_s) {
                QFile flag(go);
                QVERIFY(flag.open(QIODevice::WriteOnly));
            }
        };
        const ToolResult result =
            run(bash(u"echo one; while [ ! -f go ]; do sleep 0.05; done; echo two"_s, {{"timeout"_L1, 20000}}),
                toolContext);
        QVERIFY2(test::outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(test::outputOf(result)->output, u"one\ntwo\n"_s);
        QStringList seen;
        for (const QJsonObject &metadata : std::as_const(m_progress))
            seen.append(metadata.value("output"_L1).toString());
        QVERIFY2(seen.contains(u"one\n"_s), qPrintable(seen.join(u" | "_s)));
        QCOMPARE(seen.last(), u"one\ntwo\n"_s);
        QCOMPARE(m_progress.first().value("description"_L1).toString(), u"Runs a test command"_s);
    }

    void theMetadataPreviewIsCapped()
    {
        const ToolResult result = run(bash(u"head -c 40000 /dev/zero | tr '\\0' a"_s));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->output.size(), 40000);
        const QString preview = output->metadata.value("output"_L1).toString();
        QCOMPARE(preview.size(), BashTool::MaxMetadataOutput + 5);
        QVERIFY(preview.endsWith(u"a\n\n..."_s));
    }

    void endlessOutputIsCappedInMemory()
    {
        const ToolResult result =
            run(bash(u"head -c %1 /dev/zero | tr '\\0' a"_s.arg(BashTool::MaxCapturedOutput + 100000)));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result).left(200)));
        QVERIFY(output->output.startsWith(QString(1000, u'a')));
        QVERIFY(output->output.endsWith(
            u"\n\n(output beyond %1 characters was discarded)"_s.arg(BashTool::MaxCapturedOutput)));
        QVERIFY(output->output.size() < BashTool::MaxCapturedOutput + 100);
    }

    void invalidUtf8OutputIsReplacedNotLost()
    {
        const ToolResult result = run(bash(u"printf '\\377\\376 ok'"_s));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QVERIFY(output->output.endsWith(u" ok"_s));
    }

    void badArgumentsAreRefusedBeforeAnything()
    {
        const std::optional<ToolFailure> negative = test::failureOf(run(bash(u"touch ran"_s, {{"timeout"_L1, -1}})));
        QVERIFY(negative);
        QCOMPARE(negative->message, u"Invalid timeout value: -1. Timeout must be a positive number."_s);
        QVERIFY(test::failureOf(run(bash(u"touch ran"_s, {{"timeout"_L1, u"soon"_s}}))));
        QVERIFY(test::failureOf(run(bash(u"  "_s))));
        QVERIFY(test::failureOf(run(QJsonObject{{"description"_L1, u"x"_s}})));
        QVERIFY(m_asker.requests.isEmpty());
        QVERIFY(!QFile::exists(project() + u"/ran"_s));
    }

    void withoutAnAskerNothingRuns()
    {
        ToolContext toolContext = context();
        toolContext.permissions = nullptr;
        QVERIFY(test::failureOf(run(bash(u"touch ran"_s), toolContext)));
        QVERIFY(!QFile::exists(project() + u"/ran"_s));
    }

    void theShellIsPosix()
    {
        const QString shell = BashTool::shell();
        QVERIFY(!shell.endsWith(u"/fish"_s));
        QVERIFY(QFileInfo(shell).isExecutable());
    }
};

QTEST_GUILESS_MAIN(BashToolTest)
#include "tst_bash_tool.moc"
