#include <QTest>

#include "ui/prompt/PromptTextParser.h"

using namespace Qt::StringLiterals;
using namespace qcode;

using Kind = PromptSubmission::Kind;

class PromptTextParserTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aBangStartsAShellCommand();
    void aKnownSlashNameIsACommandWithArguments();
    void argumentsMayRunOverLines();
    void anUnknownSlashNameIsAnOrdinaryPrompt();
    void plainTextIsAPromptTrimmed();
    void findsMentionsLikeOpenCode();
    void theMentionAtTheCursorRunsFromItsAt();
    void noMentionAfterASpaceOrInsideAWord();
    void theCommandAtTheCursorIsOnlyAtTheStart();
};

void PromptTextParserTest::aBangStartsAShellCommand()
{
    const auto parsed = PromptTextParser::parse(u"!ls -la"_s, {});
    QCOMPARE(parsed.kind, Kind::Shell);
    QCOMPARE(parsed.text, u"ls -la"_s);
    QCOMPARE(PromptTextParser::parse(u"  ! git status \n"_s, {}).text, u"git status"_s);
}

void PromptTextParserTest::aKnownSlashNameIsACommandWithArguments()
{
    const auto parsed = PromptTextParser::parse(u"/review fix it"_s, {u"review"_s});
    QCOMPARE(parsed.kind, Kind::Command);
    QCOMPARE(parsed.command, u"review"_s);
    QCOMPARE(parsed.text, u"fix it"_s);
    const auto bare = PromptTextParser::parse(u"/review"_s, {u"review"_s});
    QCOMPARE(bare.kind, Kind::Command);
    QVERIFY(bare.text.isEmpty());
}

void PromptTextParserTest::argumentsMayRunOverLines()
{
    const auto parsed = PromptTextParser::parse(u"/review\nthe parser\nand the lexer"_s, {u"review"_s});
    QCOMPARE(parsed.command, u"review"_s);
    QCOMPARE(parsed.text, u"the parser\nand the lexer"_s);
}

void PromptTextParserTest::anUnknownSlashNameIsAnOrdinaryPrompt()
{
    const auto parsed = PromptTextParser::parse(u"/usr/bin is missing"_s, {u"review"_s});
    QCOMPARE(parsed.kind, Kind::Prompt);
    QCOMPARE(parsed.text, u"/usr/bin is missing"_s);
}

void PromptTextParserTest::plainTextIsAPromptTrimmed()
{
    const auto parsed = PromptTextParser::parse(u"\n  explain this  \n"_s, {});
    QCOMPARE(parsed.kind, Kind::Prompt);
    QCOMPARE(parsed.text, u"explain this"_s);
}

void PromptTextParserTest::findsMentionsLikeOpenCode()
{
    const QString text = u"see @src/main.cpp, ask @explore. mail a@b.c `@code` @./rel.txt"_s;
    const auto tokens = PromptTextParser::mentions(text);
    QCOMPARE(tokens.size(), 3);
    QCOMPARE(tokens.at(0).text, u"src/main.cpp"_s);
    QCOMPARE(text.mid(tokens.at(0).start, tokens.at(0).end - tokens.at(0).start), u"@src/main.cpp"_s);
    QCOMPARE(tokens.at(1).text, u"explore"_s);
    QCOMPARE(tokens.at(2).text, u"./rel.txt"_s);
}

void PromptTextParserTest::theMentionAtTheCursorRunsFromItsAt()
{
    const QString text = u"look at @src/ma now"_s;
    const auto token = PromptTextParser::mentionAt(text, 15);
    QVERIFY(token);
    QCOMPARE(token->start, 8);
    QCOMPARE(token->text, u"src/ma"_s);
    const auto justAt = PromptTextParser::mentionAt(u"@"_s, 1);
    QVERIFY(justAt);
    QVERIFY(justAt->text.isEmpty());
}

void PromptTextParserTest::noMentionAfterASpaceOrInsideAWord()
{
    QVERIFY(!PromptTextParser::mentionAt(u"@src now"_s, 8));
    QVERIFY(!PromptTextParser::mentionAt(u"mail a@b"_s, 8));
    QVERIFY(!PromptTextParser::mentionAt(u"plain"_s, 5));
}

void PromptTextParserTest::theCommandAtTheCursorIsOnlyAtTheStart()
{
    const auto token = PromptTextParser::commandAt(u"/rev"_s, 4);
    QVERIFY(token);
    QCOMPARE(token->text, u"rev"_s);
    QVERIFY(!PromptTextParser::commandAt(u"/review it"_s, 10));
    QVERIFY(!PromptTextParser::commandAt(u"say /rev"_s, 8));
}

QTEST_GUILESS_MAIN(PromptTextParserTest)
#include "tst_prompt_text_parser.moc"
