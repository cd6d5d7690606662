#include <QJsonArray>
#include <QLocale>
#include <QTest>

#include "ToolParts.h"
#include "ui/chat/tool/ToolPresentation.h"
#include "ui/chat/tool/ToolStatus.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

ToolPresentation present(const QString &tool, const ToolState &state)
{
    return presentTool(toolOf(tool, state), Project);
}

ToolPresentation presentRunning(const QString &tool, const QJsonObject &input)
{
    return present(tool, running(input, 1000));
}

} // namespace

class ToolPresentationTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void bashQuotesItsCommandAndDescribesIt();
    void bashShowsOnlyTheFirstLineOfALongCommand();
    void readShowsAPathInsideTheProjectRelativeToIt();
    void pathsOutsideTheProjectStayAbsolute();
    void readNamesItsRangeAndCountsTheLinesItReturned();
    void editCountsItsChangesOnceDone();
    void writeOfANewFileSaysSo();
    void applyPatchNamesItsFilesFromThePatchText();
    void applyPatchNamesItsFilesFromItsResult();
    void globQuotesItsPatternAndCountsFiles();
    void grepQuotesItsPatternAndCountsMatches();
    void listShowsItsFolder();
    void webfetchNamesItsUrlAndTheSizeFetched();
    void taskShowsItsDescriptionAndAgent();
    void todowriteCountsWhatIsDone();
    void questionCountsItsQuestions();
    void anAnsweredQuestionKeepsItsAnswerInSight();
    void invalidCallSaysWhatWasWrong();
    void unknownToolKeepsItsNameAndShowsItsInput();
    void malformedInputFallsBackToTheRawJson();
    void aCallWithNoInputYetHasItsPlainTitle();
    void statusNamesEachStateAndItsTime();
    void durationsReadNaturally();

private:
    EnglishPlurals m_plurals;
};

void ToolPresentationTest::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCoreApplication::installTranslator(&m_plurals);
}

void ToolPresentationTest::bashQuotesItsCommandAndDescribesIt()
{
    const ToolPresentation shown =
        presentRunning(u"bash"_s, {{"command"_L1, u"make -j2"_s}, {"description"_L1, u"Builds the project"_s}});
    QCOMPARE(shown.iconName, u"bash"_s);
    QCOMPARE(shown.title, u"Run `make -j2`"_s);
    QCOMPARE(shown.subtitle, u"Builds the project"_s);
}

void ToolPresentationTest::bashShowsOnlyTheFirstLineOfALongCommand()
{
    const ToolPresentation shown = presentRunning(u"bash"_s, {{"command"_L1, u"cd build\nmake"_s}});
    QCOMPARE(shown.title, u"Run `cd build\u2026`"_s);
    const ToolPresentation longOne = presentRunning(u"bash"_s, {{"command"_L1, QString(200, u'x')}});
    QVERIFY(longOne.title.size() < 100);
    QVERIFY(longOne.title.endsWith(u"\u2026`"_s));
}

void ToolPresentationTest::readShowsAPathInsideTheProjectRelativeToIt()
{
    const ToolPresentation shown = presentRunning(u"read"_s, {{"filePath"_L1, inProject(u"src/main.cpp"_s)}});
    QCOMPARE(shown.iconName, u"read"_s);
    QCOMPARE(shown.title, u"Read src/main.cpp"_s);
    QCOMPARE(presentRunning(u"read"_s, {{"filePath"_L1, u"src/a.cpp"_s}}).title, u"Read src/a.cpp"_s);
}

void ToolPresentationTest::pathsOutsideTheProjectStayAbsolute()
{
    QCOMPARE(presentRunning(u"read"_s, {{"filePath"_L1, u"/etc/hosts"_s}}).title, u"Read /etc/hosts"_s);
    // A sibling whose name starts with the project's is not inside it.
    QCOMPARE(presentRunning(u"edit"_s, {{"filePath"_L1, u"/home/ada/project2/a.cpp"_s}}).title,
             u"Edit /home/ada/project2/a.cpp"_s);
}

