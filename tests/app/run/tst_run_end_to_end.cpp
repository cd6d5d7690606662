// `qcode run` end to end: the built binary, in a sandbox of temporary XDG
// folders, against FakeProviderServer instances in this process (an
// opencode.json custom provider, "@ai-sdk/openai-compatible", points at
// them). Checks what a script sees — stdout, stderr, exit status — and
// what the database keeps.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <sys/stat.h>

#include "FakeProviderServer.h"
#include "RunSandbox.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

constexpr int RunTimeoutMs = 60000;

struct RunResult {
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
};

} // namespace

class RunEndToEndTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();

    void answerStreamsToStdout();
    void jsonPrintsOneBusEventPerLine();
    void dataAndConfigFollowXdgFolders();
    void messageFromStandardInput();
    void fileIsAttachedToTheMessage();
    void toolActivityGoesToStderr();
    void continueAndSessionReuseTheSession();
    void providerErrorFailsWithItsMessage();
    void aContextOverflowWithAutoCompactionOffFailsWithoutASummary();
    void askedPermissionIsRefusedWithoutAutoApprove();
    void aRefusedPermissionIsInTheJsonEventsAndTheRunStillSucceeds();
    void aProviderFailureAfterARefusalStillFailsTheRun();
    void autoApproveAllowsAskedPermission();
    void badInputFailsBeforeAnythingIsCreated_data();
    void badInputFailsBeforeAnythingIsCreated();
    void interruptAbortsAndKeepsTheSessionConsistent();
    void helpNeedsNoDisplay();
    void aDenyRuleInABrokenFileFailsTheRunInsteadOfVanishing();
    void aConfigKeyOfTheWrongTypeFailsWithItsLineAndColumn();
    void aPipeInTheConfigsPlaceFailsAtOnce();
    void aNoteIsPrintedOnceAndTheRunGoesOn();

private:
    RunResult run(const QStringList &arguments, const QByteArray &standardInput = {}, bool closeInput = true,
                  const QProcessEnvironment &extraEnvironment = {});
    // The run failed before anything was created: no request, no session.
    void verifyNothingRan(const RunResult &result);
    std::unique_ptr<Store> openDatabase() const;

    std::unique_ptr<RunSandbox> m_sandbox;
    std::unique_ptr<FakeProviderServer> m_server;
    std::unique_ptr<FakeProviderServer> m_titles;
};

void RunEndToEndTest::init()
{
    m_sandbox = std::make_unique<RunSandbox>();
    QVERIFY(m_sandbox->isValid());
    m_server = std::make_unique<FakeProviderServer>();
    m_titles = std::make_unique<FakeProviderServer>();
    QVERIFY(m_server->isListening());
    QVERIFY(m_titles->isListening());
    // Title calls go to their own server; give it answers to spare.
    for (int i = 0; i < 4; ++i)
        m_titles->enqueue(FakeTurn().text({u"Greeting"_s}).usage(5, 1));
    QVERIFY(m_sandbox->writeConfig(m_server->baseUrl(), m_titles->baseUrl()));
    QVERIFY(m_sandbox->writeProjectFile(u"notes.txt"_s, "alpha\nbeta\n"));
}

