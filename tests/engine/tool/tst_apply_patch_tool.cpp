#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include "ToolTestSupport.h"
#include "engine/tool/ApplyPatchTool.h"
#include "engine/tool/FileTimes.h"
#include "TempTree.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

QJsonObject patch(std::initializer_list<const char *> parts)
{
    QStringList lines;
    for (const char *part : parts)
        lines.append(QString::fromUtf8(part));
    return QJsonObject{{"patchText"_L1, lines.join(u'\n')}};
}

} // namespace

class ApplyPatchToolTest : public QObject
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
        ApplyPatchTool tool(ToolServices{nullptr, nullptr, m_tree.path(u"data"_s), &m_times, nullptr, nullptr, {}, {}});
        return test::runTool(tool, arguments, test::toolContext(project(), &m_asker, &m_abort));
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(project()));
        m_asker.requests.clear();
        m_asker.answers.clear();
        m_asker.whileAsking = nullptr;
    }

    void addsUpdatesMovesAndDeletes()
    {
        QVERIFY(m_tree.write(u"project/mod.txt"_s, "one\ntwo\nthree\n"));
        QVERIFY(m_tree.write(u"project/old.txt"_s, "bye\n"));
        QVERIFY(m_tree.write(u"project/src/a.py"_s, "def f():\n    return 1\n"));
        const ToolResult result = run(patch({"*** Begin Patch", "*** Add File: new/hello.txt", "+Hello", "+world",
                                             "*** Update File: mod.txt", "@@", " one", "-two", "+2", " three",
                                             "*** Delete File: old.txt", "*** Update File: src/a.py",
                                             "*** Move to: src/b.py", "@@ def f():", "-    return 1", "+    return 2",
                                             "*** End Patch"}));
        const ToolOutput *output = test::outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->output,
                 u"Success. Updated the following files:\nA new/hello.txt\nM mod.txt\nD old.txt\nM src/b.py"_s);
        QCOMPARE(contents(project() + u"/new/hello.txt"_s), QByteArray("Hello\nworld\n"));
        QCOMPARE(contents(project() + u"/mod.txt"_s), QByteArray("one\n2\nthree\n"));
        QVERIFY(!QFile::exists(project() + u"/old.txt"_s));
        QVERIFY(!QFile::exists(project() + u"/src/a.py"_s));
        QCOMPARE(contents(project() + u"/src/b.py"_s), QByteArray("def f():\n    return 2\n"));

        QCOMPARE(m_asker.permissions(), QStringList{u"edit"_s});
        const PermissionRequest &ask = m_asker.requests.first();
        QCOMPARE(ask.patterns, (QStringList{u"new/hello.txt"_s, u"mod.txt"_s, u"old.txt"_s, u"src/a.py"_s}));
        QCOMPARE(ask.always, QStringList{u"*"_s});
        const QJsonArray files = ask.metadata.value("files"_L1).toArray();
        QCOMPARE(files.size(), 4);
        QCOMPARE(files.at(0).toObject().value("type"_L1).toString(), u"add"_s);
        QCOMPARE(files.at(1).toObject().value("type"_L1).toString(), u"update"_s);
        QCOMPARE(files.at(2).toObject().value("type"_L1).toString(), u"delete"_s);
        QCOMPARE(files.at(3).toObject().value("type"_L1).toString(), u"move"_s);
        QCOMPARE(files.at(3).toObject().value("relativePath"_L1).toString(), u"src/b.py"_s);
        QCOMPARE(files.at(1).toObject().value("additions"_L1).toInt(), 1);
        QCOMPARE(files.at(1).toObject().value("deletions"_L1).toInt(), 1);
        QVERIFY(ask.metadata.value("diff"_L1).toString().contains(u"-two\n+2"_s));
        QCOMPARE(output->metadata.value("files"_L1).toArray(), files);
    }

    void anEmptyPatchIsRejected()
    {
        const std::optional<ToolFailure> failure = test::failureOf(run(patch({"*** Begin Patch", "*** End Patch"})));
        QVERIFY(failure);
        QCOMPARE(failure->message, u"patch rejected: empty patch"_s);
        const std::optional<ToolFailure> noHunks = test::failureOf(run(patch({"*** Begin Patch", "garbage", "*** End Patch"})));
        QVERIFY(noHunks);
        QCOMPARE(noHunks->message, u"apply_patch verification failed: no hunks found"_s);
    }

    void aPatchWithoutMarkersFailsVerification()
    {
        const std::optional<ToolFailure> failure = test::failureOf(run(patch({"*** Add File: a.txt", "+x"})));
        QVERIFY(failure);
        QCOMPARE(failure->message,
                 u"apply_patch verification failed: Invalid patch format: missing Begin/End markers"_s);
        QVERIFY(test::failureOf(run(QJsonObject{})));
    }

    void updatingAMissingFileFailsVerification()
    {
        const std::optional<ToolFailure> failure = test::failureOf(
            run(patch({"*** Begin Patch", "*** Update File: nope.txt", "@@", "-a", "+b", "*** End Patch"})));
        QVERIFY(failure);
        QCOMPARE(failure->message,
                 u"apply_patch verification failed: Failed to read file to update: %1"_s.arg(project() + u"/nope.txt"_s));
        QVERIFY(m_asker.requests.isEmpty());
    }

    void nothingIsWrittenWhenALaterHunkFails()
    {
        QVERIFY(m_tree.write(u"project/a.txt"_s, "a\n"));
        const std::optional<ToolFailure> failure = test::failureOf(run(patch({"*** Begin Patch", "*** Add File: fresh.txt", "+x",
                                                                "*** Update File: a.txt", "@@", "-zzz", "+y",
                                                                "*** End Patch"})));
        QVERIFY(failure);
        QCOMPARE(failure->message,
                 u"apply_patch verification failed: Failed to find expected lines in %1:\nzzz"_s.arg(project() + u"/a.txt"_s));
        QVERIFY(!QFile::exists(project() + u"/fresh.txt"_s));
        QCOMPARE(contents(project() + u"/a.txt"_s), QByteArray("a\n"));
    }

    void aCrlfFileStaysCrlf()
    {
        QVERIFY(m_tree.write(u"project/w.txt"_s, "a\r\nb\r\n"));
        const ToolResult result =
            run(patch({"*** Begin Patch", "*** Update File: w.txt", "@@", " a", "-b", "+c", "*** End Patch"}));
        QVERIFY2(test::outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(contents(project() + u"/w.txt"_s), QByteArray("a\r\nc\r\n"));
    }

    void aRejectedPatchChangesNothing()
    {
        QVERIFY(m_tree.write(u"project/a.txt"_s, "a\n"));
        m_asker.answers.insert(u"edit"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const std::optional<ToolFailure> failure = test::failureOf(
            run(patch({"*** Begin Patch", "*** Delete File: a.txt", "*** Add File: b.txt", "+b", "*** End Patch"})));
        QVERIFY(failure);
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejected);
        QVERIFY(QFile::exists(project() + u"/a.txt"_s));
        QVERIFY(!QFile::exists(project() + u"/b.txt"_s));
    }

    void pathsOutsideTheProjectAskFirst()
    {
        QVERIFY(m_tree.write(u"project/a.txt"_s, "a\n"));
        const ToolResult result = run(patch({"*** Begin Patch", "*** Update File: a.txt", "*** Move to: ../out/a.txt",
                                             "@@", "-a", "+b", "*** End Patch"}));
        QVERIFY2(test::outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(m_asker.permissions(), (QStringList{u"external_directory"_s, u"edit"_s}));
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"out"_s) + u"/*"_s});
        QCOMPARE(contents(m_tree.path(u"out/a.txt"_s)), QByteArray("b\n"));
    }

    void anAddThroughADanglingLinkToOutsideAsksFirst()
    {
        QVERIFY(QFile::link(m_tree.path(u"outside/new.txt"_s), project() + u"/new.txt"_s));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const std::optional<ToolFailure> failure =
            test::failureOf(run(patch({"*** Begin Patch", "*** Add File: new.txt", "+x", "*** End Patch"})));
        QVERIFY(failure);
        QCOMPARE(failure->kind, ToolFailure::Kind::PermissionRejected);
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"outside"_s) + u"/*"_s});
        QVERIFY(!QFileInfo::exists(m_tree.path(u"outside"_s)));
    }

    void anAddBelowALinkedFolderToOutsideAsksFirst()
    {
        QVERIFY(QDir().mkpath(m_tree.path(u"outside"_s)));
        QVERIFY(QFile::link(m_tree.path(u"outside"_s), project() + u"/sub"_s));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(
            run(patch({"*** Begin Patch", "*** Add File: sub/deep/new.txt", "+x", "*** End Patch"}))));
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"outside/deep"_s) + u"/*"_s});
        QVERIFY(!QFileInfo::exists(m_tree.path(u"outside/deep"_s)));
    }

    void anUpdateThroughALinkToOutsideAsksFirst()
    {
        QVERIFY(m_tree.write(u"outside/o.txt"_s, "a\n"));
        QVERIFY(QFile::link(m_tree.path(u"outside/o.txt"_s), project() + u"/o.txt"_s));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(
            run(patch({"*** Begin Patch", "*** Update File: o.txt", "@@", "-a", "+b", "*** End Patch"}))));
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(contents(m_tree.path(u"outside/o.txt"_s)), QByteArray("a\n"));
    }

    void aMoveToADanglingLinkToOutsideAsksFirst()
    {
        QVERIFY(m_tree.write(u"project/a.txt"_s, "a\n"));
        QVERIFY(QFile::link(m_tree.path(u"outside/moved.txt"_s), project() + u"/moved.txt"_s));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(patch({"*** Begin Patch", "*** Update File: a.txt", "*** Move to: moved.txt",
                                           "@@", "-a", "+b", "*** End Patch"}))));
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"outside"_s) + u"/*"_s});
        QCOMPARE(contents(project() + u"/a.txt"_s), QByteArray("a\n"));
        QVERIFY(!QFileInfo::exists(m_tree.path(u"outside"_s)));
    }

    void deletingALinkThatLiesOutsideAsksFirstEvenWhenItPointsInside()
    {
        // proj/ext -> <tree>/outside; <tree>/outside/l -> proj/a.txt. The
        // file deleted is the link, which lies outside.
        QVERIFY(m_tree.write(u"project/a.txt"_s, "a\n"));
        QVERIFY(QDir().mkpath(m_tree.path(u"outside"_s)));
        QVERIFY(QFile::link(m_tree.path(u"outside"_s), project() + u"/ext"_s));
        QVERIFY(QFile::link(project() + u"/a.txt"_s, m_tree.path(u"outside/l"_s)));
        m_asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        QVERIFY(test::failureOf(run(patch({"*** Begin Patch", "*** Delete File: ext/l", "*** End Patch"}))));
        QCOMPARE(m_asker.permissions(), QStringList{u"external_directory"_s});
        QCOMPARE(m_asker.requests.first().patterns, QStringList{m_tree.path(u"outside"_s) + u"/*"_s});
        QVERIFY(QFileInfo(m_tree.path(u"outside/l"_s)).isSymLink());
    }

    void aLinkInsideTheProjectIsPatchedWithoutAskingAboutOutside()
    {
        QVERIFY(m_tree.write(u"project/real.txt"_s, "a\n"));
        QVERIFY(QFile::link(u"real.txt"_s, project() + u"/alias.txt"_s));
        const ToolResult result =
            run(patch({"*** Begin Patch", "*** Update File: alias.txt", "@@", "-a", "+b", "*** End Patch"}));
        QVERIFY2(test::outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(m_asker.permissions(), QStringList{u"edit"_s});
        QVERIFY(QFileInfo(project() + u"/alias.txt"_s).isSymLink());
        QCOMPARE(contents(project() + u"/real.txt"_s), QByteArray("b\n"));
    }

    void aLinkSwappedInWhileTheQuestionIsOpenIsNotFollowed()
    {
        QVERIFY(QDir().mkpath(m_tree.path(u"outside"_s)));
        const QString outside = m_tree.path(u"outside/new.txt"_s);
        m_asker.whileAsking = [&](const PermissionRequest &) {
            QVERIFY(QFile::link(outside, project() + u"/new.txt"_s));
        };
        const std::optional<ToolFailure> failure =
            test::failureOf(run(patch({"*** Begin Patch", "*** Add File: new.txt", "+x", "*** End Patch"})));
        QVERIFY(failure);
        QVERIFY2(failure->message.contains(u"is a symbolic link now"_s), qPrintable(failure->message));
        QVERIFY2(failure->message.contains(u"No file was changed."_s), qPrintable(failure->message));
        QVERIFY(!QFileInfo::exists(outside));
    }

    void directoriesAndBinaryFilesFailVerification()
    {
        QVERIFY(QDir().mkpath(project() + u"/folder"_s));
        const std::optional<ToolFailure> folder = test::failureOf(
            run(patch({"*** Begin Patch", "*** Update File: folder", "@@", "-a", "+b", "*** End Patch"})));
        QVERIFY(folder);
        QCOMPARE(folder->message,
                 u"apply_patch verification failed: Failed to read file to update: %1"_s.arg(project() + u"/folder"_s));
        QVERIFY(test::failureOf(run(patch({"*** Begin Patch", "*** Add File: folder", "+x", "*** End Patch"}))));

        QVERIFY(m_tree.write(u"project/blob.bin"_s, QByteArray("a\0b\n", 4)));
        const std::optional<ToolFailure> binary = test::failureOf(
            run(patch({"*** Begin Patch", "*** Update File: blob.bin", "@@", "-a", "+b", "*** End Patch"})));
        QVERIFY(binary);
        QCOMPARE(binary->message,
                 u"apply_patch verification failed: Cannot edit binary file: %1"_s.arg(project() + u"/blob.bin"_s));
        QCOMPARE(contents(project() + u"/blob.bin"_s), QByteArray("a\0b\n", 4));
        QVERIFY(m_asker.requests.isEmpty());
    }

    void deletingAMissingFileFailsVerification()
    {
        const std::optional<ToolFailure> failure =
            test::failureOf(run(patch({"*** Begin Patch", "*** Delete File: ghost.txt", "*** End Patch"})));
        QVERIFY(failure);
        QVERIFY(failure->message.startsWith(u"apply_patch verification failed: "_s));
    }
};

QTEST_GUILESS_MAIN(ApplyPatchToolTest)
#include "tst_apply_patch_tool.moc"
