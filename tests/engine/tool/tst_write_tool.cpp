#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTest>

#include "ToolTestSupport.h"
#include "engine/tool/FileTimes.h"
#include "engine/tool/WriteTool.h"
#include "TempTree.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

QJsonObject write(const QString &filePath, const QString &content)
{
    return QJsonObject{{"filePath"_L1, filePath}, {"content"_L1, content}};
}

} // namespace

class WriteToolTest : public QObject
{
    Q_OBJECT

private:
    test::TempTree m_tree;
    FileTimes m_times;
    test::RecordingAsker m_asker;
    AbortSignal m_abort;

    QString project() const { return m_tree.path(u"project"_s); }

    ToolResult run(const QJsonObject &arguments)
    {
        return run(arguments, test::toolContext(project(), &m_asker, &m_abort));
    }

    ToolResult run(const QJsonObject &arguments, const ToolContext &context)
    {
        WriteTool tool(ToolServices{nullptr, nullptr, m_tree.path(u"data"_s), &m_times, nullptr, nullptr, {}, {}});
        return test::runTool(tool, arguments, context);
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(project()));
        m_times = FileTimes();
        m_asker.requests.clear();
        m_asker.answers.clear();
        m_asker.whileAsking = nullptr;
    }

    void writesANewFileAndItsFolders()
    {
        const QString path = project() + u"/a/b/new.txt"_s;
        const ToolResult result = run(write(path, u"line 1\nline 2\n"_s));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->output, u"Wrote file successfully."_s);
        QCOMPARE(output->title, u"a/b/new.txt"_s);
        QCOMPARE(output->metadata.value("filepath"_L1).toString(), path);
        QCOMPARE(output->metadata.value("exists"_L1).toBool(), false);
        QCOMPARE(contents(path), QByteArray("line 1\nline 2\n"));
        QCOMPARE(m_asker.permissions(), QStringList{u"edit"_s});
        const PermissionRequest &ask = m_asker.requests.first();
        QCOMPARE(ask.patterns, QStringList{u"a/b/new.txt"_s});
        QCOMPARE(ask.always, QStringList{u"*"_s});
        QVERIFY(ask.metadata.value("diff"_L1).toString().contains(u"+line 1\n+line 2"_s));
        // What was written counts as read.
        QVERIFY(m_times.lastRead(u"ses_test"_s, path));
    }

    void overwritingNeedsARead()
    {
        QVERIFY(m_tree.write(u"project/a.txt"_s, "old\n"));
        const QString path = m_tree.path(u"project/a.txt"_s);
        const std::optional<ToolFailure> failure = test::failureOf(run(write(path, u"new\n"_s)));
        QVERIFY(failure);
        QVERIFY(failure->message.startsWith(u"You must read file %1 before overwriting it."_s.arg(path)));
        QCOMPARE(contents(path), QByteArray("old\n"));

        m_times.recordRead(u"ses_test"_s, path);
        const ToolResult result = run(write(path, u"new\n"_s));
        QVERIFY2(test::outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(test::outputOf(result)->metadata.value("exists"_L1).toBool(), true);
        QCOMPARE(contents(path), QByteArray("new\n"));
        QVERIFY(m_asker.requests.first().metadata.value("diff"_L1).toString().contains(u"-old\n+new"_s));
    }

    void aFileChangedSinceItsReadIsKept()
    {
        QVERIFY(m_tree.write(u"project/a.txt"_s, "old\n"));
        const QString path = m_tree.path(u"project/a.txt"_s);
        m_times.recordRead(u"ses_test"_s, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTimeUtc().addSecs(60), QFileDevice::FileModificationTime));
        file.close();
        const std::optional<ToolFailure> failure = test::failureOf(run(write(path, u"new\n"_s)));
        QVERIFY(failure);
        QVERIFY(failure->message.contains(u"has been modified since it was last read"_s));
        QCOMPARE(contents(path), QByteArray("old\n"));
    }

    void aDirectoryCannotBeWritten()
    {
        QVERIFY(QDir().mkpath(project() + u"/folder"_s));
        const std::optional<ToolFailure> failure = test::failureOf(run(write(project() + u"/folder"_s, u"x"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->message, u"Path is a directory, not a file: %1"_s.arg(project() + u"/folder"_s));
    }

    void contentIsWrittenAsGiven()
    {
        const QString path = project() + u"/crlf.txt"_s;
        QVERIFY(test::outputOf(run(write(path, u"a\r\nb\u00e9\r\n"_s))));
        QCOMPARE(contents(path), QByteArray("a\r\nb\xC3\xA9\r\n"));
    }

    void aBinaryFileCanBeReplacedAfterARead()
    {
        QVERIFY(m_tree.write(u"project/blob.bin"_s, QByteArray("\0\1\2", 3)));
        const QString path = m_tree.path(u"project/blob.bin"_s);
        m_times.recordRead(u"ses_test"_s, path);
        QVERIFY(test::outputOf(run(write(path, u"text\n"_s))));
        QCOMPARE(contents(path), QByteArray("text\n"));
    }

    void outsideTheProjectAsksFirst()
    {
        const QString outside = m_tree.path(u"elsewhere/x.txt"_s);
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const std::optional<ToolFailure> failure = test::failureOf(run(write(u"../elsewhere/x.txt"_s, u"x"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejected);
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"elsewhere"_s) + u"/*"_s});
        QVERIFY(!QFile::exists(outside));
    }

    void aRejectedWriteWritesNothing()
    {
        m_asker.answers.insert(u"edit"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const QString path = project() + u"/new.txt"_s;
        const std::optional<ToolFailure> failure = test::failureOf(run(write(path, u"x"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejected);
        QVERIFY(!QFile::exists(path));
    }

    void aDanglingLinkToOutsideAsksForExternalDirectory()
    {
        // proj/new.txt -> <tree>/outside/new.txt, which does not exist yet.
        const QString outside = m_tree.path(u"outside/new.txt"_s);
        QVERIFY(QDir().mkpath(m_tree.path(u"outside"_s)));
        QVERIFY(QFile::link(outside, project() + u"/new.txt"_s));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const std::optional<ToolFailure> failure = test::failureOf(run(write(u"new.txt"_s, u"x"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejected);
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"outside"_s) + u"/*"_s});
        QCOMPARE(m_asker.requests.first().metadata.value("filepath"_L1).toString(), outside);
        QVERIFY(!QFileInfo::exists(outside));
    }

    void aChainOfDanglingLinksIsFollowedToItsEnd()
    {
        // a -> b (relative), b -> ../outside/deep/new.txt: the second hop leaves.
        QVERIFY(QFile::link(u"b"_s, project() + u"/a"_s));
        QVERIFY(QFile::link(u"../outside/deep/new.txt"_s, project() + u"/b"_s));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(write(u"a"_s, u"x"_s))));
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"outside/deep"_s) + u"/*"_s});
        QVERIFY(!QFileInfo::exists(m_tree.path(u"outside"_s)));
    }

    void aLinkedFolderComponentToOutsideAsksAndCreatesNothing()
    {
        // proj/sub -> <tree>/outside/missing: a dangling folder link; writing
        // proj/sub/deeper/new.txt would create folders outside.
        QVERIFY(QFile::link(m_tree.path(u"outside/missing"_s), project() + u"/sub"_s));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(write(u"sub/deeper/new.txt"_s, u"x"_s))));
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests.first().patterns,
                 QStringList{m_tree.path(u"outside/missing/deeper"_s) + u"/*"_s});
        QVERIFY(!QFileInfo::exists(m_tree.path(u"outside"_s)));
    }

    void aLinkInsideTheProjectIsWrittenWithoutAskingAboutOutside()
    {
        // A dangling link to a file of the project: the file is created, the link stays.
        QVERIFY(QFile::link(u"real.txt"_s, project() + u"/alias.txt"_s));
        const ToolResult result = run(write(u"alias.txt"_s, u"x\n"_s));
        QVERIFY2(test::outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(m_asker.permissions(), QStringList{u"edit"_s});
        QVERIFY(QFileInfo(project() + u"/alias.txt"_s).isSymLink());
        QCOMPARE(contents(project() + u"/real.txt"_s), QByteArray("x\n"));
    }

    void aLoopOfLinksIsRefusedWithoutAsking()
    {
        QVERIFY(QFile::link(u"two"_s, project() + u"/one"_s));
        QVERIFY(QFile::link(u"one"_s, project() + u"/two"_s));
        const std::optional<ToolFailure> failure = test::failureOf(run(write(u"one"_s, u"x"_s)));
        QVERIFY(failure);
        QVERIFY2(failure->message.contains(u"too many levels of symbolic links"_s), qPrintable(failure->message));
        QVERIFY(m_asker.requests.isEmpty());
    }

    void aLinkSwappedInWhileTheQuestionIsOpenIsNotFollowed()
    {
        // The check saw a new file inside the project; while the edit
        // question is open, the name becomes a link to a file outside.
        const QString outside = m_tree.path(u"outside/stolen.txt"_s);
        QVERIFY(QDir().mkpath(m_tree.path(u"outside"_s)));
        const QString path = project() + u"/new.txt"_s;
        m_asker.whileAsking = [&](const PermissionRequest &) { QVERIFY(QFile::link(outside, path)); };
        const std::optional<ToolFailure> failure = test::failureOf(run(write(path, u"x"_s)));
        QVERIFY(failure);
        QVERIFY2(failure->message.contains(u"is a symbolic link now"_s), qPrintable(failure->message));
        QVERIFY(!QFileInfo::exists(outside));
        QCOMPARE(QFileInfo(path).symLinkTarget(), outside);
    }

    void aFolderSwappedForALinkWhileTheQuestionIsOpenIsNotFollowed()
    {
        const QString outside = m_tree.path(u"outside"_s);
        QVERIFY(QDir().mkpath(outside));
        QVERIFY(QDir().mkpath(project() + u"/sub"_s));
        m_asker.whileAsking = [&](const PermissionRequest &) {
            QVERIFY(QDir(project() + u"/sub"_s).removeRecursively());
            QVERIFY(QFile::link(outside, project() + u"/sub"_s));
        };
        const std::optional<ToolFailure> failure = test::failureOf(run(write(u"sub/new.txt"_s, u"x"_s)));
        QVERIFY(failure);
        QVERIFY2(failure->message.contains(u"is a symbolic link now"_s), qPrintable(failure->message));
        QVERIFY(QDir(outside).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System));
    }

    void missingArgumentsAreRefused()
    {
        QVERIFY(test::failureOf(run(QJsonObject{{"content"_L1, u"x"_s}})));
        QVERIFY(test::failureOf(run(QJsonObject{{"filePath"_L1, u"a.txt"_s}})));
        QVERIFY(test::failureOf(run(QJsonObject{{"filePath"_L1, u"a.txt"_s}, {"content"_L1, 3}})));
        QVERIFY(m_asker.requests.isEmpty());
        QVERIFY(!QFile::exists(project() + u"/a.txt"_s));
    }
};

QTEST_GUILESS_MAIN(WriteToolTest)
#include "tst_write_tool.moc"
