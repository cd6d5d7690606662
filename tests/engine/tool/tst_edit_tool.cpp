#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTest>

#include <functional>

#include "ToolTestSupport.h"
#include "engine/tool/EditTool.h"
#include "engine/tool/FileTimes.h"
#include "TempTree.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

// Runs a hook when the edit question is asked: the moment the person
// could change the file by hand.
class HookAsker : public test::RecordingAsker
{
public:
    std::function<void()> onEdit;

    QCoro::Task<PermissionAnswer> ask(PermissionRequest request, QPointer<AbortSignal> abort) override
    {
        if (onEdit && request.permission == "edit"_L1)
            onEdit();
        QCoro::Task<PermissionAnswer> answering = RecordingAsker::ask(std::move(request), std::move(abort));
        co_return co_await answering;
    }
};

QJsonObject edit(const QString &filePath, const QString &oldString, const QString &newString, bool replaceAll = false)
{
    QJsonObject arguments{{"filePath"_L1, filePath}, {"oldString"_L1, oldString}, {"newString"_L1, newString}};
    if (replaceAll)
        arguments.insert("replaceAll"_L1, true);
    return arguments;
}

} // namespace

class EditToolTest : public QObject
{
    Q_OBJECT

private:
    test::TempTree m_tree;
    FileTimes m_times;
    HookAsker m_asker;
    AbortSignal m_abort;

    QString project() const { return m_tree.path(u"project"_s); }

    ToolContext context(PermissionAsker *asker = nullptr)
    {
        return test::toolContext(project(), asker ? asker : &m_asker, &m_abort);
    }

    ToolResult run(const QJsonObject &arguments) { return run(arguments, context()); }

    ToolResult run(const QJsonObject &arguments, const ToolContext &toolContext)
    {
        EditTool tool(ToolServices{nullptr, nullptr, m_tree.path(u"data"_s), &m_times, nullptr, nullptr, {}, {}});
        return test::runTool(tool, arguments, toolContext);
    }

