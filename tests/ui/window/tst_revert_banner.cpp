#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTranslator>

#include "ui/window/RevertBanner.h"
#include "ui/window/SessionController.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

// English plural forms for any "(s)" string, as qcode_en.qm gives them,
// so the tests see which count each tr() call was given.
class EnglishPlurals : public QTranslator
{
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *, const char *source, const char *, int n) const override
    {
        const QString text = QString::fromUtf8(source);
        if (n < 0 || !text.contains(u"(s)"_s))
            return {};
        return QString(text).replace(u"(s)"_s, n == 1 ? QString() : u"s"_s);
    }
};

} // namespace

// Undo says what it did, in words (issue 19, point 18): how much was taken
// back and which files were put back as they were.
class RevertBannerTest : public QObject
{
    Q_OBJECT

private:
    EnglishPlurals m_plurals;

    static QString text(const RevertBanner &banner)
    {
        const QList<QLabel *> labels = banner.findChildren<QLabel *>();
        QStringList texts;
        for (const QLabel *label : labels)
            texts.append(label->text());
        return texts.join(u'\n');
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::installTranslator(&m_plurals);
    }

    void cleanupTestCase()
    {
        QCoreApplication::removeTranslator(&m_plurals);
    }

    void namesTheFileAnUndoRestored()
    {
        RevertBanner banner;
        banner.setUndone(1, {u"CMakeLists.txt"_s});
        QVERIFY(!banner.isHidden());
        const QString said = text(banner);
        QVERIFY2(said.startsWith(u"Undid your last prompt and restored 1 file: CMakeLists.txt."_s), qPrintable(said));
    }

    void countsTwoFilesInThePlural()
    {
        RevertBanner banner;
        banner.setUndone(1, {u"a.cpp"_s, u"b.cpp"_s});
        const QString said = text(banner);
        QVERIFY2(said.startsWith(u"Undid your last prompt and restored 2 files: a.cpp, b.cpp."_s), qPrintable(said));
    }

    void countsThePromptsOfALongerUndo()
    {
        RevertBanner banner;
        banner.setUndone(3, {u"a.cpp"_s});
        QVERIFY2(text(banner).startsWith(u"Undid your last 3 prompts and restored 1 file: a.cpp."_s),
                 qPrintable(text(banner)));
        banner.setUndone(2, {});
        QVERIFY2(text(banner).startsWith(u"Undid your last 2 prompts; no files needed restoring."_s),
                 qPrintable(text(banner)));
    }

    void namesAFewFilesAndCountsTheRest()
    {
        RevertBanner banner;
        banner.setUndone(1, {u"a.cpp"_s, u"b.cpp"_s, u"c.cpp"_s, u"d.cpp"_s, u"e.cpp"_s});
        const QString said = text(banner);
        QVERIFY2(said.contains(u"restored 5 files: a.cpp, b.cpp, c.cpp and 2 more."_s), qPrintable(said));
        QVERIFY(!said.contains(u"d.cpp"_s));
    }

    void saysSoWhenNoFileNeededRestoring()
    {
        RevertBanner banner;
        banner.setUndone(1, {});
        QVERIFY(text(banner).startsWith(u"Undid your last prompt; no files needed restoring."_s));
    }

    void theRestoredFilesAreReadFromTheRevertsDiff()
    {
        const QString diff = u"diff --git a/CMakeLists.txt b/CMakeLists.txt\nindex 1..2 100644\n--- a/CMakeLists.txt\n"
                             "+++ b/CMakeLists.txt\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/src/main.cpp b/src/main.cpp\n"
                             "--- a/src/main.cpp\n+++ b/src/main.cpp\n"_s;
        QCOMPARE(SessionController::filesInDiff(diff), (QStringList{u"CMakeLists.txt"_s, u"src/main.cpp"_s}));
        QVERIFY(SessionController::filesInDiff(QString()).isEmpty());
        QVERIFY(SessionController::filesInDiff(u"not a diff\n+++ b/x"_s).isEmpty());
    }

    void isHiddenWhenNothingIsUndone()
    {
        RevertBanner banner;
        banner.setUndone(0, {});
        QVERIFY(banner.isHidden());
    }

    void redoAsksForTheNextPrompt()
    {
        RevertBanner banner;
        banner.setUndone(1, {u"x"_s});
        QSignalSpy redo(&banner, &RevertBanner::redoRequested);
        banner.findChild<QPushButton *>(u"redoButton"_s)->click();
        QCOMPARE(redo.count(), 1);
    }
};

QTEST_MAIN(RevertBannerTest)
#include "tst_revert_banner.moc"
