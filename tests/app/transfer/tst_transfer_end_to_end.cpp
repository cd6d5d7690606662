// `qcode export`, `qcode import` and `qcode sessions` end to end: the built
// binary in sandboxes of temporary XDG folders (RunSandbox), each with its
// own database. Checks what a script sees — stdout, stderr, exit status —
// and what the databases keep.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QTest>

#include "RunSandbox.h"
#include "TempDatabase.h"
#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

constexpr int CommandTimeoutMs = 60000;

struct CommandResult {
    int exitCode = -1;
    bool crashed = true;
    QByteArray out;
    QString err;
};

#define REQUIRE(expr)                                                                                                  \
    do {                                                                                                               \
        const auto &result_ = (expr);                                                                                  \
        QVERIFY2(result_.ok(), qPrintable(result_.errorMessage()));                                                    \
    } while (false)

CommandResult runQcode(const RunSandbox &sandbox, const QStringList &arguments, const QByteArray &standardInput = {},
                       const QProcessEnvironment &environment = {})
{
    QProcess process;
    process.setProgram(QStringLiteral(QCODE_BINARY));
    process.setArguments(arguments);
    process.setProcessEnvironment(environment.isEmpty() ? sandbox.environment() : environment);
    process.setWorkingDirectory(sandbox.projectDirectory());
    process.start();
    CommandResult result;
    if (!process.waitForStarted(CommandTimeoutMs))
        return result;
    process.write(standardInput);
    process.closeWriteChannel();
    if (!process.waitForFinished(CommandTimeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    result.crashed = process.exitStatus() != QProcess::NormalExit;
    result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = QString::fromLocal8Bit(process.readAllStandardError());
    return result;
}

// Every session in the store with its messages and parts, as JSON: what
// "unchanged" and "the same" are measured by.
QJsonArray contentsOf(const QString &databaseFile)
{
    auto store = Store::open(databaseFile);
    if (!store)
        return {};
    auto sessions = (*store)->allSessions();
    if (!sessions)
        return {};
    QJsonArray all;
    for (const Session &session : std::as_const(*sessions)) {
        QJsonArray messages;
        const auto stored = (*store)->messages(session.id);
        for (const MessageWithParts &message : stored ? *stored : QList<MessageWithParts>())
            messages.append(message.toJson());
        all.append(QJsonObject{{"info"_L1, session.toJson()}, {"messages"_L1, messages}});
    }
    return all;
}

QString firstWord(const QByteArray &line)
{
    return QString::fromUtf8(line).section(u' ', 0, 0).trimmed();
}

} // namespace

class TransferEndToEndTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();

    void exportedJsonImportsIntoAnotherDataFolderWithTheSameMessagesAndParts();
    void importReadsStandardInputForADash();
    void importWorksBesideAnOpenConnection();
    void markdownExportIsTheSessionToRead();
    void outputFileFormatFollowsTheFlagThenTheName_data();
    void outputFileFormatFollowsTheFlagThenTheName();
    void anUnwritableOutputFailsAndLeavesNoFile();
    void unknownSessionFailsNamingIt();
    void exportWithoutADatabaseFailsAndCreatesNone();
    void aUniquePrefixIsEnoughAndAnAmbiguousOneListsTheMatches();
    void badFilesFailAndLeaveTheDatabaseUnchanged_data();
    void badFilesFailAndLeaveTheDatabaseUnchanged();
    void aFailedImportCreatesNoDatabase();
    void importingASessionThatIsAlreadyHereIsRefused();
    void anExportReusingAnotherSessionsIdsFailsAndChangesNothing();
    void sessionsListsTopLevelSessionsNewestFirst();
    void sessionsDirKeepsThatFoldersSessions();
    void theDataFolderChosenInSettingsIsUsed();
    void badCommandLinesExitWithTwo_data();
    void badCommandLinesExitWithTwo();
    void helpNeedsNoDisplay_data();
    void helpNeedsNoDisplay();
    void mainHelpListsTheCommands();

private:
    // A session of the source sandbox with a question, reasoning, a tool
    // call and an answer.
    Session seed(const QString &title, qint64 updated);

    std::unique_ptr<RunSandbox> m_source;
    std::unique_ptr<RunSandbox> m_target;
    Session m_session;
};

