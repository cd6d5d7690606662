#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTest>

#include "TempTree.h"
#include "ToolTestSupport.h"
#include "engine/tool/FileTimes.h"
#include "engine/tool/ReadTool.h"
#include "engine/tool/ToolRegistry.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using qcode::test::failureOf;
using qcode::test::outputOf;

namespace {

QByteArray numberedLines(int count)
{
    QByteArrayList lines;
    for (int i = 0; i < count; ++i)
        lines.append("line" + QByteArray::number(i));
    return lines.join('\n');
}

// The canonical form of a temporary path (/tmp may itself be a link).
QString canonical(const QString &path)
{
    return QFileInfo(path).canonicalFilePath();
}

struct Project {
    test::TempTree tree;
    test::TempTree outside;
    FileTimes fileTimes;
    test::RecordingAsker asker;
    ToolServices services;
    std::unique_ptr<ReadTool> tool;

    Project()
    {
        services.fileTimes = &fileTimes;
        tool = std::make_unique<ReadTool>(services);
    }

    QString root() const { return canonical(tree.root()); }

    QString write(const QString &relative, const QByteArray &text) const
    {
        return tree.write(relative, text) ? QDir(root()).filePath(relative) : QString();
    }

    ToolResult read(const QJsonObject &arguments)
    {
        return test::runTool(*tool, arguments, test::toolContext(root(), &asker, nullptr));
    }
};

} // namespace

