#include <QTest>

#include "engine/tool/PatchFormat.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QString lines(std::initializer_list<const char *> parts)
{
    QStringList out;
    for (const char *part : parts)
        out.append(QString::fromUtf8(part));
    return out.join(u'\n');
}

} // namespace

class PatchFormatTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesAddDeleteUpdateAndMove()
    {
        const QString patch = lines({"*** Begin Patch", "*** Add File: new.txt", "+hello", "+world",
                                     "*** Delete File: old.txt", "*** Update File: src/a.py", "*** Move to: src/b.py",
                                     "@@ def f():", " keep", "-gone", "+come", "*** End Patch"});
        const Result<QList<PatchFormat::Hunk>> hunks = PatchFormat::parse(patch);
        QVERIFY2(hunks.ok(), qPrintable(hunks.errorMessage()));
        QCOMPARE(hunks->size(), 3);
        QCOMPARE(hunks->at(0).kind, PatchFormat::Hunk::Kind::Add);
        QCOMPARE(hunks->at(0).path, u"new.txt"_s);
        QCOMPARE(hunks->at(0).contents, u"hello\nworld"_s);
        QCOMPARE(hunks->at(1).kind, PatchFormat::Hunk::Kind::Delete);
        QCOMPARE(hunks->at(1).path, u"old.txt"_s);
        const PatchFormat::Hunk &update = hunks->at(2);
        QCOMPARE(update.kind, PatchFormat::Hunk::Kind::Update);
        QCOMPARE(update.path, u"src/a.py"_s);
        QCOMPARE(update.movePath, u"src/b.py"_s);
        QCOMPARE(update.chunks.size(), 1);
        QCOMPARE(update.chunks[0].changeContext, u"def f():"_s);
        QCOMPARE(update.chunks[0].oldLines, (QStringList{u"keep"_s, u"gone"_s}));
        QCOMPARE(update.chunks[0].newLines, (QStringList{u"keep"_s, u"come"_s}));
    }

    void missingMarkersAreAnError()
    {
        QCOMPARE(PatchFormat::parse(u"*** Add File: a\n+x"_s).errorMessage(),
                 u"Invalid patch format: missing Begin/End markers"_s);
        QVERIFY(!PatchFormat::parse(u"*** End Patch\n*** Begin Patch"_s).ok());
    }

    void anEmptyPatchHasNoHunks()
    {
        const Result<QList<PatchFormat::Hunk>> hunks = PatchFormat::parse(u"*** Begin Patch\n*** End Patch"_s);
        QVERIFY(hunks.ok());
        QVERIFY(hunks->isEmpty());
    }

    void aHeredocWrapperAndCrlfAreAccepted()
    {
        const QString patch = lines({"cat <<'EOF'", "*** Begin Patch", "*** Delete File: x", "*** End Patch", "EOF"});
        const Result<QList<PatchFormat::Hunk>> hunks = PatchFormat::parse(patch);
        QVERIFY(hunks.ok());
        QCOMPARE(hunks->size(), 1);
        const Result<QList<PatchFormat::Hunk>> crlf =
            PatchFormat::parse(u"*** Begin Patch\r\n*** Add File: a\r\n+x\r\n*** End Patch\r\n"_s);
        QCOMPARE(crlf->at(0).contents, u"x"_s);
    }

    void appliesAChunkAndKeepsTheFinalNewline()
    {
        PatchFormat::Chunk chunk;
        chunk.oldLines = QStringList{u"b"_s};
        chunk.newLines = QStringList{u"B"_s, u"b2"_s};
        const Result<QString> result = PatchFormat::applyChunks(u"f"_s, {chunk}, u"a\nb\nc\n"_s);
        QCOMPARE(*result, u"a\nB\nb2\nc\n"_s);
    }

    void theContextLineIsFoundFirst()
    {
        PatchFormat::Chunk chunk;
        chunk.changeContext = u"def second():"_s;
        chunk.oldLines = QStringList{u"    return 1"_s};
        chunk.newLines = QStringList{u"    return 2"_s};
        const QString file = lines({"def first():", "    return 1", "def second():", "    return 1", ""});
        const Result<QString> result = PatchFormat::applyChunks(u"f"_s, {chunk}, file);
        QCOMPARE(*result, lines({"def first():", "    return 1", "def second():", "    return 2", ""}));
    }

    void linesAreMatchedLooselyWhenNotExact()
    {
        PatchFormat::Chunk chunk;
        chunk.oldLines = QStringList{u"say(\"hi\") - ok"_s};
        chunk.newLines = QStringList{u"say(\"bye\")"_s};
        // Trailing blanks, then typographic quotes and dashes.
        const QString file = u"say(\u201Chi\u201D) \u2014 ok   \n"_s;
        const Result<QString> result = PatchFormat::applyChunks(u"f"_s, {chunk}, file);
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(*result, u"say(\"bye\")\n"_s);
    }

    void endOfFileChunksMatchAtTheEnd()
    {
        PatchFormat::Chunk chunk;
        chunk.oldLines = QStringList{u"x"_s};
        chunk.newLines = QStringList{u"y"_s};
        chunk.endOfFile = true;
        QCOMPARE(*PatchFormat::applyChunks(u"f"_s, {chunk}, u"x\nmid\nx\n"_s), u"x\nmid\ny\n"_s);
        const Result<QList<PatchFormat::Hunk>> parsed = PatchFormat::parse(
            lines({"*** Begin Patch", "*** Update File: f", "@@", "-x", "+y", "*** End of File", "*** End Patch"}));
        QVERIFY(parsed->at(0).chunks.at(0).endOfFile);
    }

    void aChunkWithoutOldLinesAppends()
    {
        PatchFormat::Chunk chunk;
        chunk.newLines = QStringList{u"tail"_s};
        QCOMPARE(*PatchFormat::applyChunks(u"f"_s, {chunk}, u"a\n"_s), u"a\ntail\n"_s);
    }

    void missingLinesAndContextAreNamed()
    {
        PatchFormat::Chunk missing;
        missing.oldLines = QStringList{u"nope"_s};
        QCOMPARE(PatchFormat::applyChunks(u"/p/f"_s, {missing}, u"a\n"_s).errorMessage(),
                 u"Failed to find expected lines in /p/f:\nnope"_s);
        PatchFormat::Chunk context;
        context.changeContext = u"class X"_s;
        context.oldLines = QStringList{u"a"_s};
        QCOMPARE(PatchFormat::applyChunks(u"/p/f"_s, {context}, u"a\n"_s).errorMessage(),
                 u"Failed to find context 'class X' in /p/f"_s);
    }
};

QTEST_GUILESS_MAIN(PatchFormatTest)
#include "tst_patch_format.moc"
