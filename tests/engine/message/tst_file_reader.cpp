#include <QFile>
#include <QJsonArray>
#include <QTest>

#include "ProjectFiles.h"
#include "engine/message/DataUrl.h"
#include "engine/message/FileReader.h"

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QByteArray numberedLines(int count, const char *prefix = "line")
{
    QByteArrayList lines;
    for (int i = 0; i < count; ++i)
        lines.append(QByteArray(prefix) + QByteArray::number(i));
    return lines.join('\n');
}

} // namespace

class FileReaderTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsAFileWithNumberedLinesAndTheEndOfFileFooter()
    {
        ProjectFiles project;
        const QString path = project.write(u"a.txt"_s, "a\nb\nc");
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(result->output, u"<path>%1</path>\n<type>file</type>\n<content>\n1: a\n2: b\n3: c\n\n"
                                 "(End of file - total 3 lines)\n</content>"_s.arg(path));
        QCOMPARE(result->title, u"a.txt"_s);
        QCOMPARE(result->metadata.value("truncated"_L1).toBool(), false);
        QCOMPARE(result->metadata.value("preview"_L1).toString(), u"a\nb\nc"_s);
        QCOMPARE(result->metadata.value("loaded"_L1).toArray(), QJsonArray());
        QVERIFY(result->attachments.isEmpty());
    }

    void showsTheFirst2000LinesOfALongerFileAndWhereToContinue()
    {
        ProjectFiles project;
        const QString path = project.write(u"long.txt"_s, numberedLines(2500));
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(result.ok());
        QVERIFY(result->output.contains("\n2000: line1999\n"_L1));
        QVERIFY(!result->output.contains("2001: "_L1));
        QVERIFY(result->output.endsWith(
            "\n\n(Showing lines 1-2000 of 2500. Use offset=2001 to continue.)\n</content>"_L1));
        QCOMPARE(result->metadata.value("truncated"_L1).toBool(), true);
        QCOMPARE(result->metadata.value("preview"_L1).toString().count(u'\n'), 19);
    }

    void cutsALineLongerThan2000CharactersAndSaysSo()
    {
        ProjectFiles project;
        const QString path = project.write(u"wide.txt"_s, QByteArray(3000, 'x'));
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(result.ok());
        QVERIFY(result->output.contains(u"\n1: "_s + QString(2000, u'x') + u"... (line truncated to 2000 chars)\n"_s));
        QVERIFY(!result->output.contains(QString(2001, u'x')));
    }

    void cutsAGiganticLineWithoutHoldingItInMemory()
    {
        // Five megabytes of multi-byte characters on one line.
        ProjectFiles project;
        QByteArray line;
        for (int i = 0; i < 5 * 1024 * 1024 / 3; ++i)
            line.append("\xe6\x96\x87");
        const QString path = project.write(u"one-line.txt"_s, line + "\nend");
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(result.ok());
        QVERIFY(result->output.contains(u"1: "_s + QString(2000, QChar(0x6587)) + u"... (line truncated"_s));
        QVERIFY(result->output.contains("\n2: end\n"_L1));
        QVERIFY(!result->metadata.contains("encoding"_L1));
    }

    void readsTheWindowOffsetAndLimitAskFor()
    {
        ProjectFiles project;
        const QString path = project.write(u"offset.txt"_s, numberedLines(20));
        const auto result = FileReader(project.root(), project.root()).read({path, 10, 5});
        QVERIFY(result.ok());
        QVERIFY(result->output.contains("<content>\n10: line9\n11: line10"_L1));
        QVERIFY(result->output.contains("\n14: line13\n\n(Showing lines 10-14 of 20. Use offset=15 to continue.)"_L1));
        QVERIFY(!result->output.contains("line14"_L1));
        QVERIFY(!result->output.contains(": line8"_L1));
    }

    void capsTheOutputAt50KilobytesAndSaysWhereToContinue()
    {
        ProjectFiles project;
        QByteArrayList lines(100, QByteArray(1000, 'y'));
        const QString path = project.write(u"wide-lines.txt"_s, lines.join('\n'));
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(result.ok());
        // 1000 bytes, then 1001 with each newline: 51 lines fit in 51,200.
        QVERIFY(result->output.contains("\n51: "_L1));
        QVERIFY(!result->output.contains("\n52: "_L1));
        QVERIFY(result->output.endsWith(
            "\n\n(Output capped at 50 KB. Showing lines 1-51. Use offset=52 to continue.)\n</content>"_L1));
        QCOMPARE(result->metadata.value("truncated"_L1).toBool(), true);
    }

    void refusesAnOffsetPastTheEnd()
    {
        ProjectFiles project;
        const QString path = project.write(u"three.txt"_s, "a\nb\nc");
        const auto result = FileReader(project.root(), project.root()).read({path, 10, {}});
        QVERIFY(!result.ok());
        QCOMPARE(result.errorMessage(), u"Offset 10 is out of range for this file (3 lines)"_s);
    }

    void refusesAnOffsetBelowOneAndALimitBelowOne()
    {
        ProjectFiles project;
        const QString path = project.write(u"three.txt"_s, "a\nb\nc");
        const FileReader reader(project.root(), project.root());
        QCOMPARE(reader.read({path, 0, {}}).errorMessage(), u"offset must be greater than or equal to 1"_s);
        QCOMPARE(reader.read({path, {}, 0}).errorMessage(), u"limit must be greater than or equal to 1"_s);
    }

    void readsAnEmptyFileAsNoLines()
    {
        ProjectFiles project;
        const QString path = project.write(u"empty.txt"_s, QByteArray());
        const auto result = FileReader(project.root(), project.root()).read({path, 1, {}});
        QVERIFY(result.ok());
        QCOMPARE(result->output, u"<path>%1</path>\n<type>file</type>\n<content>\n\n\n"
                                 "(End of file - total 0 lines)\n</content>"_s.arg(path));
    }

    void endsLinesAtLfCrLfAndALoneCrAndIgnoresTheLastTerminator()
    {
        ProjectFiles project;
        const QString path = project.write(u"endings.txt"_s, "one\r\ntwo\rthree\n\nfive\n");
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(result.ok());
        QVERIFY(result->output.contains("<content>\n1: one\n2: two\n3: three\n4: \n5: five\n\n"
                                        "(End of file - total 5 lines)"_L1));
    }

    void keepsACrLfSplitAcrossReadChunksAsOneLineEnd()
    {
        // The reader takes 64 KiB at a time; the CR ends one chunk, the LF
        // starts the next.
        ProjectFiles project;
        const QString path = project.write(u"split.txt"_s, QByteArray(64 * 1024 - 1, 'a') + "\r\nb");
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(result.ok());
        QVERIFY(result->output.contains("\n2: b\n\n(End of file - total 2 lines)"_L1));
    }

    void suggestsSimilarNamesForAMissingFile()
    {
        ProjectFiles project;
        const QString existing = project.write(u"Foo.ts"_s, "export {}\n");
        const QString missing = project.path(u"foo.ts"_s);
        if (QFileInfo::exists(missing))
            QSKIP("This filesystem ignores case.");
        const auto result = FileReader(project.root(), project.root()).read({missing, {}, {}});
        QVERIFY(!result.ok());
        QCOMPARE(result.errorMessage(),
                 u"File not found: %1\n\nDid you mean one of these?\n%2"_s.arg(missing, existing));
    }

    void saysFileNotFoundWhenNothingIsSimilar()
    {
        ProjectFiles project;
        project.write(u"other.md"_s, "x");
        const QString missing = project.path(u"nothing.ts"_s);
        const auto result = FileReader(project.root(), project.root()).read({missing, {}, {}});
        QCOMPARE(result.errorMessage(), u"File not found: %1"_s.arg(missing));
    }

    void attachesAPngAsAnImage()
    {
        ProjectFiles project;
        const QString path = project.write(u"image.png"_s, onePixelPng());
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(result.ok());
        QCOMPARE(result->output, u"Image read successfully"_s);
        QCOMPARE(result->metadata.value("truncated"_L1).toBool(), false);
        QCOMPARE(result->attachments.size(), 1);
        QCOMPARE(result->attachments.first().mime, u"image/png"_s);
        QCOMPARE(DataUrl::decode(result->attachments.first().url).value(), onePixelPng());
    }

    void attachesAPdf()
    {
        ProjectFiles project;
        const QString path = project.write(u"doc.pdf"_s, "%PDF-1.4\n%%EOF\n");
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(result.ok());
        QCOMPARE(result->output, u"PDF read successfully"_s);
        QCOMPARE(result->attachments.first().url, u"data:application/pdf;base64,"_s + QString::fromLatin1(QByteArray("%PDF-1.4\n%%EOF\n").toBase64()));
    }

    void readsSvgAndFlatBuffersSchemasAsText()
    {
        ProjectFiles project;
        const FileReader reader(project.root(), project.root());
        const auto svg = reader.read({project.write(u"icon.svg"_s, "<svg/>"), {}, {}});
        QVERIFY(svg.ok());
        QVERIFY(svg->attachments.isEmpty());
        QVERIFY(svg->output.contains("1: <svg/>"_L1));
        const auto fbs = reader.read({project.write(u"schema.fbs"_s, "namespace MyGame;\n\ntable Monster {}"), {}, {}});
        QVERIFY(fbs.ok());
        QVERIFY(fbs->attachments.isEmpty());
        QVERIFY(fbs->output.contains("namespace MyGame"_L1));
    }

    void refusesBinaryFilesByExtensionAndByContent()
    {
        ProjectFiles project;
        const FileReader reader(project.root(), project.root());
        const QString zip = project.write(u"archive.zip"_s, "plain text, but a zip by name");
        QCOMPARE(reader.read({zip, {}, {}}).errorMessage(), u"Cannot read binary file: %1"_s.arg(zip));
        const QString nul = project.write(u"data.txt"_s, QByteArray("abc\0def", 7));
        QCOMPARE(reader.read({nul, {}, {}}).errorMessage(), u"Cannot read binary file: %1"_s.arg(nul));
        const QString control = project.write(u"control.txt"_s, QByteArray(40, '\x01') + QByteArray(60, 'a'));
        QCOMPARE(reader.read({control, {}, {}}).errorMessage(), u"Cannot read binary file: %1"_s.arg(control));
    }

    void listsADirectorySortedWithASlashAfterFolders()
    {
        ProjectFiles project;
        const QString dir = project.mkdir(u"listing"_s);
        project.mkdir(u"listing/b"_s);
        project.write(u"listing/a.txt"_s, "a");
        const auto result = FileReader(project.root(), project.root()).read({dir, {}, {}});
        QVERIFY(result.ok());
        QCOMPARE(result->output,
                 u"<path>%1</path>\n<type>directory</type>\n<entries>\na.txt\nb/\n\n(2 entries)\n</entries>"_s.arg(dir));
        QCOMPARE(result->metadata.value("truncated"_L1).toBool(), false);
    }

    void windowsADirectoryListingByOffsetAndLimit()
    {
        ProjectFiles project;
        const QString dir = project.mkdir(u"many"_s);
        for (const char *name : {"a", "b", "c", "d", "e"})
            project.write(u"many/"_s + QLatin1StringView(name), "x");
        const auto result = FileReader(project.root(), project.root()).read({dir, 2, 2});
        QVERIFY(result.ok());
        QVERIFY(result->output.endsWith(
            "<entries>\nb\nc\n\n(Showing 2 of 5 entries. Use 'offset' parameter to read beyond entry 4)\n</entries>"_L1));
        QCOMPARE(result->metadata.value("truncated"_L1).toBool(), true);
    }

    void marksASymlinkToAFolderWithASlash()
    {
        ProjectFiles project;
        const QString dir = project.mkdir(u"links"_s);
        const QString target = project.mkdir(u"target"_s);
        if (!QFile::link(target, dir + u"/to-target"_s))
            QSKIP("Symbolic links are not available here.");
        const auto result = FileReader(project.root(), project.root()).read({dir, {}, {}});
        QVERIFY(result.ok());
        QVERIFY(result->output.contains("<entries>\nto-target/\n"_L1));
    }

    void readsANonUtf8FileAndSaysItIsNotUtf8()
    {
        ProjectFiles project;
        const QString path = project.write(u"latin1.txt"_s, "caf\xe9\n");
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(result.ok());
        QVERIFY(result->output.contains(u"1: caf\uFFFD\n"_s));
        QVERIFY(result->output.endsWith(u"</content>\n\n(This file is not valid UTF-8: bytes that are not UTF-8 are shown as \uFFFD.)"_s));
        QCOMPARE(result->metadata.value("encoding"_L1).toString(), u"invalid-utf8"_s);
    }

    void saysWhyAnUnreadableFileCannotBeRead()
    {
        ProjectFiles project;
        const QString path = project.write(u"secret.txt"_s, "hidden");
        QFile::setPermissions(path, QFileDevice::Permissions());
        if (QFileInfo(path).isReadable())
            QSKIP("Running with rights that read any file.");
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(!result.ok());
        QVERIFY2(result.errorMessage().startsWith(u"Cannot open %1: "_s.arg(path)), qPrintable(result.errorMessage()));
    }

    void refusesAFifoInsteadOfBlockingOnIt()
    {
#ifdef Q_OS_UNIX
        ProjectFiles project;
        const QString path = project.path(u"pipe"_s);
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QCOMPARE(result.errorMessage(), u"Cannot read %1: it is not a regular file"_s.arg(path));
#else
        QSKIP("FIFOs are a Unix feature.");
#endif
    }

    void refusesToAttachAnImageOverTheCap()
    {
        ProjectFiles project;
        const QString path = project.write(u"huge.png"_s, QByteArray());
        QFile file(path);
        QVERIFY(file.resize(FileReader::MaxAttachmentBytes + 1));
        const auto result = FileReader(project.root(), project.root()).read({path, {}, {}});
        QVERIFY(!result.ok());
        QCOMPARE(result.errorMessage(), u"%1 is too large to attach (20.0 MB; the limit is 20 MB)"_s.arg(path));
    }

    void resolvesARelativePathFromTheDirectoryAndTitlesItFromTheWorktree()
    {
        ProjectFiles project;
        project.write(u"sub/notes.txt"_s, "hello");
        const auto result = FileReader(project.path(u"sub"_s), project.root()).read({u"notes.txt"_s, {}, {}});
        QVERIFY(result.ok());
        QCOMPARE(result->title, u"sub/notes.txt"_s);
        QVERIFY(result->output.startsWith(u"<path>%1</path>"_s.arg(project.path(u"sub/notes.txt"_s))));
    }

    void flagsAPathOutsideTheProjectInItsMetadata()
    {
        ProjectFiles project;
        const QString inside = project.write(u"in.txt"_s, "in");
        const QString outside = project.write(project.outside() + u"/out.txt"_s, "out");
        const FileReader reader(project.root(), project.root());
        QCOMPARE(reader.read({inside, {}, {}})->metadata.value("external"_L1).toBool(), false);
        const auto result = reader.read({outside, {}, {}});
        QVERIFY(result.ok());
        QCOMPARE(result->metadata.value("external"_L1).toBool(), true);
        QVERIFY(reader.isExternal(project.root() + u"/../outside/out.txt"_s));
    }
};

QTEST_GUILESS_MAIN(FileReaderTest)
#include "tst_file_reader.moc"