RunResult RunEndToEndTest::run(const QStringList &arguments, const QByteArray &standardInput, bool closeInput,
                               const QProcessEnvironment &extraEnvironment)
{
    QProcess process;
    process.setProgram(QStringLiteral(QCODE_BINARY));
    process.setArguments(QStringList{u"run"_s} + arguments);
    QProcessEnvironment environment = m_sandbox->environment();
    environment.insert(extraEnvironment);
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(m_sandbox->projectDirectory());
    QSignalSpy finished(&process, &QProcess::finished);
    process.start();
    if (!process.waitForStarted(RunTimeoutMs))
        return {};
    if (!standardInput.isEmpty())
        process.write(standardInput);
    if (closeInput)
        process.closeWriteChannel();
    // The event loop keeps turning while qcode runs: the fake servers live
    // in this process.
    if (!finished.wait(RunTimeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    RunResult result;
    result.crashed = process.exitStatus() != QProcess::NormalExit;
    result.exitCode = process.exitCode();
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

std::unique_ptr<Store> RunEndToEndTest::openDatabase() const
{
    auto store = Store::open(m_sandbox->databaseFile());
    if (!store)
        return nullptr;
    return std::move(store).value();
}

void RunEndToEndTest::answerStreamsToStdout()
{
    m_server->enqueue(FakeTurn().text({u"Hello"_s, u", "_s, u"world."_s}).usage(12, 4));
    const RunResult result = run({u"say"_s, u"hello"_s});
    QVERIFY2(!result.crashed, qPrintable(result.err));
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, u"Hello, world.\n"_s);
    QVERIFY2(result.err.contains(u"> build · fake-model"_s), qPrintable(result.err));
    QVERIFY2(!result.err.contains(u"Error"_s), qPrintable(result.err));

    QCOMPARE(m_server->requests().size(), 1);
    const QJsonObject body = m_server->requests().at(0).json();
    QCOMPARE(body.value("model"_L1).toString(), u"fake-model"_s);
    QVERIFY(QString::fromUtf8(m_server->requests().at(0).body).contains(u"say hello"_s));
}

void RunEndToEndTest::jsonPrintsOneBusEventPerLine()
{
    m_server->enqueue(FakeTurn().text({u"Hel"_s, u"lo"_s}).usage(12, 4));
    const RunResult result = run({u"--format"_s, u"json"_s, u"hi"_s});
    QVERIFY2(!result.crashed, qPrintable(result.err));
    QCOMPARE(result.exitCode, 0);
    QStringList types;
    QString streamed;
    QString sessionID;
    const QStringList lines = result.out.split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty());
    for (const QString &line : lines) {
        QJsonParseError error;
        const QJsonObject event = QJsonDocument::fromJson(line.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(line));
        QVERIFY2(event.contains("type"_L1) && event.value("properties"_L1).isObject(), qPrintable(line));
        const QString type = event.value("type"_L1).toString();
        const QJsonObject properties = event.value("properties"_L1).toObject();
        types.append(type);
        if (type == "session.created"_L1)
            sessionID = properties.value("info"_L1).toObject().value("id"_L1).toString();
        if (type == "message.part.delta"_L1)
            streamed += properties.value("delta"_L1).toString();
    }
    QVERIFY2(types.contains(u"session.created"_s), qPrintable(types.join(u' ')));
    QVERIFY(types.contains(u"message.updated"_s));
    QVERIFY(types.contains(u"message.part.updated"_s));
    QVERIFY(types.contains(u"session.status"_s));
    QCOMPARE(streamed, u"Hello"_s);
    QVERIFY(sessionID.startsWith(u"ses_"_s));
    // The answer text is only inside the JSON: stdout has nothing else.
    QVERIFY(!result.out.contains(u"\nHello"_s));
}

void RunEndToEndTest::dataAndConfigFollowXdgFolders()
{
    m_server->enqueue(FakeTurn().text({u"Stored."_s}).usage(12, 4));
    const RunResult result = run({u"remember"_s, u"this"_s});
    QCOMPARE(result.exitCode, 0);
    // The config was found under XDG_CONFIG_HOME (the fake provider was
    // called), and the database lives under XDG_DATA_HOME.
    QCOMPARE(m_server->requests().size(), 1);
    QVERIFY2(QFileInfo::exists(m_sandbox->databaseFile()), qPrintable(m_sandbox->databaseFile()));
    auto store = openDatabase();
    QVERIFY(store);
    auto project = store->projectForWorktree(u"/"_s);
    QVERIFY(project.ok());
    QVERIFY(project->has_value());
    auto sessions = store->sessions((*project)->id);
    QVERIFY(sessions.ok());
    QCOMPARE(sessions->size(), 1);
    QCOMPARE(QDir::cleanPath(sessions->constFirst().directory), QDir::cleanPath(m_sandbox->projectDirectory()));
    auto messages = store->messages(sessions->constFirst().id);
    QVERIFY(messages.ok());
    QCOMPARE(messages->size(), 2);
    QVERIFY(messages->at(0).info.isUser());
    QVERIFY(messages->at(1).info.isAssistant());
    bool answered = false;
    for (const Part &part : messages->at(1).parts) {
        if (const auto *text = part.as<TextPart>())
            answered = answered || text->text == "Stored."_L1;
    }
    QVERIFY(answered);
}

void RunEndToEndTest::messageFromStandardInput()
{
    m_server->enqueue(FakeTurn().text({u"Piped."_s}).usage(12, 4));
    const RunResult result = run({}, "question from a pipe\n");
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(result.out, u"Piped.\n"_s);
    QVERIFY(QString::fromUtf8(m_server->requests().at(0).body).contains(u"question from a pipe"_s));
}

void RunEndToEndTest::fileIsAttachedToTheMessage()
{
    m_server->enqueue(FakeTurn().text({u"Two lines."_s}).usage(12, 4));
    const RunResult result = run({u"--file"_s, u"notes.txt"_s, u"what is in it?"_s});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const QString body = QString::fromUtf8(m_server->requests().at(0).body);
    // The file's text went to the model, read as the read tool reads it.
    QVERIFY2(body.contains(u"alpha"_s) && body.contains(u"beta"_s), qPrintable(body.left(2000)));
    QVERIFY(body.contains(u"what is in it?"_s));
}

void RunEndToEndTest::toolActivityGoesToStderr()
{
    const QString path = QDir(m_sandbox->projectDirectory()).filePath(u"notes.txt"_s);
    m_server->enqueue(FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, path}}).usage(20, 5));
    m_server->enqueue(FakeTurn().text({u"It lists alpha and beta."_s}).usage(40, 6));
    const RunResult result = run({u"read"_s, u"notes.txt"_s});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(result.out, u"It lists alpha and beta.\n"_s);
    QVERIFY2(result.err.contains(u"| Read "_s), qPrintable(result.err));
    QCOMPARE(m_server->requests().size(), 2);
    // The tool's output went back to the model.
    QVERIFY(QString::fromUtf8(m_server->requests().at(1).body).contains(u"alpha"_s));
}

