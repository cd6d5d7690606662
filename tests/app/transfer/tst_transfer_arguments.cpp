// The command lines of `qcode export`, `qcode import` and `qcode sessions`:
// what each flag means, which format an export gets, and every kind of bad
// input refused with a sentence that says what is wrong.

#include <QTest>

#include "TransferArguments.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class TransferArgumentsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exportTakesTheIdAndWritesJsonToStandardOutputByDefault();
    void exportFormatComesFromTheFlagThenTheOutputName_data();
    void exportFormatComesFromTheFlagThenTheOutputName();
    void exportOptionsMayComeAfterTheId();
    void badExportLinesAreRefusedWithAReason_data();
    void badExportLinesAreRefusedWithAReason();
    void importTakesOneFileOrADashForStandardInput();
    void badImportLinesAreRefusedWithAReason_data();
    void badImportLinesAreRefusedWithAReason();
    void sessionsTakesAFolderAndNoWords();
    void helpNeedsNothingElse();
    void helpTextsNameEveryOption();
};

void TransferArgumentsTest::exportTakesTheIdAndWritesJsonToStandardOutputByDefault()
{
    const Result<ExportArguments> parsed = TransferArgumentParser::parseExport({u"ses_abc"_s});
    QVERIFY2(parsed.ok(), qPrintable(parsed.errorMessage()));
    QCOMPARE(parsed->sessionID, u"ses_abc"_s);
    QVERIFY(parsed->output.isEmpty());
    QVERIFY(!parsed->format);
    QVERIFY(parsed->effectiveFormat() == SessionFiles::Format::Json);
    QVERIFY(!parsed->help);
}

void TransferArgumentsTest::exportFormatComesFromTheFlagThenTheOutputName_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<bool>("markdown");
    QTest::newRow("json") << QStringList{u"--format"_s, u"json"_s} << false;
    QTest::newRow("markdown") << QStringList{u"--format"_s, u"markdown"_s} << true;
    QTest::newRow("md") << QStringList{u"--format"_s, u"md"_s} << true;
    QTest::newRow("MARKDOWN") << QStringList{u"--format"_s, u"MARKDOWN"_s} << true;
    QTest::newRow("name .md") << QStringList{u"-o"_s, u"notes/s.md"_s} << true;
    QTest::newRow("name .MD") << QStringList{u"--output"_s, u"S.MD"_s} << true;
    QTest::newRow("name .markdown") << QStringList{u"--output"_s, u"s.markdown"_s} << true;
    QTest::newRow("name .json") << QStringList{u"--output"_s, u"s.json"_s} << false;
    QTest::newRow("name without suffix") << QStringList{u"--output"_s, u"session"_s} << false;
    QTest::newRow("flag beats name") << QStringList{u"--format"_s, u"json"_s, u"-o"_s, u"s.md"_s} << false;
    QTest::newRow("flag beats name too") << QStringList{u"--format"_s, u"markdown"_s, u"-o"_s, u"s.json"_s} << true;
}

void TransferArgumentsTest::exportFormatComesFromTheFlagThenTheOutputName()
{
    QFETCH(QStringList, arguments);
    QFETCH(bool, markdown);
    const Result<ExportArguments> parsed = TransferArgumentParser::parseExport(arguments + QStringList{u"ses_abc"_s});
    QVERIFY2(parsed.ok(), qPrintable(parsed.errorMessage()));
    QCOMPARE(parsed->effectiveFormat() == SessionFiles::Format::Markdown, markdown);
}

void TransferArgumentsTest::exportOptionsMayComeAfterTheId()
{
    const Result<ExportArguments> parsed =
        TransferArgumentParser::parseExport({u"ses_abc"_s, u"--output"_s, u"out.json"_s});
    QVERIFY2(parsed.ok(), qPrintable(parsed.errorMessage()));
    QCOMPARE(parsed->sessionID, u"ses_abc"_s);
    QCOMPARE(parsed->output, u"out.json"_s);
}

void TransferArgumentsTest::badExportLinesAreRefusedWithAReason_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("reason");
    QTest::newRow("no id") << QStringList{} << u"Missing session id"_s;
    QTest::newRow("blank id") << QStringList{u"  "_s} << u"Missing session id"_s;
    QTest::newRow("two ids") << QStringList{u"ses_a"_s, u"ses_b"_s} << u"ses_a ses_b"_s;
    QTest::newRow("unknown format") << QStringList{u"--format"_s, u"html"_s, u"ses_a"_s} << u"\"html\""_s;
    QTest::newRow("format twice") << QStringList{u"--format"_s, u"json"_s, u"--format"_s, u"md"_s, u"ses_a"_s}
                                  << u"--format was given more than once"_s;
    QTest::newRow("empty output") << QStringList{u"--output"_s, u""_s, u"ses_a"_s} << u"--output needs a value"_s;
    QTest::newRow("missing value") << QStringList{u"ses_a"_s, u"--format"_s} << u"format"_s;
    QTest::newRow("unknown option") << QStringList{u"--json"_s, u"ses_a"_s} << u"json"_s;
}