void ToolPresentationTest::readNamesItsRangeAndCountsTheLinesItReturned()
{
    const QJsonObject input{{"filePath"_L1, inProject(u"a.txt"_s)}, {"offset"_L1, 10}, {"limit"_L1, 3}};
    const QString output = u"<path>/home/ada/project/a.txt</path>\n<type>file</type>\n<content>\n"
                           "10: one\n11: two\n12: three\n\n(Showing lines 10-12 of 40. Use offset=13 to continue.)\n"
                           "</content>"_s;
    const ToolPresentation shown = present(u"read"_s, completed(input, output, {}, 1000, 1100));
    QCOMPARE(shown.title, u"Read a.txt"_s);
    QCOMPARE(shown.subtitle, u"lines 10\u201312 \u00b7 3 lines"_s);
}

void ToolPresentationTest::editCountsItsChangesOnceDone()
{
    const QJsonObject input{
        {"filePath"_L1, inProject(u"src/a.cpp"_s)}, {"oldString"_L1, u"a"_s}, {"newString"_L1, u"b"_s}};
    QCOMPARE(presentRunning(u"edit"_s, input).subtitle, QString());
    const QJsonObject metadata{{"diff"_L1, u"--- a\n+++ a\n@@ -1,1 +1,3 @@\n-a\n+b\n+c\n+d\n"_s},
                               {"filediff"_L1, QJsonObject{{"additions"_L1, 3}, {"deletions"_L1, 1}}}};
    const ToolPresentation shown = present(u"edit"_s, completed(input, u"Edit applied successfully."_s, metadata, 1, 2));
    QCOMPARE(shown.iconName, u"edit"_s);
    QCOMPARE(shown.title, u"Edit src/a.cpp"_s);
    QCOMPARE(shown.subtitle, u"+3 \u22121"_s);
}

void ToolPresentationTest::writeOfANewFileSaysSo()
{
    const QJsonObject input{{"filePath"_L1, inProject(u"notes.md"_s)}, {"content"_L1, u"a\nb\n"_s}};
    const QJsonObject metadata{{"exists"_L1, false}, {"diff"_L1, u"--- n\n+++ n\n@@ -0,0 +1,2 @@\n+a\n+b\n"_s}};
    const ToolPresentation shown = present(u"write"_s, completed(input, u"Wrote file successfully."_s, metadata, 1, 2));
    QCOMPARE(shown.title, u"Write notes.md"_s);
    QCOMPARE(shown.subtitle, u"new file \u00b7 +2 \u22120"_s);
}

void ToolPresentationTest::applyPatchNamesItsFilesFromThePatchText()
{
    const QString patch = u"*** Begin Patch\n*** Add File: src/new.cpp\n+int x;\n*** Update File: src/old.cpp\n@@\n"
                          "-a\n+b\n*** End Patch"_s;
    const ToolPresentation shown = presentRunning(u"apply_patch"_s, {{"patchText"_L1, patch}});
    QCOMPARE(shown.iconName, u"apply_patch"_s);
    QCOMPARE(shown.title, u"Patch 2 files"_s);
    QCOMPARE(shown.subtitle, u"src/new.cpp, src/old.cpp"_s);
}

void ToolPresentationTest::applyPatchNamesItsFilesFromItsResult()
{
    const QJsonArray files{QJsonObject{{"relativePath"_L1, u"src/a.cpp"_s}}};
    const QJsonObject metadata{{"files"_L1, files}, {"diff"_L1, u"--- a\n+++ a\n@@ -1 +1 @@\n-a\n+b\n"_s}};
    const ToolPresentation shown =
        present(u"apply_patch"_s, completed({{"patchText"_L1, u"…"_s}}, u"Success."_s, metadata, 1, 2));
    QCOMPARE(shown.title, u"Patch src/a.cpp"_s);
    QCOMPARE(shown.subtitle, u"+1 \u22121"_s);
}

void ToolPresentationTest::globQuotesItsPatternAndCountsFiles()
{
    const QJsonObject input{{"pattern"_L1, u"**/*.cpp"_s}, {"path"_L1, inProject(u"src"_s)}};
    const ToolPresentation shown =
        present(u"glob"_s, completed(input, u"a\nb\nc"_s, {{"count"_L1, 3}, {"truncated"_L1, false}}, 1, 2));
    QCOMPARE(shown.iconName, u"glob"_s);
    QCOMPARE(shown.title, u"Find files `**/*.cpp` in src"_s);
    QCOMPARE(shown.subtitle, u"3 files"_s);
    QCOMPARE(present(u"glob"_s, completed(input, u"…"_s, {{"count"_L1, 100}, {"truncated"_L1, true}}, 1, 2)).subtitle,
             u"first 100 files"_s);
}

