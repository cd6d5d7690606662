#include <QJsonArray>
#include <QTest>

#include "ToolParts.h"
#include "ui/chat/tool/DiffParser.h"
#include "ui/chat/tool/ToolBody.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

ToolBody bodyOf(const QString &tool, const ToolState &state)
{
    return ToolBody::of(toolOf(tool, state), Project);
}

} // namespace

class ToolBodyTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bashShowsItsLiveOutputWhileRunning();
    void aReadShowsTheLinesWithAGutterNotTheModelsWrapping();
    void aReadOfAFolderListsItsEntries();
    void foundFilesAreNamedFromTheProject();
    void bashSaysInItsOwnWordsWhyACommandStopped();
    void aCommandKilledByASignalSaysSo();
    void shortenedOutputSaysWhereTheWholeOfItIs();
    void aFinishedEditShowsItsDiffInsteadOfItsOutput();
    void aPendingPatchShowsTheChangeItAsksFor();
    void aProposedEditHasNoLineNumbers();
    void questionsArePairedWithTheirAnswers();
    void aTaskKnowsItsSubagentSessionWhileRunning();
    void anUnknownToolShowsItsInputAndOutput();
};

void ToolBodyTest::bashShowsItsLiveOutputWhileRunning()
{
    const ToolBody body = bodyOf(u"bash"_s, running({{"command"_L1, u"make"_s}}, 1, QJsonObject{{"output"_L1, u"cc a.c\n"_s}}));
    QVERIFY(body.input.isEmpty()); // the title quotes it: said once
    QCOMPARE(body.output, u"cc a.c\n"_s);
    QCOMPARE(body.outputEnd, ToolBody::OutputEnd::Tail);
    QVERIFY(body.notes.isEmpty());
}

void ToolBodyTest::aReadShowsTheLinesWithAGutterNotTheModelsWrapping()
{
    const QString output = u"<path>/work/p/src/main.cpp</path>\n<type>file</type>\n<content>\n9: int main()\n10: {\n"
                           "11:     return 0;\n12: \n\n(Showing lines 9-12 of 40. Use offset=13 to continue.)\n</content>"_s;
    const ToolBody body = bodyOf(u"read"_s, completed({{"filePath"_L1, u"/work/p/src/main.cpp"_s}}, output, {}, 1, 2));
    // The file's own lines; their numbers go to the gutter, from the offset read.
    QCOMPARE(body.output, u"int main()\n{\n    return 0;\n"_s);
    QCOMPARE(body.outputFirstLine, 9);
    QCOMPARE(body.outputLanguage, u"/work/p/src/main.cpp"_s);
    for (const QString &model : {u"<path>"_s, u"<content>"_s, u"9: "_s, u"Showing lines"_s, u"\u2502"_s})
        QVERIFY2(!body.output.contains(model), qPrintable(model));
}

void ToolBodyTest::aReadOfAFolderListsItsEntries()
{
    const QString output = u"<path>/work/p/src</path>\n<type>directory</type>\n<entries>\nmain.cpp\nui/\n\n(2 entries)\n"
                           "</entries>"_s;
    const ToolBody body = bodyOf(u"read"_s, completed({{"filePath"_L1, u"/work/p/src"_s}}, output, {}, 1, 2));
    QCOMPARE(body.output, u"main.cpp\nui/"_s);
    QCOMPARE(body.outputFirstLine, 0);
}

void ToolBodyTest::foundFilesAreNamedFromTheProject()
{
    const ToolBody glob = bodyOf(u"glob"_s, completed({{"pattern"_L1, u"*.cpp"_s}},
                                                      Project + u"/src/a.cpp\n"_s + Project + u"/b.cpp\n/elsewhere/c.cpp"_s,
                                                      {}, 1, 2));
    QCOMPARE(glob.output, u"src/a.cpp\nb.cpp\n/elsewhere/c.cpp"_s);
    const ToolBody grep = bodyOf(u"grep"_s, completed({{"pattern"_L1, u"main"_s}},
                                                      u"Found 1 matches\n"_s + Project + u"/src/a.cpp:\n  Line 3: int main()"_s,
                                                      {}, 1, 2));
    QCOMPARE(grep.output, u"Found 1 matches\nsrc/a.cpp:\n  Line 3: int main()"_s);
}

void ToolBodyTest::bashSaysInItsOwnWordsWhyACommandStopped()
{
    const QString output = u"partial\n\n<bash_metadata>\nUser aborted the command\n</bash_metadata>"_s;
    const ToolBody body = bodyOf(u"bash"_s, completed({{"command"_L1, u"sleep 9"_s}}, output, {{"exit"_L1, 0}}, 1, 2));
    QCOMPARE(body.output, u"partial"_s);
    QCOMPARE(body.notes, (QStringList{u"Exit code 0"_s, u"Stopped by you."_s}));
}

void ToolBodyTest::aCommandKilledByASignalSaysSo()
{
    const ToolBody body =
        bodyOf(u"bash"_s, completed({{"command"_L1, u"x"_s}}, u"x"_s, {{"exit"_L1, QJsonValue::Null}}, 1, 2));
    QCOMPARE(body.notes, QStringList{u"Ended by a signal"_s});
}