void TransferEndToEndTest::init()
{
    m_source = std::make_unique<RunSandbox>();
    m_target = std::make_unique<RunSandbox>();
    QVERIFY(m_source->isValid());
    QVERIFY(m_target->isValid());
    m_session = seed(u"Fix the login bug"_s, 1760000100000);
    QVERIFY(!m_session.id.isEmpty());
}

Session TransferEndToEndTest::seed(const QString &title, qint64 updated)
{
    auto opened = Store::open(m_source->databaseFile());
    if (!opened)
        return {};
    Store &store = **opened;
    Session session = makeSession();
    session.title = title;
    session.directory = m_source->projectDirectory();
    session.time.updated = updated;
    if (!store.upsertProject(makeProject(u"global"_s, u"/"_s)) || !store.upsertSession(session))
        return {};

    const Message user = makeUserMessage(session.id, 1760000000000);
    Message assistant = makeAssistantMessage(session.id, user.id(), 1760000001000);
    assistant.assistant()->finish = u"stop"_s;
    assistant.assistant()->cost = 0.002;
    ToolPart tool{u"call_1"_s, u"read"_s, ToolPending{}, {}, {}};
    if (!tool.start(QJsonObject{{"filePath"_L1, "src/auth.cpp"_L1}}, 1760000002000) ||
        !tool.complete(u"1: bool login()"_s, u"src/auth.cpp"_s, {}, 1760000003000))
        return {};
    const auto part = [&](PartBody body) {
        return Part{Identifier::ascending(Identifier::Prefix::Part), session.id, assistant.id(), std::move(body), {}};
    };
    const QList<Part> parts{
        part(StepStartPart{}),
        part(ReasoningPart{u"The token check looks wrong."_s, {}, PartTime{1760000001500, 1760000001600}}),
        part(tool),
        part(TextPart{u"The token expires a minute early."_s, {}, {}, {}, {}}),
        part(StepFinishPart{u"stop"_s, {}, 0.002, TokenUsage{}}),
    };
    if (!store.updateMessage(user) ||
        !store.updatePart(makeTextPart(session.id, user.id(), u"Why does login fail?"_s)) ||
        !store.updateMessage(assistant))
        return {};
    for (const Part &p : parts) {
        if (!store.updatePart(p))
            return {};
    }
    return session;
}

void TransferEndToEndTest::exportedJsonImportsIntoAnotherDataFolderWithTheSameMessagesAndParts()
{
    const CommandResult exported = runQcode(*m_source, {u"export"_s, m_session.id});
    QVERIFY2(!exported.crashed, qPrintable(exported.err));
    QCOMPARE(exported.exitCode, 0);
    QCOMPARE(exported.err, QString());
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(exported.out, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, exported.out.constData());
    // OpenCode's export shape: {info, messages: [{info, parts}]}.
    QCOMPARE(json.value("info"_L1).toObject().value("id"_L1).toString(), m_session.id);
    QCOMPARE(json.value("messages"_L1).toArray().size(), 2);
    QCOMPARE(json.value("messages"_L1).toArray().at(1).toObject().value("parts"_L1).toArray().size(), 5);

    const QString file = QDir(m_target->root()).filePath(u"session.json"_s);
    QFile written(file);
    QVERIFY(written.open(QIODevice::WriteOnly));
    written.write(exported.out);
    written.close();

    const CommandResult imported = runQcode(*m_target, {u"import"_s, file});
    QVERIFY2(!imported.crashed, qPrintable(imported.err));
    QCOMPARE(imported.exitCode, 0);
    QCOMPARE(imported.out, QString(m_session.id + u"  Fix the login bug\n"_s).toUtf8());

    QCOMPARE(contentsOf(m_target->databaseFile()), contentsOf(m_source->databaseFile()));
    // And back out of the target, byte for byte what the source exported.
    const CommandResult again = runQcode(*m_target, {u"export"_s, m_session.id});
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(again.out, exported.out);
}

void TransferEndToEndTest::importReadsStandardInputForADash()
{
    const CommandResult exported = runQcode(*m_source, {u"export"_s, m_session.id});
    QCOMPARE(exported.exitCode, 0);
    const CommandResult imported = runQcode(*m_target, {u"import"_s, u"-"_s}, exported.out);
    QVERIFY2(!imported.crashed, qPrintable(imported.err));
    QCOMPARE(imported.exitCode, 0);
    QCOMPARE(firstWord(imported.out), m_session.id);
    QCOMPARE(contentsOf(m_target->databaseFile()), contentsOf(m_source->databaseFile()));
}

