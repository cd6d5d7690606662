#include <QCoreApplication>
#include <QJsonObject>
#include <QTest>
#include <QTranslator>

#include "ui/chat/tool/ToolPresentation.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

// Set by tests/i18n/CMakeLists.txt: where the qcode target's .qm files are built.
const QString QmDir = QStringLiteral(QCODE_QM_DIR);

} // namespace

// English needs a translation for its plural forms only: with qcode_en.qm
// installed, "%n line(s)" reads "1 line" and "3 lines".
class EnglishPluralsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void aCountOfOneIsSingular();
    void otherCountsArePlural();
    void aToolCardSubtitleReadsNaturally();
    void textsWithoutACountAreLeftToTheSource();

private:
    QTranslator m_english;
};

void EnglishPluralsTest::initTestCase()
{
    QVERIFY2(m_english.load(u"qcode_en"_s, QmDir), qPrintable(QmDir));
    QVERIFY(QCoreApplication::installTranslator(&m_english));
}

void EnglishPluralsTest::cleanupTestCase()
{
    QCoreApplication::removeTranslator(&m_english);
}

void EnglishPluralsTest::aCountOfOneIsSingular()
{
    QCOMPARE(ToolPresentation::tr("%n line(s)", nullptr, 1), u"1 line"_s);
    QCOMPARE(ToolPresentation::tr("%n match(es)", nullptr, 1), u"1 match"_s);
}

void EnglishPluralsTest::otherCountsArePlural()
{
    QCOMPARE(ToolPresentation::tr("%n line(s)", nullptr, 3), u"3 lines"_s);
    QCOMPARE(ToolPresentation::tr("%n line(s)", nullptr, 0), u"0 lines"_s);
    QCOMPARE(ToolPresentation::tr("%n match(es)", nullptr, 12), u"12 matches"_s);
}

void EnglishPluralsTest::aToolCardSubtitleReadsNaturally()
{
    const QJsonObject input{{"filePath"_L1, u"/p/a.txt"_s}};
    const ToolPart one{u"c"_s, u"read"_s, ToolCompleted{input, u"1: only\n"_s, {}, {}, 0, 1, {}, {}}, {}, {}};
    QCOMPARE(presentTool(one, u"/p"_s).subtitle, u"1 line"_s);
}

void EnglishPluralsTest::textsWithoutACountAreLeftToTheSource()
{
    // The file holds numerus entries only; everything else stays as written.
    QCOMPARE(ToolPresentation::tr("Read a file"), u"Read a file"_s);
}

QTEST_GUILESS_MAIN(EnglishPluralsTest)
#include "tst_english_plurals.moc"