void TransferArgumentsTest::badExportLinesAreRefusedWithAReason()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, reason);
    const Result<ExportArguments> parsed = TransferArgumentParser::parseExport(arguments);
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.errorMessage().contains(reason), qPrintable(parsed.errorMessage()));
}

void TransferArgumentsTest::importTakesOneFileOrADashForStandardInput()
{
    const Result<ImportArguments> file = TransferArgumentParser::parseImport({u"session.json"_s});
    QVERIFY2(file.ok(), qPrintable(file.errorMessage()));
    QCOMPARE(file->file, u"session.json"_s);
    QVERIFY(!file->readsStandardInput());

    const Result<ImportArguments> dash = TransferArgumentParser::parseImport({u"-"_s});
    QVERIFY2(dash.ok(), qPrintable(dash.errorMessage()));
    QVERIFY(dash->readsStandardInput());

    // After "--" a file may be named like an option.
    const Result<ImportArguments> odd = TransferArgumentParser::parseImport({u"--"_s, u"--help.json"_s});
    QVERIFY2(odd.ok(), qPrintable(odd.errorMessage()));
    QCOMPARE(odd->file, u"--help.json"_s);
    QVERIFY(!odd->help);
}

void TransferArgumentsTest::badImportLinesAreRefusedWithAReason_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("reason");
    QTest::newRow("no file") << QStringList{} << u"Missing file to import"_s;
    QTest::newRow("two files") << QStringList{u"a.json"_s, u"b.json"_s} << u"a.json b.json"_s;
    QTest::newRow("unknown option") << QStringList{u"--force"_s, u"a.json"_s} << u"force"_s;
}

void TransferArgumentsTest::badImportLinesAreRefusedWithAReason()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, reason);
    const Result<ImportArguments> parsed = TransferArgumentParser::parseImport(arguments);
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.errorMessage().contains(reason), qPrintable(parsed.errorMessage()));
}

void TransferArgumentsTest::sessionsTakesAFolderAndNoWords()
{
    const Result<SessionsArguments> all = TransferArgumentParser::parseSessions({});
    QVERIFY2(all.ok(), qPrintable(all.errorMessage()));
    QVERIFY(all->directory.isEmpty());
    const Result<SessionsArguments> folder = TransferArgumentParser::parseSessions({u"--dir"_s, u"src"_s});
    QVERIFY2(folder.ok(), qPrintable(folder.errorMessage()));
    QCOMPARE(folder->directory, u"src"_s);

    const Result<SessionsArguments> word = TransferArgumentParser::parseSessions({u"everything"_s});
    QVERIFY(!word.ok());
    QVERIFY2(word.errorMessage().contains(u"everything"_s), qPrintable(word.errorMessage()));
    QVERIFY(!TransferArgumentParser::parseSessions({u"--dir"_s, u"a"_s, u"--dir"_s, u"b"_s}).ok());
}

void TransferArgumentsTest::helpNeedsNothingElse()
{
    QVERIFY(TransferArgumentParser::parseExport({u"--help"_s})->help);
    QVERIFY(TransferArgumentParser::parseExport({u"-h"_s})->help);
    QVERIFY(TransferArgumentParser::parseImport({u"--help"_s})->help);
    QVERIFY(TransferArgumentParser::parseSessions({u"-h"_s})->help);
}

void TransferArgumentsTest::helpTextsNameEveryOption()
{
    const QString exportHelp = TransferArgumentParser::exportHelp();
    for (const QString &flag : {u"--format json|markdown"_s, u"-o, --output FILE"_s, u"-h, --help"_s, u"Exit status"_s})
        QVERIFY2(exportHelp.contains(flag), qPrintable(flag));
    QVERIFY(TransferArgumentParser::importHelp().contains(u"FILE - reads"_s));
    QVERIFY(TransferArgumentParser::sessionsHelp().contains(u"--dir DIR"_s));
}

QTEST_GUILESS_MAIN(TransferArgumentsTest)
#include "tst_transfer_arguments.moc"