void TransferEndToEndTest::importWorksBesideAnOpenConnection()
{
    // The window keeps its connection open; an import from a terminal
    // meanwhile lands in the same database and the window can read it.
    auto app = Store::open(m_target->databaseFile());
    REQUIRE(app);
    const CommandResult exported = runQcode(*m_source, {u"export"_s, m_session.id});
    const CommandResult imported = runQcode(*m_target, {u"import"_s, u"-"_s}, exported.out);
    QCOMPARE(imported.exitCode, 0);
    const auto seen = (*app)->messages(m_session.id);
    REQUIRE(seen);
    QCOMPARE(seen->size(), 2);
}

void TransferEndToEndTest::markdownExportIsTheSessionToRead()
{
    const CommandResult result = runQcode(*m_source, {u"export"_s, u"--format"_s, u"markdown"_s, m_session.id});
    QCOMPARE(result.exitCode, 0);
    const QString markdown = QString::fromUtf8(result.out);
    QVERIFY2(markdown.startsWith(u"# Fix the login bug\n"_s), qPrintable(markdown));
    // A transcript for people: where and when, not the session's id.
    QVERIFY(!markdown.contains(m_session.id));
    const qsizetype you = markdown.indexOf(u"## You\n\nWhy does login fail?"_s);
    const qsizetype assistant = markdown.indexOf(u"## Assistant (build · claude-sonnet-4-5)"_s);
    QVERIFY2(you > 0 && assistant > you, qPrintable(markdown));
    QVERIFY(markdown.contains(u"> The token check looks wrong."_s));
    QVERIFY(markdown.contains(u"bool login()"_s));
    QVERIFY(!markdown.contains(u"1: bool login()"_s)); // not the numbers the model reads
    QVERIFY(markdown.contains(u"The token expires a minute early."_s));
    QVERIFY(!markdown.contains(u"\"messages\""_s));
}

void TransferEndToEndTest::outputFileFormatFollowsTheFlagThenTheName_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("markdown");
    QTest::newRow(".md") << QStringList{} << u"out/session.md"_s << true;
    QTest::newRow(".markdown") << QStringList{} << u"session.markdown"_s << true;
    QTest::newRow(".json") << QStringList{} << u"session.json"_s << false;
    QTest::newRow("other name: json") << QStringList{} << u"session.txt"_s << false;
    QTest::newRow("flag over name") << QStringList{u"--format"_s, u"markdown"_s} << u"session.json"_s << true;
    QTest::newRow("md is markdown") << QStringList{u"--format"_s, u"md"_s} << u"session.txt"_s << true;
    QTest::newRow("json flag") << QStringList{u"--format"_s, u"json"_s} << u"session.md"_s << false;
}

void TransferEndToEndTest::outputFileFormatFollowsTheFlagThenTheName()
{
    QFETCH(QStringList, options);
    QFETCH(QString, file);
    QFETCH(bool, markdown);
    // Relative to the folder qcode runs in; missing folders are not made.
    QVERIFY(QDir(m_source->projectDirectory()).mkpath(u"out"_s));
    const CommandResult result =
        runQcode(*m_source, QStringList{u"export"_s, m_session.id.left(12)} + options + QStringList{u"-o"_s, file});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(result.out, QByteArray());
    QFile written(QDir(m_source->projectDirectory()).filePath(file));
    QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(written.fileName()));
    const QByteArray bytes = written.readAll();
    if (markdown) {
        QVERIFY(bytes.startsWith("# Fix the login bug\n"));
    } else {
        const QJsonObject json = QJsonDocument::fromJson(bytes).object();
        QCOMPARE(json.value("info"_L1).toObject().value("id"_L1).toString(), m_session.id);
    }
}

void TransferEndToEndTest::anUnwritableOutputFailsAndLeavesNoFile()
{
    const QString missingFolder = QDir(m_source->root()).filePath(u"no/such/folder/session.json"_s);
    const CommandResult result = runQcode(*m_source, {u"export"_s, m_session.id, u"--output"_s, missingFolder});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.startsWith(u"qcode export: "_s), qPrintable(result.err));
    QVERIFY(!QFileInfo::exists(missingFolder));
}