void ToolBodyTest::shortenedOutputSaysWhereTheWholeOfItIs()
{
    const QJsonObject metadata{{"truncated"_L1, true}, {"outputPath"_L1, u"/home/ada/.local/share/qcode/tool/out1"_s}};
    const ToolBody body = bodyOf(u"grep"_s, completed({{"pattern"_L1, u"x"_s}}, u"…"_s, metadata, 1, 2));
    QCOMPARE(body.notes,
             QStringList{u"Output shortened for the model; the whole of it is in /home/ada/.local/share/qcode/tool/out1."_s});
}

void ToolBodyTest::aFinishedEditShowsItsDiffInsteadOfItsOutput()
{
    const QString diff = u"--- a\n+++ a\n@@ -1 +1 @@\n-x\n+y\n"_s;
    const ToolBody body =
        bodyOf(u"edit"_s, completed({{"filePath"_L1, u"a"_s}}, u"Edit applied successfully."_s, {{"diff"_L1, diff}}, 1, 2));
    QCOMPARE(body.diff, diff);
    QVERIFY(!body.diffProposed);
    QCOMPARE(body.output, QString());
}

void ToolBodyTest::aPendingPatchShowsTheChangeItAsksFor()
{
    const QString patch = u"*** Begin Patch\n"
                          "*** Add File: src/new.cpp\n+int x;\n+int y;\n"
                          "*** Update File: src/old.cpp\n@@ void f()\n keep\n-a\n+b\n"
                          "*** Delete File: src/gone.cpp\n"
                          "*** End Patch"_s;
    const ToolBody body = bodyOf(u"apply_patch"_s, running({{"patchText"_L1, patch}}, 1));
    QVERIFY(body.diffProposed);
    const ParsedDiff parsed = DiffParser::parse(body.diff);
    QCOMPARE(parsed.files.size(), 3);
    QCOMPARE(parsed.files.at(0).path, u"src/new.cpp"_s);
    QCOMPARE(parsed.files.at(0).additions, 2);
    QCOMPARE(parsed.files.at(1).path, u"src/old.cpp"_s);
    QCOMPARE(parsed.files.at(1).additions, 1);
    QCOMPARE(parsed.files.at(1).deletions, 1);
    QCOMPARE(parsed.files.at(2).path, u"src/gone.cpp"_s);
    QVERIFY(body.diff.contains(u"@@ @@ void f()\n keep\n-a\n+b\n"_s));
    QVERIFY(body.diff.contains(u"The file is deleted."_s));
}

void ToolBodyTest::aProposedEditHasNoLineNumbers()
{
    const ToolBody body = bodyOf(u"edit"_s, running({{"filePath"_L1, inProject(QStringLiteral("a.cpp"))},
                                                    {"oldString"_L1, u"one\ntwo"_s},
                                                    {"newString"_L1, u"one\n2"_s}},
                                                   1));
    const ParsedDiff parsed = DiffParser::parse(body.diff);
    QCOMPARE(parsed.files.first().path, u"a.cpp"_s);
    for (const DiffLine &line : parsed.lines) {
        QCOMPARE(line.oldNumber, 0);
        QCOMPARE(line.newNumber, 0);
    }
    QCOMPARE(parsed.additions, 1);
    QCOMPARE(parsed.deletions, 1);
}

void ToolBodyTest::questionsArePairedWithTheirAnswers()
{
    const QJsonArray questions{QJsonObject{{"question"_L1, u"Which database?"_s}},
                               QJsonObject{{"question"_L1, u"Which ports?"_s}}};
    const QJsonArray answers{QJsonArray{u"SQLite"_s}, QJsonArray{u"80"_s, u"443"_s}};
    const ToolBody body = bodyOf(u"question"_s, completed({{"questions"_L1, questions}}, u"User has answered…"_s,
                                                          {{"answers"_L1, answers}}, 1, 2));
    QCOMPARE(body.details, u"Which database?\n\u2192 SQLite\nWhich ports?\n\u2192 80, 443"_s);
    QCOMPARE(body.output, QString());
}

void ToolBodyTest::aTaskKnowsItsSubagentSessionWhileRunning()
{
    const ToolBody body = bodyOf(u"task"_s, running({{"description"_L1, u"d"_s}}, 1, QJsonObject{{"sessionId"_L1, u"ses_9"_s}}));
    QCOMPARE(body.childSessionID, u"ses_9"_s);
    const ToolBody wrong = bodyOf(u"task"_s, running({{"description"_L1, u"d"_s}}, 1, QJsonObject{{"sessionId"_L1, 9}}));
    QCOMPARE(wrong.childSessionID, QString());
}

void ToolBodyTest::anUnknownToolShowsItsInputAndOutput()
{
    const ToolBody body = bodyOf(u"jira_search"_s, completed({{"query"_L1, u"bug"_s}}, u"3 issues"_s, {}, 1, 2));
    QCOMPARE(body.input, u"{\n    \"query\": \"bug\"\n}"_s);
    QCOMPARE(body.output, u"3 issues"_s);
}

QTEST_GUILESS_MAIN(ToolBodyTest)
#include "tst_tool_body.moc"
