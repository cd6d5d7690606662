#include <QJsonObject>
#include <QTest>
#include <QUrl>

#include "TempTree.h"
#include "ui/prompt/PromptSubmission.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class PromptSubmissionTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theTextComesFirst();
    void pathsBecomeFileUrlsAndImageBytesDataUrls();
    void mentionedFilesCarryTheirMentionAsSource();
    void mentionedAgentsBecomeAgentPartsLast();
    void aFileBothMentionedAndAttachedIsSentOnce();
    void attachmentsAloneNeedNoTextPart();
};

namespace {

const FilePart &file(const PromptPart &part)
{
    return std::get<FilePart>(part.body);
}

} // namespace

void PromptSubmissionTest::theTextComesFirst()
{
    PromptSubmission submission;
    submission.text = u"hello"_s;
    const auto parts = submission.toPromptParts(u"/p"_s);
    QCOMPARE(parts.size(), 1);
    QCOMPARE(std::get<TextPart>(parts.at(0).body).text, u"hello"_s);
}

void PromptSubmissionTest::pathsBecomeFileUrlsAndImageBytesDataUrls()
{
    TempTree tree;
    QVERIFY(tree.write(u"notes.txt"_s, "hi"));
    QVERIFY(tree.write(u"dir/a.txt"_s, "a"));
    PromptSubmission submission;
    submission.text = u"look"_s;
    submission.attachments = {
        PromptAttachment{PromptAttachment::Kind::File, tree.path(u"notes.txt"_s), u"text/plain"_s, u"notes.txt"_s, {}},
        PromptAttachment{PromptAttachment::Kind::Folder, tree.path(u"dir"_s), u"application/x-directory"_s, u"dir"_s, {}},
        PromptAttachment{PromptAttachment::Kind::Image, {}, u"image/png"_s, u"Pasted image"_s, "\x89PNGbytes"},
    };
    const auto parts = submission.toPromptParts(tree.root());
    QCOMPARE(parts.size(), 4);
    QCOMPARE(file(parts.at(1)).url, QUrl::fromLocalFile(tree.path(u"notes.txt"_s)).toString());
    QCOMPARE(file(parts.at(1)).mime, u"text/plain"_s);
    QCOMPARE(file(parts.at(1)).filename, u"notes.txt"_s);
    QVERIFY(file(parts.at(2)).url.startsWith("file://"_L1));
    QCOMPARE(file(parts.at(2)).mime, u"application/x-directory"_s);
    QCOMPARE(file(parts.at(3)).url, u"data:image/png;base64,"_s + QString::fromLatin1(QByteArray("\x89PNGbytes").toBase64()));
    QCOMPARE(file(parts.at(3)).mime, u"image/png"_s);
    QCOMPARE(file(parts.at(3)).filename, u"Pasted image"_s);
}

void PromptSubmissionTest::mentionedFilesCarryTheirMentionAsSource()
{
    TempTree tree;
    QVERIFY(tree.write(u"src/main.cpp"_s, "int main() {}"));
    PromptSubmission submission;
    submission.text = u"fix @src/main.cpp please"_s;
    submission.mentionedFiles = {u"src/main.cpp"_s};
    const auto parts = submission.toPromptParts(tree.root());
    QCOMPARE(parts.size(), 2);
    const FilePart &mentioned = file(parts.at(1));
    QCOMPARE(mentioned.url, QUrl::fromLocalFile(tree.path(u"src/main.cpp"_s)).toString());
    QVERIFY(mentioned.source);
    QCOMPARE(mentioned.source->value("type"_L1).toString(), u"file"_s);
    QCOMPARE(mentioned.source->value("path"_L1).toString(), u"src/main.cpp"_s);
    const QJsonObject text = mentioned.source->value("text"_L1).toObject();
    QCOMPARE(text.value("value"_L1).toString(), u"@src/main.cpp"_s);
    QCOMPARE(text.value("start"_L1).toInt(), 4);
    QCOMPARE(text.value("end"_L1).toInt(), 17);
}

void PromptSubmissionTest::mentionedAgentsBecomeAgentPartsLast()
{
    PromptSubmission submission;
    submission.text = u"@explore find the parser"_s;
    submission.mentionedAgents = {u"explore"_s};
    submission.attachments = {
        PromptAttachment{PromptAttachment::Kind::Image, {}, u"image/png"_s, u"shot"_s, "png"}};
    const auto parts = submission.toPromptParts(u"/p"_s);
    QCOMPARE(parts.size(), 3);
    const AgentPart &agent = std::get<AgentPart>(parts.at(2).body);
    QCOMPARE(agent.name, u"explore"_s);
    QCOMPARE(agent.source->value("value"_L1).toString(), u"@explore"_s);
    QCOMPARE(agent.source->value("start"_L1).toInt(), 0);
    QCOMPARE(agent.source->value("end"_L1).toInt(), 8);
}

void PromptSubmissionTest::aFileBothMentionedAndAttachedIsSentOnce()
{
    TempTree tree;
    QVERIFY(tree.write(u"a.txt"_s, "a"));
    PromptSubmission submission;
    submission.text = u"see @a.txt"_s;
    submission.mentionedFiles = {u"a.txt"_s};
    submission.attachments = {
        PromptAttachment{PromptAttachment::Kind::File, tree.path(u"a.txt"_s), u"text/plain"_s, u"a.txt"_s, {}}};
    QCOMPARE(submission.toPromptParts(tree.root()).size(), 2);
}

void PromptSubmissionTest::attachmentsAloneNeedNoTextPart()
{
    PromptSubmission submission;
    submission.attachments = {
        PromptAttachment{PromptAttachment::Kind::Image, {}, u"image/png"_s, u"shot"_s, "png"}};
    const auto parts = submission.toPromptParts(u"/p"_s);
    QCOMPARE(parts.size(), 1);
    QVERIFY(std::holds_alternative<FilePart>(parts.at(0).body));
}

QTEST_GUILESS_MAIN(PromptSubmissionTest)
#include "tst_prompt_submission.moc"