void TransferEndToEndTest::unknownSessionFailsNamingIt()
{
    const CommandResult result = runQcode(*m_source, {u"export"_s, u"ses_doesnotexist"_s});
    QVERIFY(!result.crashed);
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.out, QByteArray());
    QVERIFY2(result.err.startsWith(u"qcode export: Session not found: ses_doesnotexist."_s), qPrintable(result.err));
}

void TransferEndToEndTest::exportWithoutADatabaseFailsAndCreatesNone()
{
    const CommandResult result = runQcode(*m_target, {u"export"_s, m_session.id});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains(m_session.id), qPrintable(result.err));
    QVERIFY(!QFileInfo::exists(m_target->databaseFile()));
}

void TransferEndToEndTest::aUniquePrefixIsEnoughAndAnAmbiguousOneListsTheMatches()
{
    const Session other = seed(u"Second session"_s, 1760000200000);
    QVERIFY(!other.id.isEmpty());
    qsizetype common = 0;
    while (common < other.id.size() && other.id.at(common) == m_session.id.at(common))
        ++common;
    QVERIFY(common >= 4); // both start with "ses_"

    const CommandResult ambiguous = runQcode(*m_source, {u"export"_s, m_session.id.left(common)});
    QCOMPARE(ambiguous.exitCode, 1);
    QCOMPARE(ambiguous.out, QByteArray());
    QVERIFY2(ambiguous.err.contains(m_session.id) && ambiguous.err.contains(other.id), qPrintable(ambiguous.err));
    QVERIFY(ambiguous.err.contains(u"Second session"_s));

    // Unique one character later, with or without "ses_".
    for (const QString &prefix : {m_session.id.left(common + 1), m_session.id.left(common + 1).mid(4)}) {
        const CommandResult unique = runQcode(*m_source, {u"export"_s, prefix});
        QVERIFY2(unique.exitCode == 0, qPrintable(prefix + u": "_s + unique.err));
        const QJsonObject json = QJsonDocument::fromJson(unique.out).object();
        QCOMPARE(json.value("info"_L1).toObject().value("id"_L1).toString(), m_session.id);
    }
}

void TransferEndToEndTest::badFilesFailAndLeaveTheDatabaseUnchanged_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content"); // absent file when null
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing") << u"missing.json"_s << QByteArray() << u"Cannot read"_s;
    QTest::newRow("empty") << u"empty.json"_s << QByteArray("") << u"it is empty"_s;
    QTest::newRow("malformed") << u"broken.json"_s << QByteArray(R"({"info": {"id": "ses_x", )")
                               << u"invalid at byte"_s;
    QTest::newRow("array") << u"array.json"_s << QByteArray("[1, 2, 3]") << u"not a session export"_s;
    QTest::newRow("no messages") << u"nomessages.json"_s << QByteArray(R"({"info": {"id": "ses_abc"}})")
                                 << u"not a session export"_s;
    QTest::newRow("a folder") << u"folder.json"_s << QByteArray("folder") << u"is a folder"_s;
}

void TransferEndToEndTest::badFilesFailAndLeaveTheDatabaseUnchanged()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const QString path = QDir(m_source->projectDirectory()).filePath(name);
    if (content == "folder") {
        QVERIFY(QDir().mkpath(path));
    } else if (!content.isNull()) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }
    const QJsonArray before = contentsOf(m_source->databaseFile());
    QCOMPARE(before.size(), 1);

    const CommandResult result = runQcode(*m_source, {u"import"_s, name});
    QVERIFY(!result.crashed);
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.out, QByteArray());
    QVERIFY2(result.err.startsWith(u"qcode import: "_s) && result.err.contains(expected), qPrintable(result.err));
    QCOMPARE(contentsOf(m_source->databaseFile()), before);
}