void RunEndToEndTest::continueAndSessionReuseTheSession()
{
    m_server->enqueue(FakeTurn().text({u"First."_s}).usage(12, 4));
    m_server->enqueue(FakeTurn().text({u"Second."_s}).usage(12, 4));
    m_server->enqueue(FakeTurn().text({u"Third."_s}).usage(12, 4));
    QCOMPARE(run({u"one"_s}).exitCode, 0);
    const RunResult second = run({u"--continue"_s, u"two"_s});
    QVERIFY2(second.exitCode == 0, qPrintable(second.err));
    QCOMPARE(second.out, u"Second.\n"_s);
    // The continued conversation reached the model whole.
    const QString body = QString::fromUtf8(m_server->requests().at(1).body);
    QVERIFY(body.contains(u"First."_s) && body.contains(u"two"_s));

    auto store = openDatabase();
    QVERIFY(store);
    auto project = store->projectForWorktree(u"/"_s);
    QVERIFY(project.ok() && project->has_value());
    auto sessions = store->sessions((*project)->id);
    QCOMPARE(sessions->size(), 1);
    const QString id = sessions->constFirst().id;
    store.reset();

    const RunResult third = run({u"--session"_s, id, u"three"_s});
    QVERIFY2(third.exitCode == 0, qPrintable(third.err));
    store = openDatabase();
    QCOMPARE(store->messages(id)->size(), 6);
}