void ToolPresentationTest::grepQuotesItsPatternAndCountsMatches()
{
    const QJsonObject input{{"pattern"_L1, u"TODO"_s}, {"include"_L1, u"*.cpp"_s}};
    QCOMPARE(presentRunning(u"grep"_s, input).title, u"Search for `TODO`"_s);
    const ToolPresentation shown = present(u"grep"_s, completed(input, u"Found 12 matches"_s, {{"matches"_L1, 12}}, 1, 2));
    QCOMPARE(shown.subtitle, u"in *.cpp \u00b7 12 matches"_s);
    QCOMPARE(present(u"grep"_s, completed(input, u"x"_s, {{"matches"_L1, 1}}, 1, 2)).subtitle, u"in *.cpp \u00b7 1 match"_s);
}

void ToolPresentationTest::listShowsItsFolder()
{
    QCOMPARE(presentRunning(u"list"_s, {{"path"_L1, inProject(u"src"_s)}}).title, u"List src"_s);
    QCOMPARE(presentRunning(u"list"_s, {}).title, u"List the project folder"_s);
    const ToolPresentation shown = present(u"list"_s, completed({}, u"…"_s, {{"count"_L1, 5}}, 1, 2));
    QCOMPARE(shown.subtitle, u"5 files"_s);
}

void ToolPresentationTest::webfetchNamesItsUrlAndTheSizeFetched()
{
    const QJsonObject input{{"url"_L1, u"https://example.com/docs"_s}};
    QCOMPARE(presentRunning(u"webfetch"_s, input).title, u"Fetch https://example.com/docs"_s);
    const ToolPresentation shown = present(u"webfetch"_s, completed(input, QString(2048, u'a'), {}, 1, 2));
    QCOMPARE(shown.subtitle, u"2 kB"_s);
}

void ToolPresentationTest::taskShowsItsDescriptionAndAgent()
{
    const ToolPresentation shown =
        presentRunning(u"task"_s, {{"description"_L1, u"Find the bug"_s}, {"prompt"_L1, u"…"_s},
                                   {"subagent_type"_L1, u"explore"_s}});
    QCOMPARE(shown.iconName, u"task"_s);
    QCOMPARE(shown.title, u"Task: Find the bug"_s);
    QCOMPARE(shown.subtitle, u"explore"_s);
}

void ToolPresentationTest::todowriteCountsWhatIsDone()
{
    const QJsonArray todos{QJsonObject{{"content"_L1, u"a"_s}, {"status"_L1, u"completed"_s}},
                           QJsonObject{{"content"_L1, u"b"_s}, {"status"_L1, u"in_progress"_s}},
                           QJsonObject{{"content"_L1, u"c"_s}, {"status"_L1, u"pending"_s}}};
    const ToolPresentation shown = presentRunning(u"todowrite"_s, {{"todos"_L1, todos}});
    QCOMPARE(shown.iconName, u"todowrite"_s);
    QCOMPARE(shown.title, u"Update the to-do list"_s);
    QCOMPARE(shown.subtitle, u"1 of 3 done"_s);
    QCOMPARE(present(u"todoread"_s, completed({}, u"[]"_s, {{"todos"_L1, todos}}, 1, 2)).title, u"Read the to-do list"_s);
}

void ToolPresentationTest::anAnsweredQuestionKeepsItsAnswerInSight()
{
    const QJsonObject input{{"questions"_L1, QJsonArray{QJsonObject{{"question"_L1, u"Which database?"_s}}}}};
    const QJsonObject metadata{{"answers"_L1, QJsonArray{QJsonArray{u"SQLite"_s}}}};
    const ToolPresentation shown = present(u"question"_s, completed(input, u"answered"_s, metadata, 1, 2));
    QCOMPARE(shown.title, u"Ask 1 question"_s);
    QCOMPARE(shown.subtitle, u"Which database? → SQLite"_s);
}

void ToolPresentationTest::questionCountsItsQuestions()
{
    const QJsonArray questions{QJsonObject{{"question"_L1, u"Which database?"_s}},
                               QJsonObject{{"question"_L1, u"Which port?"_s}}};
    const ToolPresentation shown = presentRunning(u"question"_s, {{"questions"_L1, questions}});
    QCOMPARE(shown.title, u"Ask 2 questions"_s);
    QCOMPARE(shown.subtitle, u"Which database?"_s);
}