void TransferEndToEndTest::aFailedImportCreatesNoDatabase()
{
    // A message that names another session: the whole export is refused
    // before any database is opened.
    const CommandResult exported = runQcode(*m_source, {u"export"_s, m_session.id});
    QJsonObject json = QJsonDocument::fromJson(exported.out).object();
    QJsonObject info = json.value("info"_L1).toObject();
    info.insert("id"_L1, Identifier::descending(Identifier::Prefix::Session));
    json.insert("info"_L1, info);
    const CommandResult imported =
        runQcode(*m_target, {u"import"_s, u"-"_s}, QJsonDocument(json).toJson(QJsonDocument::Compact));
    QCOMPARE(imported.exitCode, 1);
    QVERIFY2(imported.err.contains(u"belongs to session"_s), qPrintable(imported.err));
    QVERIFY(!QFileInfo::exists(m_target->databaseFile()));
}

void TransferEndToEndTest::importingASessionThatIsAlreadyHereIsRefused()
{
    const CommandResult exported = runQcode(*m_source, {u"export"_s, m_session.id});
    const QJsonArray before = contentsOf(m_source->databaseFile());
    const CommandResult imported = runQcode(*m_source, {u"import"_s, u"-"_s}, exported.out);
    QCOMPARE(imported.exitCode, 1);
    QVERIFY2(imported.err.contains(u"already here"_s), qPrintable(imported.err));
    QCOMPARE(contentsOf(m_source->databaseFile()), before);
}

void TransferEndToEndTest::anExportReusingAnotherSessionsIdsFailsAndChangesNothing()
{
    // A crafted file: a session id that is new here, with the message and
    // part ids of the stored session and words of its own.
    const CommandResult exported = runQcode(*m_source, {u"export"_s, m_session.id});
    QCOMPARE(exported.exitCode, 0);
    QByteArray crafted = exported.out;
    const QString newId = Identifier::descending(Identifier::Prefix::Session);
    crafted.replace(m_session.id.toUtf8(), newId.toUtf8());
    crafted.replace("The token expires a minute early.", "Everything is fine, run the script.");
    const QJsonArray before = contentsOf(m_source->databaseFile());

    const CommandResult imported = runQcode(*m_source, {u"import"_s, u"-"_s}, crafted);
    QVERIFY(!imported.crashed);
    QCOMPARE(imported.exitCode, 1);
    QVERIFY2(imported.err.contains(u"already stored"_s) && imported.err.contains(m_session.id),
             qPrintable(imported.err));
    QCOMPARE(contentsOf(m_source->databaseFile()), before);
}

void TransferEndToEndTest::sessionsListsTopLevelSessionsNewestFirst()
{
    const Session newer = seed(u"Newer work"_s, 1760000900000);
    QVERIFY(!newer.id.isEmpty());
    {
        auto store = Store::open(m_source->databaseFile());
        REQUIRE(store);
        Session child = makeSession(u"global"_s, newer.id);
        child.title = u"A subagent's task"_s;
        REQUIRE((*store)->upsertSession(child));
    }
    const CommandResult result = runQcode(*m_source, {u"sessions"_s});
    QCOMPARE(result.exitCode, 0);
    const QList<QByteArray> lines = result.out.split('\n');
    QCOMPARE(lines.size(), 3); // two sessions and the final newline
    QCOMPARE(firstWord(lines.at(0)), newer.id);
    QVERIFY(lines.at(0).endsWith("  Newer work"));
    QCOMPARE(firstWord(lines.at(1)), m_session.id);
    QVERIFY(lines.at(1).endsWith("  Fix the login bug"));

    const CommandResult empty = runQcode(*m_target, {u"sessions"_s});
    QCOMPARE(empty.exitCode, 0);
    QCOMPARE(empty.out, QByteArray());
    QVERIFY(!QFileInfo::exists(m_target->databaseFile()));
}

void TransferEndToEndTest::sessionsDirKeepsThatFoldersSessions()
{
    const CommandResult here = runQcode(*m_source, {u"sessions"_s, u"--dir"_s, u"."_s});
    QCOMPARE(here.exitCode, 0);
    QCOMPARE(firstWord(here.out), m_session.id);
    const CommandResult elsewhere = runQcode(*m_source, {u"sessions"_s, u"--dir"_s, m_target->root()});
    QCOMPARE(elsewhere.exitCode, 0);
    QCOMPARE(elsewhere.out, QByteArray());
}