void RunEndToEndTest::providerErrorFailsWithItsMessage()
{
    m_server->enqueue(FakeTurn::httpError(
        401, QJsonDocument(QJsonObject{{u"error"_s, QJsonObject{{u"message"_s, u"Invalid API key provided"_s},
                                                                  {u"type"_s, u"invalid_request_error"_s}}}})
                 .toJson(QJsonDocument::Compact)));
    const RunResult result = run({u"hi"_s});
    QVERIFY(!result.crashed);
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains(u"Invalid API key provided"_s), qPrintable(result.err));
    QCOMPARE(result.out, QString());
}

void RunEndToEndTest::aContextOverflowWithAutoCompactionOffFailsWithoutASummary()
{
    QVERIFY(m_sandbox->writeConfig(m_server->baseUrl(), m_titles->baseUrl(),
                                   QJsonObject{{u"compaction"_s, QJsonObject{{u"auto"_s, false}}}}));
    const QJsonObject overflow{{u"message"_s, u"This model's maximum context length is 8192 tokens."_s},
                               {u"type"_s, u"invalid_request_error"_s},
                               {u"code"_s, u"context_length_exceeded"_s}};
    m_server->enqueue(FakeTurn::httpError(
        400, QJsonDocument(QJsonObject{{u"error"_s, overflow}}).toJson(QJsonDocument::Compact)));
    // What a summary and the turn after it would get, were one asked for.
    m_server->enqueue(FakeTurn().text({u"## Goal\nsummary"_s}).usage(100, 10));
    m_server->enqueue(FakeTurn().text({u"continuing"_s}).usage(100, 10));
    const RunResult result = run({u"hi"_s});
    QVERIFY(!result.crashed);
    QVERIFY2(result.exitCode == 1, qPrintable(result.err));
    QVERIFY2(result.err.contains(u"maximum context length"_s), qPrintable(result.err));
    QCOMPARE(m_server->requests().size(), 1);
    QCOMPARE(result.out, QString());
}

void RunEndToEndTest::askedPermissionIsRefusedWithoutAutoApprove()
{
    // The config makes reading ask; nobody can answer in a headless run.
    QVERIFY(m_sandbox->writeConfig(m_server->baseUrl(), m_titles->baseUrl(),
                                   QJsonObject{{u"permission"_s, QJsonObject{{u"read"_s, u"ask"_s}}}}));
    const QString path = QDir(m_sandbox->projectDirectory()).filePath(u"notes.txt"_s);
    m_server->enqueue(FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, path}}).usage(20, 5));
    m_server->enqueue(FakeTurn().text({u"Could not read it."_s}).usage(40, 6));
    const RunResult result = run({u"read"_s, u"notes.txt"_s});
    QVERIFY(!result.crashed);
    // One line names the permission and what it was for, and how to allow it.
    QVERIFY2(result.err.contains(u"! Permission refused: read ("_s) && result.err.contains(u"notes.txt"_s),
             qPrintable(result.err));
    QVERIFY2(result.err.contains(u"--auto-approve"_s), qPrintable(result.err));
    // The refusal is on the way, not a failure of the run: the answer
    // finished, so the exit is 0; the file's content never reached the model.
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(!result.err.contains(u"Error:"_s), qPrintable(result.err));
    for (const RecordedRequest &request : m_server->requests())
        QVERIFY(!QString::fromUtf8(request.body).contains(u"beta"_s));
}

