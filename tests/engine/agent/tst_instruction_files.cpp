#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QSaveFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include "TempTree.h"

#include <QCoro/QCoroTask>

#include <memory>

#include "engine/agent/InstructionFiles.h"
#include "engine/config/Config.h"
#include "engine/config/ConfigLocations.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

// A tiny HTTP server on 127.0.0.1: answers each request with `status` and
// `body`, or never answers when silent.
class TinyHttpServer : public QObject
{
public:
    TinyHttpServer(int status, QByteArray body, bool silent = false)
        : m_status(status), m_body(std::move(body)), m_silent(silent)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    const QByteArray request = socket->readAll();
                    m_paths.append(QString::fromLatin1(request.split(' ').value(1)));
                    if (m_silent)
                        return;
                    socket->write("HTTP/1.1 " + QByteArray::number(m_status) + " X\r\nContent-Type: text/markdown\r\n"
                                  "Connection: close\r\nContent-Length: " + QByteArray::number(m_body.size())
                                  + "\r\n\r\n" + m_body);
                    socket->disconnectFromHost();
                });
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QString url(const QString &path) const { return u"http://127.0.0.1:%1%2"_s.arg(m_server.serverPort()).arg(path); }
    QStringList paths() const { return m_paths; }

private:
    QTcpServer m_server;
    int m_status;
    QByteArray m_body;
    bool m_silent;
    QStringList m_paths;
};

QString closedPortUrl()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return {};
    const quint16 port = probe.serverPort();
    probe.close();
    return u"http://127.0.0.1:%1/gone.md"_s.arg(port);
}

// A completed read tool part whose metadata lists `loaded`.
MessageWithParts readThatLoaded(const QString &loaded, bool compacted = false)
{
    UserMessage user;
    user.id = u"msg_loaded"_s;
    user.sessionID = u"ses_loaded"_s;
    user.agent = u"build"_s;
    ToolCompleted completed;
    completed.output = u"done"_s;
    completed.title = u"Read"_s;
    completed.metadata = QJsonObject{{u"loaded"_s, QJsonArray{loaded}}};
    completed.end = 1;
    if (compacted)
        completed.compacted = 2;
    ToolPart tool;
    tool.callID = u"call_1"_s;
    tool.tool = u"read"_s;
    tool.state = completed;
    Part part;
    part.id = u"prt_loaded"_s;
    part.sessionID = user.sessionID;
    part.messageID = user.id;
    part.body = tool;
    return {Message(user), {part}};
}

} // namespace

// OpenCode's test/session/instruction.test.ts (reference §12.10) and the
// discovery rules of reference §6.2.
class TestInstructionFiles : public QObject
{
    Q_OBJECT

    test::TempTree m_tree;

    QString path(const QString &relative) const { return m_tree.path(relative); }

    void write(const QString &relative, const QByteArray &text) { QVERIFY(m_tree.write(relative, text)); }

    // A home with OpenCode's global folder, a worktree "repo" and a project
    // two levels below it.
    InstructionSources sources() const
    {
        InstructionSources s;
        s.homeDirectory = path(u"home"_s);
        s.globalDirectories = {path(u"home/.config/opencode"_s)};
        s.worktree = path(u"repo"_s);
        s.projectDirectory = path(u"repo/packages/app"_s);
        return s;
    }