void ToolPresentationTest::invalidCallSaysWhatWasWrong()
{
    const ToolPresentation shown =
        presentRunning(u"invalid"_s, {{"tool"_L1, u"bash"_s}, {"error"_L1, u"command is required"_s}});
    QCOMPARE(shown.iconName, u"invalid"_s);
    QCOMPARE(shown.title, u"Invalid call of bash"_s);
    QCOMPARE(shown.subtitle, u"command is required"_s);
}

void ToolPresentationTest::unknownToolKeepsItsNameAndShowsItsInput()
{
    const ToolPresentation shown = presentRunning(u"github_create_issue"_s, {{"title"_L1, u"Crash"_s}});
    QCOMPARE(shown.iconName, u"generic"_s);
    QCOMPARE(shown.title, u"github_create_issue"_s);
    QCOMPARE(shown.subtitle, u"{\"title\":\"Crash\"}"_s);
    ToolRunning titled = running({{"title"_L1, u"Crash"_s}}, 1);
    titled.title = u"Creating issue"_s;
    QCOMPARE(present(u"github_create_issue"_s, titled).subtitle, u"Creating issue"_s);
}

void ToolPresentationTest::malformedInputFallsBackToTheRawJson()
{
    const ToolPresentation read = presentRunning(u"read"_s, {{"filePath"_L1, 42}});
    QCOMPARE(read.title, u"Read a file"_s);
    QCOMPARE(read.subtitle, u"{\"filePath\":42}"_s);
    const ToolPresentation bash = presentRunning(u"bash"_s, {{"command"_L1, QJsonArray{u"ls"_s}}});
    QCOMPARE(bash.title, u"Run a command"_s);
    QCOMPARE(bash.subtitle, u"{\"command\":[\"ls\"]}"_s);
    // Metadata of the wrong types counts nothing rather than crashing.
    const ToolPresentation edit = present(
        u"edit"_s, completed({{"filePath"_L1, u"a"_s}}, u"ok"_s, {{"filediff"_L1, 3}, {"diff"_L1, QJsonArray()}}, 1, 2));
    QCOMPARE(edit.title, u"Edit a"_s);
    QCOMPARE(edit.subtitle, QString());
    const ToolPresentation glob =
        present(u"glob"_s, completed({{"pattern"_L1, u"*"_s}}, u"x"_s, {{"count"_L1, u"many"_s}}, 1, 2));
    QCOMPARE(glob.subtitle, u"0 files"_s);
}

void ToolPresentationTest::aCallWithNoInputYetHasItsPlainTitle()
{
    const ToolPresentation shown = present(u"bash"_s, ToolPending{{}, u"{\"comm"_s});
    QCOMPARE(shown.title, u"Run a command"_s);
    QCOMPARE(shown.subtitle, QString());
}

void ToolPresentationTest::statusNamesEachStateAndItsTime()
{
    QCOMPARE(ToolStatus::of(ToolPending{}, 5000).text, u"Pending"_s);
    QCOMPARE(ToolStatus::of(running({}, 1000), 4500).text, u"Running 3s"_s);
    QCOMPARE(ToolStatus::of(completed({}, {}, {}, 1000, 2200), 9999).text, u"Done in 1.2s"_s);
    QCOMPARE(ToolStatus::of(failed({}, u"boom"_s, 1, 2), 3).text, u"Failed"_s);
    QCOMPARE(ToolStatus::of(failed({}, u"Tool execution aborted"_s, 1, 2), 3).text, u"Stopped"_s);
    QCOMPARE(ToolStatus::of(failed({}, u"The user rejected permission to use this specific tool call."_s, 1, 2), 3).kind,
             ToolStatus::Kind::Rejected);
}

void ToolPresentationTest::durationsReadNaturally()
{
    QCOMPARE(ToolStatus::duration(350), u"350 ms"_s);
    QCOMPARE(ToolStatus::duration(1234), u"1.2s"_s);
    QCOMPARE(ToolStatus::duration(12400), u"12s"_s);
    QCOMPARE(ToolStatus::duration(125000), u"2m 5s"_s);
    QCOMPARE(ToolStatus::duration(3 * 3600000 + 4 * 60000), u"3h 4m"_s);
    QCOMPARE(ToolStatus::elapsed(999), u"0s"_s);
}

QTEST_GUILESS_MAIN(ToolPresentationTest)
#include "tst_tool_presentation.moc"