void RunEndToEndTest::aRefusedPermissionIsInTheJsonEventsAndTheRunStillSucceeds()
{
    QVERIFY(m_sandbox->writeConfig(m_server->baseUrl(), m_titles->baseUrl(),
                                   QJsonObject{{u"permission"_s, QJsonObject{{u"read"_s, u"ask"_s}}}}));
    const QString path = QDir(m_sandbox->projectDirectory()).filePath(u"notes.txt"_s);
    m_server->enqueue(FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, path}}).usage(20, 5));
    m_server->enqueue(FakeTurn().text({u"Could not read it."_s}).usage(40, 6));
    const RunResult result = run({u"--format"_s, u"json"_s, u"read"_s, u"notes.txt"_s});
    QVERIFY(!result.crashed);
    QVERIFY2(result.exitCode == 0, qPrintable(result.out + result.err));
    QStringList types;
    QString refusal;
    for (const QString &line : result.out.split(u'\n', Qt::SkipEmptyParts)) {
        const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
        const QString type = event.value("type"_L1).toString();
        types.append(type);
        const QJsonObject error = event.value("properties"_L1).toObject().value("error"_L1).toObject();
        if (type == "session.error"_L1 && error.value("name"_L1).toString() == "PermissionRefused"_L1)
            refusal = error.value("data"_L1).toObject().value("message"_L1).toString();
    }
    QVERIFY2(types.contains(u"permission.asked"_s), qPrintable(types.join(u' ')));
    QVERIFY2(refusal.contains(u"notes.txt"_s), qPrintable(result.out));
}

void RunEndToEndTest::aProviderFailureAfterARefusalStillFailsTheRun()
{
    QVERIFY(m_sandbox->writeConfig(m_server->baseUrl(), m_titles->baseUrl(),
                                   QJsonObject{{u"permission"_s, QJsonObject{{u"read"_s, u"ask"_s}}},
                                               {u"experimental"_s, QJsonObject{{u"continue_loop_on_deny"_s, true}}}}));
    const QString path = QDir(m_sandbox->projectDirectory()).filePath(u"notes.txt"_s);
    m_server->enqueue(FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, path}}).usage(20, 5));
    m_server->enqueue(FakeTurn::httpError(
        401, QJsonDocument(QJsonObject{{u"error"_s, QJsonObject{{u"message"_s, u"Invalid API key provided"_s},
                                                                  {u"type"_s, u"invalid_request_error"_s}}}})
                 .toJson(QJsonDocument::Compact)));
    const RunResult result = run({u"read"_s, u"notes.txt"_s});
    QVERIFY(!result.crashed);
    QVERIFY2(result.err.contains(u"! Permission refused: read ("_s), qPrintable(result.err));
    QVERIFY2(result.exitCode == 1, qPrintable(result.err));
}

void RunEndToEndTest::autoApproveAllowsAskedPermission()
{
    QVERIFY(m_sandbox->writeConfig(m_server->baseUrl(), m_titles->baseUrl(),
                                   QJsonObject{{u"permission"_s, QJsonObject{{u"read"_s, u"ask"_s}}}}));
    const QString path = QDir(m_sandbox->projectDirectory()).filePath(u"notes.txt"_s);
    m_server->enqueue(FakeTurn().toolCall(u"read"_s, QJsonObject{{u"filePath"_s, path}}).usage(20, 5));
    m_server->enqueue(FakeTurn().text({u"Read it."_s}).usage(40, 6));
    const RunResult result = run({u"--auto-approve"_s, u"read"_s, u"notes.txt"_s});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(result.out, u"Read it.\n"_s);
    QVERIFY2(result.err.contains(u"! Permission granted: read ("_s), qPrintable(result.err));
    QVERIFY2(result.err.contains(u"| Read "_s), qPrintable(result.err));
    // The tool ran: its output (the file's lines) went back to the model.
    QCOMPARE(m_server->requests().size(), 2);
    QVERIFY(QString::fromUtf8(m_server->requests().at(1).body).contains(u"beta"_s));
}

