#include <QDir>
#include <QDirIterator>
#include <QLoggingCategory>
#include <QTest>

#include "TempTree.h"
#include "TsAudit.h"

using namespace Qt::StringLiterals;
using namespace qcode::test;

Q_LOGGING_CATEGORY(lcTranslationFiles, "qcode.test.translations")

namespace {

// Set by tests/i18n/CMakeLists.txt from the qcode target's translations.
const QString SourceDir = QStringLiteral(QCODE_SOURCE_DIR);
const QString Lupdate = QStringLiteral(QCODE_LUPDATE);
const QStringList FullTsFiles = QStringLiteral(QCODE_TS_FILES).split(u'|', Qt::SkipEmptyParts);
const QString PluralsTsFile = QStringLiteral(QCODE_PLURALS_TS_FILE);

// Every file lupdate reads when update_translations runs (src/app/CMakeLists.txt).
QStringList translatableSources(const QString &root)
{
    QStringList files;
    QDirIterator it(root, {u"*.cpp"_s, u"*.h"_s}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(it.next());
    files.sort();
    return files;
}

QString listed(const QList<TsAudit::Finding> &findings)
{
    QStringList lines;
    for (const TsAudit::Finding &finding : findings)
        lines.append(finding.toString());
    return lines.join(u'\n');
}

const QByteArray ProbeSource = R"cpp(
#include <QCoreApplication>
void probe()
{
    QCoreApplication::translate("Probe", "kept");
    QCoreApplication::translate("Probe", "added");
    QCoreApplication::translate("Probe", "blank");
    QCoreApplication::translate("Probe", "%n file(s)", nullptr, 2);
}
)cpp";

const QByteArray ProbeTs = R"ts(<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Probe</name>
    <message>
        <source>kept</source>
        <translation>behalten</translation>
    </message>
    <message>
        <source>blank</source>
        <translation></translation>
    </message>
    <message>
        <source>gone</source>
        <translation>weg</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n Datei</numerusform>
            <numerusform>%n Dateien</numerusform>
        </translation>
    </message>
</context>
</TS>
)ts";

} // namespace

// The shipped .ts files (zh_CN, de and the English plural forms) against
// the current sources: a string added, changed or removed in the code and
// not yet translated or cleaned up fails here, naming it.
class TranslationFilesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyShippedFileIsFinishedAfterLupdate_data();
    void everyShippedFileIsFinishedAfterLupdate();
    void everyTsFileInTheFolderIsBuilt();
    void theAuditNamesUnfinishedVanishedAndEmptyEntries();
    void thePluralOnlyAuditLeavesPlainStringsOut();
    void aFileThatIsNotALinguistFileIsAnError();
    void aTextUnderAContextTrDoesNotUseIsNamed();
};

void TranslationFilesTest::everyShippedFileIsFinishedAfterLupdate_data()
{
    QTest::addColumn<QString>("tsFile");
    QTest::addColumn<bool>("pluralOnly");
    for (const QString &file : FullTsFiles)
        QTest::newRow(qPrintable(QFileInfo(file).fileName())) << file << false;
    QTest::newRow(qPrintable(QFileInfo(PluralsTsFile).fileName())) << PluralsTsFile << true;
}

void TranslationFilesTest::everyShippedFileIsFinishedAfterLupdate()
{
    QFETCH(QString, tsFile);
    QFETCH(bool, pluralOnly);
    const TsAudit audit(Lupdate, translatableSources(SourceDir + u"/src"_s));
    const TsAudit::Outcome outcome = audit.audit(tsFile, pluralOnly);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QVERIFY2(outcome.entries > 0, qPrintable(tsFile));
    for (const QString &warning : outcome.warnings)
        qCWarning(lcTranslationFiles).noquote() << warning;
    QVERIFY2(outcome.warnings.isEmpty(),
             qPrintable(u"lupdate files %1 text(s) under a context tr() does not use at run time, listed above"_s.arg(
                 outcome.warnings.size())));
    // One line each: a failure message alone would be cut short.
    for (const TsAudit::Finding &finding : outcome.findings)
        qCWarning(lcTranslationFiles).noquote() << QFileInfo(tsFile).fileName() << finding.toString();
    QVERIFY2(outcome.findings.isEmpty(),
             qPrintable(u"%1 has %2 entries to finish or remove after lupdate, listed above (run the "
                        "update_translations target, then translate)"_s.arg(tsFile)
                            .arg(outcome.findings.size())));
}