// The read tool (reference §8.1, 12.12 read.test.ts and
// external-directory.test.ts): FileReader's text behind the permission
// asks, with the read recorded for write and edit.
class ReadToolTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsAFileAsksReadAndRecordsTheRead()
    {
        Project project;
        const QString path = project.write(u"a.txt"_s, "a\nb\nc");
        const ToolResult result = project.read({{"filePath"_L1, path}});
        const ToolOutput *output = outputOf(result);
        QVERIFY2(output, qPrintable(test::describe(result)));
        QCOMPARE(output->output, u"<path>%1</path>\n<type>file</type>\n<content>\n1: a\n2: b\n3: c\n\n"
                                 "(End of file - total 3 lines)\n</content>"_s.arg(path));
        QCOMPARE(output->title, u"a.txt"_s);
        QCOMPARE(output->metadata.value("preview"_L1).toString(), u"a\nb\nc"_s);
        QCOMPARE(output->metadata.value("truncated"_L1), QJsonValue(false));

        QCOMPARE(project.asker.permissions(), QStringList{u"read"_s});
        const PermissionRequest &ask = project.asker.requests.first();
        QCOMPARE(ask.patterns, QStringList{path});
        QCOMPARE(ask.always, QStringList{u"*"_s});
        QCOMPARE(ask.sessionID, u"ses_test"_s);
        QVERIFY(ask.tool.has_value());
        QCOMPARE(ask.tool->callID, u"call_1"_s);
        QVERIFY(project.fileTimes.lastRead(u"ses_test"_s, path).has_value());
        QVERIFY(!project.fileTimes.lastRead(u"ses_other"_s, path).has_value());
    }

    void aRelativePathIsTakenFromTheProject()
    {
        Project project;
        const QString path = project.write(u"src/main.cpp"_s, "int main() {}\n");
        const ToolResult result = project.read({{"filePath"_L1, u"src/../src/main.cpp"_s}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QVERIFY(test::outputIn(result).output.startsWith(u"<path>%1</path>"_s.arg(path)));
        QCOMPARE(test::outputIn(result).title, u"src/main.cpp"_s);
        QCOMPARE(project.asker.requests.first().patterns, QStringList{path});
    }

    void offsetAndLimitWindowALongFile()
    {
        Project project;
        const QString path = project.write(u"long.txt"_s, numberedLines(2500));
        const ToolResult first = project.read({{"filePath"_L1, path}});
        QVERIFY(test::outputIn(first).output.contains("(Showing lines 1-2000 of 2500. Use offset=2001 to continue.)"_L1));
        QCOMPARE(test::outputIn(first).metadata.value("truncated"_L1), QJsonValue(true));

        const ToolResult window = project.read({{"filePath"_L1, path}, {"offset"_L1, 2001}, {"limit"_L1, 3}});
        QVERIFY(test::outputIn(window).output.contains("2001: line2000\n2002: line2001\n2003: line2002\n"_L1));
        QVERIFY(test::outputIn(window).output.contains("(Showing lines 2001-2003 of 2500. Use offset=2004 to continue.)"_L1));
    }

    void theRegistryCoercesANumericOffset()
    {
        Project project;
        const QString path = project.write(u"a.txt"_s, "a\nb\nc");
        ToolRegistry registry(project.services, nullptr);
        registry.add(std::make_unique<ReadTool>(project.services));
        const ToolResult result =
            test::runCall(registry, ToolCall{u"read"_s, u"c1"_s, {{"filePath"_L1, path}, {"offset"_L1, "2"_L1}}},
                          test::toolContext(project.root(), &project.asker, nullptr));
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QVERIFY(test::outputIn(result).output.contains("<content>\n2: b\n3: c\n"_L1));
        // read reports its own truncation: the registry leaves it alone.
        QVERIFY(!test::outputIn(result).metadata.contains("outputPath"_L1));

        const ToolResult missing =
            test::runCall(registry, ToolCall{u"read"_s, u"c2"_s, {{"offset"_L1, 1}}},
                          test::toolContext(project.root(), &project.asker, nullptr));
        QVERIFY(failureOf(missing));
        QVERIFY(test::failureIn(missing).message.contains("filePath: required, but missing"_L1));
        const ToolResult words =
            test::runCall(registry, ToolCall{u"read"_s, u"c3"_s, {{"filePath"_L1, path}, {"limit"_L1, "many"_L1}}},
                          test::toolContext(project.root(), &project.asker, nullptr));
        QVERIFY(failureOf(words));
        QVERIFY2(test::failureIn(words).message.contains("limit: expected integer, received string"_L1),
                 qPrintable(test::failureIn(words).message));
    }

    void badOffsetsAreRefusedBeforeAnyQuestion()
    {
        Project project;
        const QString path = project.write(u"a.txt"_s, "a\nb\nc");
        const ToolResult zero = project.read({{"filePath"_L1, path}, {"offset"_L1, 0}});
        QVERIFY(failureOf(zero));
        QCOMPARE(test::failureIn(zero).message, u"offset must be greater than or equal to 1"_s);
        QVERIFY(project.asker.requests.isEmpty());

        const ToolResult beyond = project.read({{"filePath"_L1, path}, {"offset"_L1, 10}});
        QVERIFY(failureOf(beyond));
        QCOMPARE(test::failureIn(beyond).message, u"Offset 10 is out of range for this file (3 lines)"_s);
        QVERIFY(!project.fileTimes.lastRead(u"ses_test"_s, path).has_value());
    }

    void aMissingFileSuggestsCloseNames()
    {
        Project project;
        const QString existing = project.write(u"Foo.ts"_s, "x");
        const ToolResult result = project.read({{"filePath"_L1, QDir(project.root()).filePath(u"foo.ts"_s)}});
        QVERIFY(failureOf(result));
        QVERIFY(test::failureIn(result).message.startsWith("File not found: "_L1));
        QVERIFY(test::failureIn(result).message.contains("Did you mean one of these?\n"_L1 + existing));
    }

    void aDirectoryListsItsEntriesAndIsNotRecorded()
    {
        Project project;
        QVERIFY(!project.write(u"a.txt"_s, "x").isEmpty());
        QVERIFY(!project.write(u"b/c.txt"_s, "y").isEmpty());
        const ToolResult result = project.read({{"filePath"_L1, project.root()}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QVERIFY(test::outputIn(result).output.contains("<type>directory</type>\n<entries>\na.txt\nb/\n\n(2 entries)\n</entries>"_L1));
        QVERIFY(!project.fileTimes.lastRead(u"ses_test"_s, project.root()).has_value());
    }

    void binaryFilesAreRefused()
    {
        Project project;
        const QString zip = project.write(u"archive.zip"_s, "PK not really");
        const QString nul = project.write(u"data.txt"_s, QByteArray("abc\0def", 7));
        QCOMPARE(test::failureIn(project.read({{"filePath"_L1, zip}})).message, u"Cannot read binary file: %1"_s.arg(zip));
        QCOMPARE(test::failureIn(project.read({{"filePath"_L1, nul}})).message, u"Cannot read binary file: %1"_s.arg(nul));
    }

    void invalidUtf8IsShownAndSaidSo()
    {
        Project project;
        const QString path = project.write(u"latin1.txt"_s, "caf\xe9\n");
        const ToolResult result = project.read({{"filePath"_L1, path}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QVERIFY(test::outputIn(result).output.contains(u"1: caf\uFFFD"_s));
        QVERIFY(test::outputIn(result).output.contains("not valid UTF-8"_L1));
    }

    void aFileOverFiftyKilobytesIsCapped()
    {
        Project project;
        QByteArrayList lines;
        for (int i = 0; i < 1000; ++i)
            lines.append(QByteArray(100, 'x'));
        const QString path = project.write(u"wide.txt"_s, lines.join('\n'));
        const ToolResult result = project.read({{"filePath"_L1, path}});
        QVERIFY(test::outputIn(result).output.contains("(Output capped at 50 KB. Showing lines 1-"_L1));
    }

    void anImageBecomesAnAttachment()
    {
        Project project;
        const QString path = project.write(u"pixel.png"_s, QByteArray::fromBase64(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="));
        const ToolResult result = project.read({{"filePath"_L1, path}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(test::outputIn(result).output, u"Image read successfully"_s);
        QCOMPARE(test::outputIn(result).attachments.size(), 1);
        QCOMPARE(test::outputIn(result).attachments.first().mime, u"image/png"_s);
    }

    void aFileOutsideTheProjectAsksExternalDirectoryFirst()
    {
        Project project;
        QVERIFY(project.outside.write(u"notes/x.txt"_s, "secret"));
        const QString outsideDir = canonical(project.outside.path(u"notes"_s));
        const QString path = outsideDir + "/x.txt"_L1;
        const ToolResult result = project.read({{"filePath"_L1, path}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(project.asker.permissions(), QStringList({u"external_directory"_s, u"read"_s}));
        const PermissionRequest &ask = project.asker.requests.first();
        QCOMPARE(ask.patterns, QStringList{outsideDir + "/*"_L1});
        QCOMPARE(ask.always, QStringList{outsideDir + "/*"_L1});
        QCOMPARE(ask.metadata.value("filepath"_L1).toString(), path);
        QCOMPARE(ask.metadata.value("parentDir"_L1).toString(), outsideDir);
    }

    void anOutsideDirectoryAsksForItself()
    {
        Project project;
        QVERIFY(project.outside.write(u"notes/x.txt"_s, "secret"));
        const QString outsideDir = canonical(project.outside.path(u"notes"_s));
        const ToolResult result = project.read({{"filePath"_L1, outsideDir}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(project.asker.requests.first().patterns, QStringList{outsideDir + "/*"_L1});
    }

    void dotDotOutOfTheProjectIsExternal()
    {
        Project project;
        QVERIFY(project.tree.write(u"inner/project/a.txt"_s, "a"));
        QVERIFY(project.tree.write(u"inner/elsewhere/b.txt"_s, "b"));
        const QString inner = QDir(project.root()).filePath(u"inner/project"_s);
        ToolContext context = test::toolContext(inner, &project.asker, nullptr);
        const ToolResult result = test::runTool(*project.tool, {{"filePath"_L1, u"../elsewhere/b.txt"_s}}, context);
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(project.asker.permissions(), QStringList({u"external_directory"_s, u"read"_s}));
        QCOMPARE(project.asker.requests.first().patterns,
                 QStringList{QDir(project.root()).filePath(u"inner/elsewhere/*"_s)});
    }

    void aSymlinkOutOfTheProjectIsExternal()
    {
        Project project;
        QVERIFY(project.outside.write(u"target/secret.txt"_s, "secret"));
        const QString targetDir = canonical(project.outside.path(u"target"_s));
        QVERIFY(QFile::link(targetDir + "/secret.txt"_L1, QDir(project.root()).filePath(u"innocent.txt"_s)));
        QVERIFY(QFile::link(targetDir, QDir(project.root()).filePath(u"linked"_s)));

        const ToolResult viaFile = project.read({{"filePath"_L1, u"innocent.txt"_s}});
        QVERIFY2(outputOf(viaFile), qPrintable(test::describe(viaFile)));
        QCOMPARE(project.asker.requests.first().permission, u"external_directory"_s);
        QCOMPARE(project.asker.requests.first().patterns, QStringList{targetDir + "/*"_L1});

        project.asker.requests.clear();
        const ToolResult viaFolder = project.read({{"filePath"_L1, u"linked/secret.txt"_s}});
        QVERIFY2(outputOf(viaFolder), qPrintable(test::describe(viaFolder)));
        QCOMPARE(project.asker.requests.first().permission, u"external_directory"_s);
        QCOMPARE(project.asker.requests.first().patterns, QStringList{targetDir + "/*"_L1});

        // A missing file below the linked folder is outside too.
        project.asker.requests.clear();
        QVERIFY(failureOf(project.read({{"filePath"_L1, u"linked/nothing.txt"_s}})));
        QCOMPARE(project.asker.requests.first().permission, u"external_directory"_s);
    }

    void aPathInTheWorktreeButOutsideTheDirectoryIsInside()
    {
        Project project;
        const QString path = project.write(u"lib/x.txt"_s, "x");
        QVERIFY(QDir().mkpath(QDir(project.root()).filePath(u"app"_s)));
        ToolContext context =
            test::toolContext(QDir(project.root()).filePath(u"app"_s), &project.asker, nullptr, project.root());
        const ToolResult result = test::runTool(*project.tool, {{"filePath"_L1, path}}, context);
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(project.asker.permissions(), QStringList{u"read"_s});
        QCOMPARE(test::outputIn(result).title, u"lib/x.txt"_s);
    }

    void aRefusedExternalDirectoryStopsBeforeReading()
    {
        Project project;
        QVERIFY(project.outside.write(u"x.txt"_s, "secret"));
        const QString path = canonical(project.outside.path(u"x.txt"_s));
        project.asker.answers.insert(u"external_directory"_s, PermissionAnswer{PermissionReply::Reject, {}});
        const ToolResult result = project.read({{"filePath"_L1, path}});
        QVERIFY(failureOf(result));
        QCOMPARE(test::failureIn(result).kind, ToolFailure::Kind::PermissionRejected);
        QCOMPARE(test::failureIn(result).message, u"The user rejected permission to use this specific tool call."_s);
        QCOMPARE(project.asker.permissions(), QStringList{u"external_directory"_s});
        QVERIFY(!project.fileTimes.lastRead(u"ses_test"_s, path).has_value());
    }

    void answersMapToTheFailuresTheProcessorExpects()
    {
        Project project;
        const QString path = project.write(u".env"_s, "KEY=1");

        project.asker.answers.insert(u"read"_s, PermissionAnswer{PermissionReply::RejectWithMessage, u"not secrets"_s});
        const ToolResult corrected = project.read({{"filePath"_L1, path}});
        QCOMPARE(test::failureIn(corrected).kind, ToolFailure::Kind::PermissionRejectedWithMessage);
        QCOMPARE(test::failureIn(corrected).message,
                 u"The user rejected permission to use this specific tool call with the following feedback: not secrets"_s);

        PermissionAnswer denied{PermissionReply::Reject, {}};
        denied.byRule = true;
        project.asker.answers.insert(u"read"_s, denied);
        const ToolResult byRule = project.read({{"filePath"_L1, path}});
        QCOMPARE(test::failureIn(byRule).kind, ToolFailure::Kind::Failed);
        QVERIFY(test::failureIn(byRule).message.startsWith(
            "The user has specified a rule which prevents you from using this specific tool call"_L1));
        QVERIFY(test::failureIn(byRule).message.contains(path));

        project.asker.answers.insert(u"read"_s, PermissionAnswer{PermissionReply::Always, {}});
        QVERIFY(outputOf(project.read({{"filePath"_L1, path}})));
    }

    void withoutAnAskerNothingIsRead()
    {
        Project project;
        const QString path = project.write(u"a.txt"_s, "a");
        const ToolResult result =
            test::runTool(*project.tool, {{"filePath"_L1, path}}, test::toolContext(project.root(), nullptr, nullptr));
        QVERIFY(failureOf(result));
        QCOMPARE(test::failureIn(result).kind, ToolFailure::Kind::Failed);
        QVERIFY(test::failureIn(result).message.contains("cannot ask"_L1));
    }
};

QTEST_GUILESS_MAIN(ReadToolTest)
#include "tst_read_tool.moc"