void RunEndToEndTest::badInputFailsBeforeAnythingIsCreated_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("bad model text") << QStringList{u"-m"_s, u"nomodel"_s, u"hi"_s} << 2 << u"provider/model"_s;
    QTest::newRow("unknown option") << QStringList{u"--frobnicate"_s, u"hi"_s} << 2 << u"frobnicate"_s;
    QTest::newRow("missing file") << QStringList{u"-f"_s, u"ghost.txt"_s, u"hi"_s} << 2 << u"ghost.txt"_s;
    QTest::newRow("missing folder") << QStringList{u"--dir"_s, u"nowhere"_s, u"hi"_s} << 2 << u"nowhere"_s;
    QTest::newRow("no message") << QStringList{} << 2 << u"message"_s;
    QTest::newRow("unknown agent") << QStringList{u"--agent"_s, u"wizard"_s, u"hi"_s} << 1 << u"wizard"_s;
    QTest::newRow("subagent") << QStringList{u"--agent"_s, u"explore"_s, u"hi"_s} << 1 << u"subagent"_s;
    QTest::newRow("unknown model") << QStringList{u"-m"_s, u"fake/nope"_s, u"hi"_s} << 1 << u"fake/nope"_s;
    QTest::newRow("unknown session") << QStringList{u"-s"_s, u"ses_0000000000000000000000000"_s, u"hi"_s} << 1
                                     << u"ses_0000000000000000000000000"_s;
    QTest::newRow("nothing to continue") << QStringList{u"-c"_s, u"hi"_s} << 1 << u"continue"_s;
}

void RunEndToEndTest::badInputFailsBeforeAnythingIsCreated()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, mentions);
    const RunResult result = run(arguments);
    QVERIFY(!result.crashed);
    QCOMPARE(result.exitCode, exitCode);
    QVERIFY2(result.err.contains(mentions), qPrintable(result.err));
    QCOMPARE(result.out, QString());
    QCOMPARE(m_server->requests().size(), 0);
    // No session was created for a run that could not start.
    if (QFileInfo::exists(m_sandbox->databaseFile())) {
        auto store = openDatabase();
        QVERIFY(store);
        auto project = store->projectForWorktree(u"/"_s);
        QVERIFY(project.ok());
        if (project->has_value())
            QCOMPARE(store->sessions((*project)->id)->size(), 0);
    }
}

void RunEndToEndTest::interruptAbortsAndKeepsTheSessionConsistent()
{
    // The provider sends a little, then goes quiet with the socket open.
    m_server->enqueue(FakeTurn().text({u"Partial "_s, u"answer"_s, u" never ends"_s}).stallAfter(4));
    QProcess process;
    process.setProgram(QStringLiteral(QCODE_BINARY));
    process.setArguments({u"run"_s, u"go"_s});
    process.setProcessEnvironment(m_sandbox->environment());
    process.setWorkingDirectory(m_sandbox->projectDirectory());
    QSignalSpy finished(&process, &QProcess::finished);
    process.start();
    QVERIFY(process.waitForStarted());
    process.closeWriteChannel();
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += process.readAllStandardOutput()).contains("Partial"), RunTimeoutMs);
    process.terminate(); // SIGTERM, handled as Ctrl-C
    QVERIFY(finished.wait(RunTimeoutMs));
    out += process.readAllStandardOutput();
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 130);
    QVERIFY2(out.startsWith("Partial "), out.constData());

    // The session is idle and its answer is closed: a later run continues it.
    auto store = openDatabase();
    QVERIFY(store);
    auto project = store->projectForWorktree(u"/"_s);
    QVERIFY(project.ok() && project->has_value());
    auto sessions = store->sessions((*project)->id);
    QCOMPARE(sessions->size(), 1);
    auto messages = store->messages(sessions->constFirst().id);
    QCOMPARE(messages->size(), 2);
    const AssistantMessage *answer = messages->at(1).info.assistant();
    QVERIFY(answer);
    QVERIFY2(answer->completed.has_value(), qPrintable(err));
    store.reset();
    m_server->enqueue(FakeTurn().text({u"Resumed."_s}).usage(12, 4));
    const RunResult resumed = run({u"--continue"_s, u"again"_s});
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
    QCOMPARE(resumed.out, u"Resumed.\n"_s);
}