void TranslationFilesTest::everyTsFileInTheFolderIsBuilt()
{
    const QStringList built = FullTsFiles + QStringList{PluralsTsFile};
    const QDir folder(SourceDir + u"/translations"_s);
    const QStringList present = folder.entryList({u"*.ts"_s}, QDir::Files);
    QVERIFY(!present.isEmpty());
    for (const QString &name : present)
        QVERIFY2(built.contains(folder.filePath(name)), qPrintable(name + u" is not in src/app/CMakeLists.txt"_s));
}

void TranslationFilesTest::theAuditNamesUnfinishedVanishedAndEmptyEntries()
{
    TempTree tree;
    QVERIFY(tree.write(u"src/Probe.cpp"_s, ProbeSource));
    QVERIFY(tree.write(u"qcode_de.ts"_s, ProbeTs));
    const TsAudit audit(Lupdate, {tree.path(u"src/Probe.cpp"_s)});
    const TsAudit::Outcome outcome = audit.audit(tree.path(u"qcode_de.ts"_s), false);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QCOMPARE(outcome.entries, 5);
    const QList<TsAudit::Finding> expected{
        {u"Probe"_s, u"added"_s, u"unfinished"_s},
        {u"Probe"_s, u"blank"_s, u"empty"_s},
        {u"Probe"_s, u"gone"_s, u"vanished"_s},
    };
    for (const TsAudit::Finding &finding : expected)
        QVERIFY2(outcome.findings.contains(finding), qPrintable(listed(outcome.findings)));
    QCOMPARE(outcome.findings.size(), expected.size());
    // The shipped file is the lead's to update: the audit works on a copy.
    QCOMPARE(TsAudit::read(tree.path(u"qcode_de.ts"_s)).entries, 4);
}

void TranslationFilesTest::thePluralOnlyAuditLeavesPlainStringsOut()
{
    TempTree tree;
    QVERIFY(tree.write(u"src/Probe.cpp"_s, ProbeSource));
    QVERIFY(tree.write(u"qcode_en.ts"_s, R"ts(<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>Probe</name>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
</context>
</TS>
)ts"));
    const TsAudit audit(Lupdate, {tree.path(u"src/Probe.cpp"_s)});
    const TsAudit::Outcome outcome = audit.audit(tree.path(u"qcode_en.ts"_s), true);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QCOMPARE(outcome.entries, 1);
    QVERIFY2(outcome.findings.isEmpty(), qPrintable(listed(outcome.findings)));
}

void TranslationFilesTest::aFileThatIsNotALinguistFileIsAnError()
{
    TempTree tree;
    QVERIFY(tree.write(u"broken.ts"_s, "<html><body>not a translation</body></html>"));
    QVERIFY(!TsAudit::read(tree.path(u"broken.ts"_s)).error.isEmpty());
    QVERIFY(!TsAudit::read(tree.path(u"missing.ts"_s)).error.isEmpty());
}

void TranslationFilesTest::aTextUnderAContextTrDoesNotUseIsNamed()
{
    // tr() through an alias lupdate cannot resolve, and tr() in a class that
    // has no translation functions of its own: at run time both look the
    // texts up under another context than the one lupdate files them under.
    TempTree tree;
    QVERIFY(tree.write(u"src/Lost.cpp"_s, R"cpp(
#include <QCoreApplication>
struct Titled {
    Q_DECLARE_TR_FUNCTIONS(Titled)
};
namespace {
using Tr = Titled;
QString aliased() { return Tr::tr("through an alias"); }
}
class Plain : public QObject {
public:
    QString text() const;
};
QString Plain::text() const { return tr("in a class without Q_OBJECT"); }
)cpp"));
    QVERIFY(tree.write(u"qcode_de.ts"_s, R"ts(<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
</TS>
)ts"));
    const TsAudit audit(Lupdate, {tree.path(u"src/Lost.cpp"_s)});
    const TsAudit::Outcome outcome = audit.audit(tree.path(u"qcode_de.ts"_s), false);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QCOMPARE(outcome.warnings.size(), 2);
    QVERIFY2(outcome.warnings.join(u'\n').contains(u"Plain"_s), qPrintable(outcome.warnings.join(u'\n')));
    QVERIFY(outcome.findings.contains(TsAudit::Finding{{}, u"through an alias"_s, u"no context"_s}));
}

QTEST_GUILESS_MAIN(TranslationFilesTest)
#include "tst_translation_files.moc"