    // A file in the project that this session has read.
    QString readFile(const QString &relative, const QByteArray &text)
    {
        if (!m_tree.write(u"project/"_s + relative, text))
            return {};
        const QString path = m_tree.path(u"project/"_s + relative);
        m_times.recordRead(u"ses_test"_s, path);
        return path;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(project()));
        m_times = FileTimes();
        m_asker.requests.clear();
        m_asker.answers.clear();
        m_asker.onEdit = nullptr;
    }

    void anEmptyOldStringCreatesTheFile()
    {
        const QString path = project() + u"/dir/new.txt"_s;
        const ToolResult result = run(edit(path, QString(), u"hello\n"_s));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->output, u"Edit applied successfully."_s);
        QCOMPARE(contents(path), QByteArray("hello\n"));
        QCOMPARE(m_asker.permissions(), QStringList{u"edit"_s});
        const PermissionRequest &ask = m_asker.requests.first();
        QCOMPARE(ask.patterns, QStringList{u"dir/new.txt"_s});
        QCOMPARE(ask.always, QStringList{u"*"_s});
        QCOMPARE(ask.metadata.value("filepath"_L1).toString(), path);
        QVERIFY(ask.metadata.value("diff"_L1).toString().contains(u"+hello"_s));
        // The new file counts as read: a second edit needs no read.
        QVERIFY(test::outputOf(run(edit(path, u"hello"_s, u"bye"_s))));
    }

    void replacesTextInAReadFile()
    {
        const QString path = readFile(u"a.txt"_s, "old content here\n");
        const ToolResult result = run(edit(path, u"old content"_s, u"new content"_s));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(contents(path), QByteArray("new content here\n"));
        QCOMPARE(output->title, u"a.txt"_s);
        const QJsonObject filediff = output->metadata.value("filediff"_L1).toObject();
        QCOMPARE(filediff.value("file"_L1).toString(), path);
        QCOMPARE(filediff.value("additions"_L1).toInt(), 1);
        QCOMPARE(filediff.value("deletions"_L1).toInt(), 1);
        QCOMPARE(filediff.value("before"_L1).toString(), u"old content here\n"_s);
        QCOMPARE(filediff.value("after"_L1).toString(), u"new content here\n"_s);
        const QString diff = output->metadata.value("diff"_L1).toString();
        QVERIFY(diff.contains(u"-old content here\n+new content here"_s));
        QCOMPARE(m_asker.requests.first().metadata.value("diff"_L1).toString(), diff);
    }

    void aRelativePathIsTakenFromTheProject()
    {
        const QString path = readFile(u"src/b.txt"_s, "x\n");
        QVERIFY(test::outputOf(run(edit(u"src/b.txt"_s, u"x"_s, u"y"_s))));
        QCOMPARE(contents(path), QByteArray("y\n"));
        QCOMPARE(m_asker.requests.first().patterns, QStringList{u"src/b.txt"_s});
    }

    void theEditPatternIsRelativeToTheWorktree()
    {
        const QString path = readFile(u"sub/c.txt"_s, "x\n");
        ToolContext toolContext = test::toolContext(project() + u"/sub"_s, &m_asker, &m_abort, project());
        QVERIFY(test::outputOf(run(edit(path, u"x"_s, u"y"_s), toolContext)));
        QCOMPARE(m_asker.requests.first().patterns, QStringList{u"sub/c.txt"_s});
    }

    void aMissingFileIsNotFound()
    {
        const QString path = project() + u"/missing.txt"_s;
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"a"_s, u"b"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->message, u"File %1 not found"_s.arg(path));
        QVERIFY(!QFile::exists(path));
    }

    void identicalStringsChangeNothing()
    {
        const QString path = readFile(u"a.txt"_s, "a\n");
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"a"_s, u"a"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->message, u"No changes to apply: oldString and newString are identical."_s);
        QVERIFY(m_asker.requests.isEmpty());
    }

    void anAbsentOldStringIsReportedAndNothingIsWritten()
    {
        const QString path = readFile(u"a.txt"_s, "abc\n");
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"xyz"_s, u"q"_s)));
        QVERIFY(failure);
        QVERIFY(failure->message.startsWith(u"Could not find oldString in the file."_s));
        QCOMPARE(contents(path), QByteArray("abc\n"));
        QVERIFY(m_asker.requests.isEmpty());
    }

    void twoMatchesNeedReplaceAllOrMoreContext()
    {
        const QString path = readFile(u"a.txt"_s, "foo bar foo baz foo");
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"foo"_s, u"qux"_s)));
        QVERIFY(failure);
        QVERIFY(failure->message.startsWith(u"Found multiple matches for oldString."_s));
        QVERIFY(test::outputOf(run(edit(path, u"foo"_s, u"qux"_s, true))));
        QCOMPARE(contents(path), QByteArray("qux bar qux baz qux"));
    }

    void replacesAMultilineBlock()
    {
        const QString path = readFile(u"a.c"_s, "int f() {\n    return 0;\n}\n");
        QVERIFY(test::outputOf(run(edit(path, u"    return 0;\n}"_s, u"    int x = 1;\n    return x;\n}"_s))));
        QCOMPARE(contents(path), QByteArray("int f() {\n    int x = 1;\n    return x;\n}\n"));
    }

    void looseMatchesGoThroughTheChain()
    {
        const QString path = readFile(u"a.py"_s, "def f():\n    foo()\n    baz()\n");
        QVERIFY(test::outputOf(run(edit(path, u"foo()\nbaz()"_s, u"    bar()"_s))));
        QCOMPARE(contents(path), QByteArray("def f():\n    bar()\n"));
        const QString block = readFile(u"b.py"_s, "class A:\n    def g(self):\n        return 1\n");
        QVERIFY(test::outputOf(run(edit(block, u"def g(self):\n    return 1"_s, u"def g(self):\n    return 2"_s))));
        QVERIFY(contents(block).contains("return 2"));
    }

    void aCrlfFileStaysCrlf()
    {
        const QString path = readFile(u"w.txt"_s, "a\r\nb\r\nc\r\n");
        const ToolResult result = run(edit(path, u"b\nc"_s, u"B\nC\nD"_s));
        QVERIFY2(test::outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(contents(path), QByteArray("a\r\nB\r\nC\r\nD\r\n"));
        // The diff is shown with plain line breaks.
        QVERIFY(!test::outputOf(result)->metadata.value("diff"_L1).toString().contains(u'\r'));
    }

    void aByteOrderMarkIsKept()
    {
        const QString path = readFile(u"bom.txt"_s, "\xEF\xBB\xBFhello\n");
        QVERIFY(test::outputOf(run(edit(path, u"hello"_s, u"bye"_s))));
        QCOMPARE(contents(path), QByteArray("\xEF\xBB\xBF" "bye\n"));
    }

    void aDirectoryIsNotAFile()
    {
        QVERIFY(QDir().mkpath(project() + u"/folder"_s));
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(project() + u"/folder"_s, u"a"_s, u"b"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->message, u"Path is a directory, not a file: %1"_s.arg(project() + u"/folder"_s));
        QVERIFY(test::failureOf(run(edit(project() + u"/folder"_s, QString(), u"b"_s))));
    }

    void aFileMustBeReadBeforeItIsEdited()
    {
        QVERIFY(m_tree.write(u"project/unread.txt"_s, "a\n"));
        const QString path = m_tree.path(u"project/unread.txt"_s);
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"a"_s, u"b"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->message, u"You must read file %1 before overwriting it. Use the Read tool first"_s.arg(path));
        // Overwriting it whole with an empty oldString needs the read too.
        QVERIFY(test::failureOf(run(edit(path, QString(), u"b"_s))));
        QCOMPARE(contents(path), QByteArray("a\n"));
    }

    void aFileChangedSinceItsReadIsRefused()
    {
        const QString path = readFile(u"a.txt"_s, "a\n");
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTimeUtc().addSecs(60), QFileDevice::FileModificationTime));
        file.close();
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"a"_s, u"b"_s)));
        QVERIFY(failure);
        QVERIFY(failure->message.startsWith(u"File %1 has been modified since it was last read."_s.arg(path)));
    }

    void aFileChangedWhileTheQuestionWasOpenIsKept()
    {
        const QString path = readFile(u"a.txt"_s, "a\n");
        m_asker.onEdit = [this] { QVERIFY(m_tree.write(u"project/a.txt"_s, "typed by the person\n")); };
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"a"_s, u"b"_s)));
        QVERIFY(failure);
        QVERIFY(failure->message.contains(u"has been modified since it was last read"_s));
        QCOMPARE(contents(path), QByteArray("typed by the person\n"));
    }

    void aBinaryFileIsRefused()
    {
        const QString path = readFile(u"blob.bin"_s, QByteArray("ab\0cd", 5));
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"ab"_s, u"x"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->message, u"Cannot edit binary file: %1"_s.arg(path));
        QCOMPARE(contents(path), QByteArray("ab\0cd", 5));
    }

    void aFileThatIsNotUtf8IsLeftAlone()
    {
        const QString path = readFile(u"latin1.txt"_s, "caf\xE9 au lait\n");
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"au"_s, u"with"_s)));
        QVERIFY(failure);
        QVERIFY(failure->message.contains(u"not valid UTF-8"_s));
        QCOMPARE(contents(path), QByteArray("caf\xE9 au lait\n"));
    }

    void aPathOutsideTheProjectAsksForItsFolder()
    {
        QVERIFY(m_tree.write(u"outside/o.txt"_s, "a\n"));
        const QString outside = m_tree.path(u"outside/o.txt"_s);
        m_times.recordRead(u"ses_test"_s, outside);
        QVERIFY(test::outputOf(run(edit(u"../outside/o.txt"_s, u"a"_s, u"b"_s))));
        QCOMPARE(m_asker.permissions(), (QStringList{u"external_directory"_s, u"edit"_s}));
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"outside"_s) + u"/*"_s});
        QCOMPARE(m_asker.requests.first().always, QStringList{m_tree.path(u"outside"_s) + u"/*"_s});
    }

    void aSymlinkOutOfTheProjectIsSeenThrough()
    {
        QVERIFY(m_tree.write(u"outside/o.txt"_s, "a\n"));
        QVERIFY(QFile::link(m_tree.path(u"outside"_s), project() + u"/link"_s));
        m_times.recordRead(u"ses_test"_s, project() + u"/link/o.txt"_s);
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const ToolResult result = run(edit(project() + u"/link/o.txt"_s, u"a"_s, u"b"_s));
        const ToolFailure *failure = test::failureOf(result);
        QVERIFY2(failure, qPrintable(test::describe(result)));
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejected);
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"outside"_s) + u"/*"_s});
        QCOMPARE(contents(m_tree.path(u"outside/o.txt"_s)), QByteArray("a\n"));
    }

    void anEmptyOldStringThroughADanglingLinkToOutsideAsksFirst()
    {
        const QString outside = m_tree.path(u"outside/new.txt"_s);
        QVERIFY(QFile::link(outside, project() + u"/new.txt"_s));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const std::optional<ToolFailure> failure =
            test::failureOf(run(edit(project() + u"/new.txt"_s, QString(), u"created\n"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejected);
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"outside"_s) + u"/*"_s});
        QVERIFY(!QFileInfo::exists(m_tree.path(u"outside"_s)));
    }

    void anEditedFileSwappedForALinkWhileTheQuestionIsOpenIsNotFollowed()
    {
        // The check and the read saw a file of the project; while the edit
        // question is open it becomes a link to a file outside.
        QVERIFY(m_tree.write(u"outside/o.txt"_s, "a\n"));
        const QString outside = m_tree.path(u"outside/o.txt"_s);
        const QString path = readFile(u"a.txt"_s, "a\n");
        m_asker.onEdit = [&] {
            QVERIFY(QFile::remove(path));
            QVERIFY(QFile::link(outside, path));
        };
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"a"_s, u"b"_s)));
        QVERIFY(failure);
        QCOMPARE(contents(outside), QByteArray("a\n"));
    }

    void aRejectedEditWritesNothing()
    {
        const QString path = readFile(u"a.txt"_s, "a\n");
        m_asker.answers.insert(u"edit"_s, PermissionAnswer{PermissionReply::RejectWithMessage, u"not like that"_s});
        const std::optional<ToolFailure> failure = test::failureOf(run(edit(path, u"a"_s, u"b"_s)));
        QVERIFY(failure);
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejectedWithMessage);
        QVERIFY(failure->message.contains(u"not like that"_s));
        QCOMPARE(contents(path), QByteArray("a\n"));
    }

    void withoutAnAskerNothingIsWritten()
    {
        const QString path = readFile(u"a.txt"_s, "a\n");
        ToolContext toolContext = context();
        toolContext.permissions = nullptr;
        QVERIFY(test::failureOf(run(edit(path, u"a"_s, u"b"_s), toolContext)));
        QCOMPARE(contents(path), QByteArray("a\n"));
    }

    void editingThroughALinkInTheProjectKeepsTheLink()
    {
        const QString target = readFile(u"real.txt"_s, "a\n");
        const QString link = project() + u"/alias.txt"_s;
        QVERIFY(QFile::link(target, link));
        m_times.recordRead(u"ses_test"_s, link);
        QVERIFY(test::outputOf(run(edit(link, u"a"_s, u"b"_s))));
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(contents(target), QByteArray("b\n"));
    }

    void theFilesPermissionsAreKept()
    {
        const QString path = readFile(u"run.sh"_s, "echo a\n");
        QVERIFY(QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner));
        QVERIFY(test::outputOf(run(edit(path, u"echo a"_s, u"echo b"_s))));
        QVERIFY(QFile::permissions(path) & QFileDevice::ExeOwner);
    }

    void missingArgumentsAreRefused()
    {
        QVERIFY(test::failureOf(run(QJsonObject{{"oldString"_L1, u"a"_s}, {"newString"_L1, u"b"_s}})));
        QVERIFY(test::failureOf(run(QJsonObject{{"filePath"_L1, u"a.txt"_s}, {"oldString"_L1, 1}})));
        QVERIFY(m_asker.requests.isEmpty());
    }
};

QTEST_GUILESS_MAIN(EditToolTest)
#include "tst_edit_tool.moc"