void RunEndToEndTest::helpNeedsNoDisplay()
{
    const RunResult help = run({u"--help"_s});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.startsWith(u"Usage: qcode run"_s));
    QVERIFY(help.out.contains(u"--auto-approve"_s));
}

void RunEndToEndTest::verifyNothingRan(const RunResult &result)
{
    QVERIFY(!result.crashed);
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.out, QString());
    QCOMPARE(m_server->requests().size(), 0);
    QVERIFY2(!result.err.contains(u"No model"_s), qPrintable(result.err));
    if (QFileInfo::exists(m_sandbox->databaseFile())) {
        auto store = openDatabase();
        QVERIFY(store);
        auto project = store->projectForWorktree(u"/"_s);
        QVERIFY(project.ok());
        if (project->has_value())
            QCOMPARE(store->sessions((*project)->id)->size(), 0);
    }
}

void RunEndToEndTest::aDenyRuleInABrokenFileFailsTheRunInsteadOfVanishing()
{
    // The missing comma on line 3 once made qcode skip the file, and with
    // it the deny: the command ran.
    QVERIFY(m_sandbox->writeProjectFile(u"opencode.json"_s,
                                        "{\n  \"permission\": {\n    \"bash\": \"deny\"\n    \"edit\": \"ask\"\n  }\n}\n"));
    m_server->enqueue(FakeTurn().toolCall(u"bash"_s, QJsonObject{{u"command"_s, u"touch ran"_s}}).usage(10, 2));
    const RunResult result = run({u"--auto-approve"_s, u"run"_s, u"touch"_s});
    verifyNothingRan(result);
    const QString expected = u"Error: "_s + QDir(m_sandbox->projectDirectory()).filePath(u"opencode.json"_s) + u":4:5: "_s;
    const QStringList lines = result.err.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines.constLast().startsWith(expected), qPrintable(result.err));
    QVERIFY(!QFileInfo::exists(QDir(m_sandbox->projectDirectory()).filePath(u"ran"_s)));
}

void RunEndToEndTest::aConfigKeyOfTheWrongTypeFailsWithItsLineAndColumn()
{
    QVERIFY(m_sandbox->writeProjectFile(u".opencode/opencode.jsonc"_s,
                                        "// the project's rules\n{\"permission\": [\"bash\", \"deny\"]}\n"));
    const RunResult result = run({u"hi"_s});
    verifyNothingRan(result);
    const QString file = QDir(m_sandbox->projectDirectory()).filePath(u".opencode/opencode.jsonc"_s);
    QCOMPARE(result.err, u"Error: %1:2:16: \"permission\" must be \"allow\", \"ask\", \"deny\" or an object of them, "
                         "not a list\n"_s.arg(file));
}

void RunEndToEndTest::aPipeInTheConfigsPlaceFailsAtOnce()
{
    const QString fifo = QDir(m_sandbox->projectDirectory()).filePath(u"opencode.jsonc"_s);
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const RunResult result = run({u"hi"_s});
    verifyNothingRan(result);
    QCOMPARE(result.err, u"Error: %1: is a named pipe (FIFO), not a file\n"_s.arg(fifo));
}

void RunEndToEndTest::aNoteIsPrintedOnceAndTheRunGoesOn()
{
    m_server->enqueue(FakeTurn().text({u"Fine."_s}).usage(5, 1));
    QProcessEnvironment extra;
    extra.insert(u"QCODE_CONFIG"_s, QDir(m_sandbox->root()).filePath(u"nowhere.json"_s));
    const RunResult result = run({u"hi"_s}, {}, true, extra);
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(result.out, u"Fine.\n"_s);
    QCOMPARE(result.err.count(u"nowhere.json"_s), 1);
    QVERIFY2(result.err.contains(u"Note: "_s), qPrintable(result.err));
}

QTEST_GUILESS_MAIN(RunEndToEndTest)
#include "tst_run_end_to_end.moc"