    // The project is the worktree root itself, as in OpenCode's tests.
    InstructionSources rootProject() const
    {
        InstructionSources s = sources();
        s.projectDirectory = path(u"repo"_s);
        return s;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(path(u"repo/packages/app/src"_s)));
        QVERIFY(QDir().mkpath(path(u"home/.config/opencode"_s)));
    }

    // --- reference §12.10 ----------------------------------------------------

    void aRootAgentsMdIsASystemFileSoReadingBelowItAddsNothing()
    {
        write(u"repo/AGENTS.md"_s, "# Root Instructions");
        write(u"repo/src/file.ts"_s, "const x = 1");
        InstructionFiles files(rootProject());
        QVERIFY(files.systemPaths().contains(path(u"repo/AGENTS.md"_s)));
        QVERIFY(files.resolve({}, path(u"repo/src/file.ts"_s), u"msg_1"_s).isEmpty());
    }

    void aSubfolderAgentsMdIsAttachedWhenReadingBelowIt()
    {
        write(u"repo/subdir/AGENTS.md"_s, "# Subdir Instructions");
        write(u"repo/subdir/nested/file.ts"_s, "const x = 1");
        InstructionFiles files(rootProject());
        QVERIFY(!files.systemPaths().contains(path(u"repo/subdir/AGENTS.md"_s)));
        const QList<InstructionFiles::Found> found = files.resolve({}, path(u"repo/subdir/nested/file.ts"_s), u"msg_2"_s);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().path, path(u"repo/subdir/AGENTS.md"_s));
        QCOMPARE(found.first().content, u"Instructions from: "_s + path(u"repo/subdir/AGENTS.md"_s) + u"\n# Subdir Instructions"_s);
    }

    void readingTheInstructionFileItselfAddsNothing()
    {
        write(u"repo/subdir/AGENTS.md"_s, "# Subdir Instructions");
        InstructionFiles files(rootProject());
        QVERIFY(files.resolve({}, path(u"repo/subdir/AGENTS.md"_s), u"msg_3"_s).isEmpty());
    }

    void theSameInstructionsAreAttachedOncePerMessageUntilCleared()
    {
        write(u"repo/subdir/AGENTS.md"_s, "# Subdir Instructions");
        write(u"repo/subdir/nested/file.ts"_s, "const x = 1");
        InstructionFiles files(rootProject());
        const QString file = path(u"repo/subdir/nested/file.ts"_s);
        QCOMPARE(files.resolve({}, file, u"msg_claim"_s).size(), 1);
        QVERIFY(files.resolve({}, file, u"msg_claim"_s).isEmpty());
        QCOMPARE(files.resolve({}, file, u"msg_other"_s).size(), 1); // claims are per message
        files.clear(u"msg_claim"_s);
        const QList<InstructionFiles::Found> again = files.resolve({}, file, u"msg_claim"_s);
        QCOMPARE(again.size(), 1);
        QCOMPARE(again.first().path, path(u"repo/subdir/AGENTS.md"_s));
    }

    void instructionsAnEarlierReadLoadedAreNotAttachedAgain()
    {
        write(u"repo/subdir/AGENTS.md"_s, "# Subdir Instructions");
        write(u"repo/subdir/nested/file.ts"_s, "const x = 1");
        InstructionFiles files(rootProject());
        const QString agents = path(u"repo/subdir/AGENTS.md"_s);
        QVERIFY(files.resolve({readThatLoaded(agents)}, path(u"repo/subdir/nested/file.ts"_s), u"msg_4"_s).isEmpty());
        // A compacted read no longer counts: the model no longer sees it.
        QCOMPARE(files.resolve({readThatLoaded(agents, true)}, path(u"repo/subdir/nested/file.ts"_s), u"msg_5"_s).size(), 1);
        QCOMPARE(InstructionFiles::loaded({readThatLoaded(agents)}), QSet<QString>({agents}));
    }

    void globalAndProjectInstructionsBothApplyGlobalFirst()
    {
        write(u"home/.config/opencode/AGENTS.md"_s, "# Global Instructions");
        write(u"repo/AGENTS.md"_s, "# Project Instructions");
        const QStringList entries = InstructionFiles(sources()).localEntries();
        QCOMPARE(entries, QStringList({
            u"Instructions from: "_s + path(u"home/.config/opencode/AGENTS.md"_s) + u"\n# Global Instructions"_s,
            u"Instructions from: "_s + path(u"repo/AGENTS.md"_s) + u"\n# Project Instructions"_s,
        }));
    }

    void theClaudeCodeSwitchIgnoresTheGlobalClaudeMdOnly()
    {
        write(u"home/.claude/CLAUDE.md"_s, "# Claude global");
        write(u"repo/CLAUDE.md"_s, "# Claude project");
        QCOMPARE(InstructionFiles(sources()).systemPaths(),
                 QStringList({path(u"home/.claude/CLAUDE.md"_s), path(u"repo/CLAUDE.md"_s)}));
        InstructionSources s = sources();
        s.disableClaudeCodePrompt = true;
        // 1.2.27 still reads a project CLAUDE.md when no AGENTS.md exists.
        QCOMPARE(InstructionFiles(s).systemPaths(), QStringList({path(u"repo/CLAUDE.md"_s)}));
    }

    void theConfigDirectoryWinsOverTheGlobalFolder()
    {
        write(u"profile/AGENTS.md"_s, "# Profile");
        write(u"home/.config/opencode/AGENTS.md"_s, "# Global");
        InstructionSources s = sources();
        s.configDirectory = path(u"profile"_s);
        QCOMPARE(InstructionFiles(s).systemPaths(), QStringList({path(u"profile/AGENTS.md"_s)}));
        s.configDirectory = path(u"empty-profile"_s);
        QCOMPARE(InstructionFiles(s).systemPaths(), QStringList({path(u"home/.config/opencode/AGENTS.md"_s)}));
        s.configDirectory.clear();
        QCOMPARE(InstructionFiles(s).systemPaths(), QStringList({path(u"home/.config/opencode/AGENTS.md"_s)}));
    }

    void theGlobalAgentsMdWinsOverTheGlobalClaudeMd()
    {
        write(u"home/.config/opencode/AGENTS.md"_s, "# Global");
        write(u"home/.claude/CLAUDE.md"_s, "# Claude");
        QCOMPARE(InstructionFiles(sources()).systemPaths(), QStringList({path(u"home/.config/opencode/AGENTS.md"_s)}));
    }

    // --- project discovery -----------------------------------------------------

    void everyAgentsMdFromTheProjectUpToTheWorktreeIsReadNearestFirst()
    {
        write(u"AGENTS.md"_s, "# Above the worktree");
        write(u"repo/AGENTS.md"_s, "# Root");
        write(u"repo/packages/AGENTS.md"_s, "# Packages");
        write(u"repo/packages/app/AGENTS.md"_s, "# App");
        QCOMPARE(InstructionFiles(sources()).systemPaths(),
                 QStringList({path(u"repo/packages/app/AGENTS.md"_s), path(u"repo/packages/AGENTS.md"_s),
                              path(u"repo/AGENTS.md"_s)}));
    }

    void theFirstFileNameFoundAnywhereWins()
    {
        write(u"repo/packages/app/CLAUDE.md"_s, "# Claude");
        write(u"repo/packages/app/CONTEXT.md"_s, "# Context");
        write(u"repo/AGENTS.md"_s, "# Agents at the root");
        QCOMPARE(InstructionFiles(sources()).systemPaths(), QStringList({path(u"repo/AGENTS.md"_s)}));
        QFile::remove(path(u"repo/AGENTS.md"_s));
        QCOMPARE(InstructionFiles(sources()).systemPaths(), QStringList({path(u"repo/packages/app/CLAUDE.md"_s)}));
        QFile::remove(path(u"repo/packages/app/CLAUDE.md"_s));
        QCOMPARE(InstructionFiles(sources()).systemPaths(), QStringList({path(u"repo/packages/app/CONTEXT.md"_s)}));
    }

    void projectFilesAreSkippedWhenProjectConfigIsDisabled()
    {
        write(u"repo/AGENTS.md"_s, "# Root");
        write(u"home/.config/opencode/AGENTS.md"_s, "# Global");
        InstructionSources s = sources();
        s.disableProjectConfig = true;
        QCOMPARE(InstructionFiles(s).systemPaths(), QStringList({path(u"home/.config/opencode/AGENTS.md"_s)}));
    }

    void emptyAndMissingFilesAreLeftOut()
    {
        write(u"repo/AGENTS.md"_s, "  \n");
        InstructionSources s = sources();
        s.instructions = {path(u"nowhere/RULES.md"_s)};
        InstructionFiles files(s);
        QCOMPARE(files.systemPaths(), QStringList({path(u"repo/AGENTS.md"_s)}));
        QVERIFY(files.localEntries().isEmpty());
    }

    void aFolderNamedLikeAnInstructionFileIsIgnored()
    {
        QVERIFY(QDir().mkpath(path(u"repo/AGENTS.md"_s)));
        write(u"repo/CLAUDE.md"_s, "# Claude");
        QCOMPARE(InstructionFiles(sources()).systemPaths(), QStringList({path(u"repo/CLAUDE.md"_s)}));
    }

    // --- config `instructions` ---------------------------------------------

    void relativeInstructionGlobsMatchInEveryFolderUpToTheWorktree()
    {
        write(u"repo/docs/style.md"_s, "# Style");
        write(u"repo/packages/app/docs/api.md"_s, "# API");
        write(u"repo/packages/app/docs/notes.txt"_s, "not markdown");
        write(u"docs/outside.md"_s, "# Outside the worktree");
        InstructionSources s = sources();
        s.instructions = {u"docs/*.md"_s};
        QCOMPARE(InstructionFiles(s).systemPaths(),
                 QStringList({path(u"repo/packages/app/docs/api.md"_s), path(u"repo/docs/style.md"_s)}));
    }

    void recursiveAndAlternativeGlobs()
    {
        write(u"repo/packages/app/rules/a/deep/x.md"_s, "x");
        write(u"repo/packages/app/rules/b.mdc"_s, "b");
        write(u"repo/packages/app/rules/.hidden.md"_s, "hidden");
        InstructionSources s = sources();
        s.instructions = {u"rules/**/*.{md,mdc}"_s};
        QCOMPARE(InstructionFiles(s).systemPaths(),
                 QStringList({path(u"repo/packages/app/rules/a/deep/x.md"_s), path(u"repo/packages/app/rules/b.mdc"_s)}));
    }

    void homeAndAbsoluteInstructions()
    {
        write(u"home/rules/one.md"_s, "one");
        write(u"home/rules/two.md"_s, "two");
        write(u"shared/team.md"_s, "team");
        InstructionSources s = sources();
        s.instructions = {u"~/rules/*.md"_s, path(u"shared/team.md"_s), path(u"shared/missing.md"_s)};
        QCOMPARE(InstructionFiles(s).systemPaths(),
                 QStringList({path(u"home/rules/one.md"_s), path(u"home/rules/two.md"_s), path(u"shared/team.md"_s)}));
    }

    void pathsAreListedOnce()
    {
        write(u"repo/AGENTS.md"_s, "# Root");
        InstructionSources s = rootProject();
        s.instructions = {u"AGENTS.md"_s, path(u"repo/AGENTS.md"_s), u"./AGENTS.md"_s};
        QCOMPARE(InstructionFiles(s).systemPaths(), QStringList({path(u"repo/AGENTS.md"_s)}));
    }

    void relativeInstructionsUseTheConfigDirectoryWhenProjectConfigIsDisabled()
    {
        write(u"profile/RULES.md"_s, "rules");
        write(u"repo/packages/app/RULES.md"_s, "project rules");
        InstructionSources s = sources();
        s.disableProjectConfig = true;
        s.instructions = {u"RULES.md"_s};
        QVERIFY(InstructionFiles(s).systemPaths().isEmpty()); // no OPENCODE_CONFIG_DIR: skipped
        s.configDirectory = path(u"profile"_s);
        QCOMPARE(InstructionFiles(s).systemPaths(), QStringList({path(u"profile/RULES.md"_s)}));
    }

    void sourcesComeFromConfigAndEnvironment()
    {
        ConfigLocations l;
        l.homeDirectory = path(u"home"_s);
        l.globalDirectories = {path(u"home/.config/opencode"_s)};
        l.projectDirectory = path(u"repo/packages/app"_s);
        l.worktreeRoot = path(u"repo"_s);
        l.environment.insert(u"OPENCODE_CONFIG_DIR"_s, path(u"profile"_s));
        l.environment.insert(u"OPENCODE_DISABLE_CLAUDE_CODE_PROMPT"_s, u"true"_s);
        const Config config = Config::fromJson(
            QJsonObject{{u"instructions"_s, QJsonArray{u"docs/*.md"_s, 3, u"https://example.com/rules.md"_s}}});
        const InstructionSources s = InstructionSources::from(config, l);
        QCOMPARE(s.configDirectory, path(u"profile"_s));
        QVERIFY(s.disableClaudeCodePrompt);
        QVERIFY(!s.disableProjectConfig);
        QCOMPARE(s.instructions, QStringList({u"docs/*.md"_s, u"https://example.com/rules.md"_s}));
        QCOMPARE(InstructionFiles(s).urls(), QStringList({u"https://example.com/rules.md"_s}));
    }

    // --- URLs -----------------------------------------------------------------

    void urlInstructionsAreFetchedAfterTheFiles()
    {
        write(u"repo/AGENTS.md"_s, "# Root");
        TinyHttpServer server(200, "# Remote rules\nBe kind.");
        QVERIFY(server.listen());
        InstructionSources s = sources();
        s.instructions = {server.url(u"/rules.md"_s)};
        QNetworkAccessManager network;
        network.setProxy(QNetworkProxy::NoProxy);
        const QStringList entries = QCoro::waitFor(InstructionFiles(s).system(&network));
        QCOMPARE(entries, QStringList({u"Instructions from: "_s + path(u"repo/AGENTS.md"_s) + u"\n# Root"_s,
                                       u"Instructions from: "_s + server.url(u"/rules.md"_s) + u"\n# Remote rules\nBe kind."_s}));
        QCOMPARE(server.paths(), QStringList({u"/rules.md"_s}));
    }

    void urlsThatFailOrStallAreSkippedWithinTheTimeout()
    {
        TinyHttpServer notFound(404, "missing");
        TinyHttpServer empty(200, "   ");
        TinyHttpServer silent(200, {}, true);
        TinyHttpServer good(200, "ok");
        QVERIFY(notFound.listen() && empty.listen() && silent.listen() && good.listen());
        InstructionSources s = sources();
        s.instructions = {notFound.url(u"/a.md"_s), closedPortUrl(), silent.url(u"/slow.md"_s), empty.url(u"/e.md"_s),
                          good.url(u"/good.md"_s)};
        QNetworkAccessManager network;
        network.setProxy(QNetworkProxy::NoProxy);
        QElapsedTimer clock;
        clock.start();
        const QStringList entries =
            QCoro::waitFor(InstructionFiles(s).system(&network, std::chrono::milliseconds(400)));
        QCOMPARE(entries, QStringList({u"Instructions from: "_s + good.url(u"/good.md"_s) + u"\nok"_s}));
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(silent.paths().size(), 1); // asked, and given up on
    }

    void withoutANetworkManagerUrlsAreSkipped()
    {
        write(u"repo/AGENTS.md"_s, "# Root");
        InstructionSources s = sources();
        s.instructions = {u"https://example.invalid/rules.md"_s};
        const QStringList entries = QCoro::waitFor(InstructionFiles(s).system(nullptr));
        QCOMPARE(entries.size(), 1);
    }

    void theInstructionObjectMayGoAwayWhileUrlsAreFetched()
    {
        TinyHttpServer server(200, "late");
        QVERIFY(server.listen());
        InstructionSources s = sources();
        s.instructions = {server.url(u"/late.md"_s)};
        QNetworkAccessManager network;
        network.setProxy(QNetworkProxy::NoProxy);
        auto files = std::make_unique<InstructionFiles>(s);
        QCoro::Task<QStringList> task = files->system(&network);
        files.reset();
        QCOMPARE(QCoro::waitFor(task), QStringList({u"Instructions from: "_s + server.url(u"/late.md"_s) + u"\nlate"_s}));
    }
};

QTEST_GUILESS_MAIN(TestInstructionFiles)
#include "tst_instruction_files.moc"