void TransferEndToEndTest::theDataFolderChosenInSettingsIsUsed()
{
    // The app's settings file in the target sandbox names the source's
    // data folder, as Settings › Data folder would.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QDir(m_target->root()).filePath(u"config"_s));
    {
        QSettings settings(QSettings::NativeFormat, QSettings::UserScope, QString(), u"qcode"_s);
        settings.setValue(u"data/directory"_s, QFileInfo(m_source->databaseFile()).absolutePath());
        settings.sync();
        // qcode names no organization, so Qt reports AccessError yet reads
        // and writes the file all the same: its existence is the check.
        QVERIFY2(QFileInfo::exists(settings.fileName()), qPrintable(settings.fileName()));
    }
    const CommandResult result = runQcode(*m_target, {u"sessions"_s});
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(firstWord(result.out), m_session.id);

    // QCODE_DATA_DIR still wins over the setting.
    QProcessEnvironment environment = m_target->environment();
    environment.insert(u"QCODE_DATA_DIR"_s, QDir(m_target->root()).filePath(u"elsewhere"_s));
    const CommandResult overridden = runQcode(*m_target, {u"sessions"_s}, {}, environment);
    QCOMPARE(overridden.exitCode, 0);
    QCOMPARE(overridden.out, QByteArray());
}

void TransferEndToEndTest::badCommandLinesExitWithTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("export without id") << QStringList{u"export"_s};
    QTest::newRow("export two ids") << QStringList{u"export"_s, u"ses_a"_s, u"ses_b"_s};
    QTest::newRow("export unknown format") << QStringList{u"export"_s, u"--format"_s, u"xml"_s, u"ses_a"_s};
    QTest::newRow("export unknown option") << QStringList{u"export"_s, u"--bogus"_s, u"ses_a"_s};
    QTest::newRow("export output twice")
        << QStringList{u"export"_s, u"-o"_s, u"a.json"_s, u"-o"_s, u"b.json"_s, u"ses_a"_s};
    QTest::newRow("import without file") << QStringList{u"import"_s};
    QTest::newRow("import two files") << QStringList{u"import"_s, u"a.json"_s, u"b.json"_s};
    QTest::newRow("sessions with a word") << QStringList{u"sessions"_s, u"extra"_s};
    QTest::newRow("sessions dir without value") << QStringList{u"sessions"_s, u"--dir"_s};
}

void TransferEndToEndTest::badCommandLinesExitWithTwo()
{
    QFETCH(QStringList, arguments);
    const QJsonArray before = contentsOf(m_source->databaseFile());
    const CommandResult result = runQcode(*m_source, arguments);
    QVERIFY(!result.crashed);
    QCOMPARE(result.exitCode, 2);
    QCOMPARE(result.out, QByteArray());
    QVERIFY2(result.err.startsWith(u"qcode %1: "_s.arg(arguments.constFirst())), qPrintable(result.err));
    QVERIFY2(result.err.contains(u"Try `qcode %1 --help`."_s.arg(arguments.constFirst())), qPrintable(result.err));
    QCOMPARE(contentsOf(m_source->databaseFile()), before);
}

void TransferEndToEndTest::helpNeedsNoDisplay_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("option");
    QTest::newRow("export") << u"export"_s << u"--output"_s;
    QTest::newRow("import") << u"import"_s << u"standard input"_s;
    QTest::newRow("sessions") << u"sessions"_s << u"--dir"_s;
}

void TransferEndToEndTest::helpNeedsNoDisplay()
{
    QFETCH(QString, command);
    QFETCH(QString, option);
    const CommandResult result = runQcode(*m_target, {command, u"--help"_s});
    QCOMPARE(result.exitCode, 0);
    const QString text = QString::fromLocal8Bit(result.out);
    QVERIFY2(text.startsWith(u"Usage: qcode %1"_s.arg(command)), qPrintable(text));
    QVERIFY(text.contains(option));
    QVERIFY(!QFileInfo::exists(m_target->databaseFile()));
}

void TransferEndToEndTest::mainHelpListsTheCommands()
{
    const CommandResult result = runQcode(*m_target, {u"--help"_s});
    QCOMPARE(result.exitCode, 0);
    const QString text = QString::fromLocal8Bit(result.out);
    for (const QString &command : {u"qcode run"_s, u"qcode export"_s, u"qcode import"_s, u"qcode sessions"_s})
        QVERIFY2(text.contains(command), qPrintable(text));
}

QTEST_GUILESS_MAIN(TransferEndToEndTest)
#include "tst_transfer_end_to_end.moc"
