#include <QDir>
#include <QLoggingCategory>
#include <QTest>

#include "LiteralScanner.h"

using namespace Qt::StringLiterals;
using namespace qcode::test;

Q_LOGGING_CATEGORY(lcLiteralStrings, "qcode.test.literals")

namespace {

// Set by tests/i18n/CMakeLists.txt.
const QString SourceDir = QStringLiteral(QCODE_SOURCE_DIR);

QString listed(const QList<LiteralScanner::Finding> &findings)
{
    QStringList lines;
    for (const LiteralScanner::Finding &finding : findings)
        lines.append(finding.toString());
    return lines.join(u'\n');
}

QList<int> lines(const QList<LiteralScanner::Finding> &findings)
{
    QList<int> out;
    for (const LiteralScanner::Finding &finding : findings)
        out.append(finding.line);
    return out;
}

} // namespace

// Every string a person reads goes through tr(): a literal handed straight
// to a widget's text in src/ fails here, with its file and line, unless a
// `// i18n: <why>` comment says why it stays as it is.
class LiteralStringsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void noUntranslatedLiteralReachesAWidget();
    void aLiteralPassedToASetterIsReported();
    void translatedAndMarkedLiteralsAreAccepted();
    void constructorsAndDialogsAreScanned();
    void aComboBoxItemsValueIsNotText();
    void commentsRawStringsAndDigitSeparatorsDoNotConfuseTheScanner();
};

void LiteralStringsTest::noUntranslatedLiteralReachesAWidget()
{
    const QString src = SourceDir + u"/src"_s;
    QVERIFY2(QDir(src).exists(), qPrintable(src));
    const QList<LiteralScanner::Finding> findings = LiteralScanner::scanTree(src);
    // One line each: a failure message alone would be cut short.
    for (const LiteralScanner::Finding &finding : findings)
        qCWarning(lcLiteralStrings).noquote() << finding.toString();
    QVERIFY2(findings.isEmpty(),
             qPrintable(u"%1 literal(s) a person would read, listed above, are not translated: wrap each in tr(), "
                        "or say why not with `// i18n: <why>` on its line"_s.arg(findings.size())));
}

void LiteralStringsTest::aLiteralPassedToASetterIsReported()
{
    const QString code = uR"cpp(
void Widget::build()
{
    m_label->setText(u"Ready"_s);
    setWindowTitle(QStringLiteral("qcode"));
    m_edit->setPlaceholderText("Type here");
    m_status->setToolTip(name + u" (custom)"_s);
    m_title->setText(busy ? tr("Working") : u"Idle"_s);
    m_message->setText(u"Could not save "
                       "the file"_s);
    bar->showMessage(QLatin1String("Saved"), 2000);
}
)cpp"_s;
    const QList<LiteralScanner::Finding> findings = LiteralScanner::scan(code, u"Widget.cpp"_s);
    QCOMPARE(lines(findings), (QList<int>{4, 5, 6, 7, 8, 9, 11}));
    QCOMPARE(findings.first().toString(), u"Widget.cpp:4: setText(u\"Ready\"_s)"_s);
    QCOMPARE(findings.at(5).literal, u"u\"Could not save \" \"the file\"_s"_s);
}

void LiteralStringsTest::translatedAndMarkedLiteralsAreAccepted()
{
    const QString code = uR"cpp(
void Widget::build()
{
    m_label->setText(tr("Ready"));
    m_title->setText(QCoreApplication::translate("Widget", "Idle"));
    m_count->setText(tr("%n file(s)", nullptr, count).arg(u"unused"_s));
    m_path->setText(QDir::toNativeSeparators(u"/tmp"_s));
    m_remove->setText(u"×"_s); // i18n: a symbol, the same in every language
    m_name->setText(u"%1 (%2)"_s.arg(name, id)); /* i18n: a format, no words */
    m_note->setText(
        u"简体中文"_s); // i18n: the language's own name
    m_empty->setText(u""_s);
    m_label->setText(QString());
}
)cpp"_s;
    const QList<LiteralScanner::Finding> findings = LiteralScanner::scan(code, u"Widget.cpp"_s);
    QVERIFY2(findings.isEmpty(), qPrintable(listed(findings)));
    // A marker without a reason is no marker.
    QCOMPARE(LiteralScanner::scan(u"void f() { l->setText(u\"x\"_s); // i18n:\n}"_s).size(), 1);
}

void LiteralStringsTest::constructorsAndDialogsAreScanned()
{
    const QString code = uR"cpp(
Box::Box(QWidget *parent)
    : QGroupBox(u"Providers"_s, parent)
{
    auto *save = new QPushButton(u"Save"_s, this);
    QCheckBox remember("Remember", this);
    auto *action = new QAction(tr("Open"), this);
    QMessageBox::warning(this, tr("qcode"), u"Not saved"_s);
    auto *label = qobject_cast<QLabel *>(child(u"name"_s));
    QMessageBox box(QMessageBox::Warning, tr("Title"), tr("Text"));
}
)cpp"_s;
    const QList<LiteralScanner::Finding> findings = LiteralScanner::scan(code);
    QCOMPARE(lines(findings), (QList<int>{3, 5, 6, 8}));
    QCOMPARE(findings.at(3).call, u"QMessageBox::warning"_s);
}

void LiteralStringsTest::aComboBoxItemsValueIsNotText()
{
    const QString code = uR"cpp(
void Page::fill()
{
    combo->addItem(tr("Allow"), u"allow"_s);
    combo->addItem(u"English"_s, u"en"_s);
    combo->addItem(icon, tr("Deny"), u"deny"_s);
}
)cpp"_s;
    const QList<LiteralScanner::Finding> findings = LiteralScanner::scan(code);
    QCOMPARE(lines(findings), QList<int>{5});
    QCOMPARE(findings.first().literal, u"u\"English\"_s"_s);
}

void LiteralStringsTest::commentsRawStringsAndDigitSeparatorsDoNotConfuseTheScanner()
{
    const QString code = uR"x(
// m_label->setText(u"in a comment"_s);
/* setToolTip(u"in a block comment"_s); */
const auto raw = R"(setText(u"in a raw string"_s))";
constexpr int timeout = 120'000; // a digit separator, not a character literal
const char quote = '"';
void f() { m_label->setText(u"after all that"_s); }
)x"_s;
    const QList<LiteralScanner::Finding> findings = LiteralScanner::scan(code);
    QCOMPARE(lines(findings), QList<int>{7});
}

QTEST_GUILESS_MAIN(LiteralStringsTest)
#include "tst_literal_strings.moc"
