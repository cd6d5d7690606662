#include <QTest>

#include "TempDatabase.h"
#include "engine/session/compaction/CompactionRules.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QString Session = u"ses_test"_s;

MessageWithParts userTurn(const QString &text)
{
    const Message info = makeUserMessage(Session);
    return {info, {makeTextPart(Session, info.id(), text)}};
}

MessageWithParts toolTurn(const QString &tool, qsizetype outputChars, std::optional<qint64> compacted = std::nullopt)
{
    const Message info = makeAssistantMessage(Session, u"msg_parent"_s);
    const ToolPart part{u"call"_s, tool,
                        ToolCompleted{{}, QString(outputChars, u'x'), tool, {}, 1, 2, compacted, std::nullopt}, {}, {}};
    return {info, {Part{Identifier::ascending(Identifier::Prefix::Part), Session, info.id(), part, {}}}};
}

} // namespace

class CompactionRulesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void overflowFollowsOpenCodesCases_data();
    void overflowFollowsOpenCodesCases();
    void overflowIsOffWhenAutoCompactionIsOffOrTheContextUnknown();
    void estimatesAQuarterOfTheCharacters();
    void prunesLargeOutputOlderThanTheLastTwoTurns();
    void neverPrunesTheSkillTool();
    void neverPrunesTheLastTwoTurns();
    void prunesNothingWhenItWouldFreeTooLittle();
    void stopsAtOutputPrunedBefore();
    void stopsAtACompactionSummary();
};

void CompactionRulesTest::overflowFollowsOpenCodesCases_data()
{
    QTest::addColumn<qint64>("context");
    QTest::addColumn<qint64>("input");
    QTest::addColumn<qint64>("output");
    QTest::addColumn<qint64>("inputTokens");
    QTest::addColumn<qint64>("outputTokens");
    QTest::addColumn<qint64>("cacheRead");
    QTest::addColumn<bool>("overflow");
    // Reference 12.5 (OpenCode's compaction.test.ts).
    QTest::newRow("100k/-/32k 75k+5k") << 100000LL << 0LL << 32000LL << 75000LL << 5000LL << 0LL << true;
    QTest::newRow("200k/-/32k 100k+10k") << 200000LL << 0LL << 32000LL << 100000LL << 10000LL << 0LL << false;
    QTest::newRow("100k/-/32k 60k+10k+10k cache") << 100000LL << 0LL << 32000LL << 60000LL << 10000LL << 10000LL << true;
    QTest::newRow("400k/272k/128k 271k+1k+2k") << 400000LL << 272000LL << 128000LL << 271000LL << 1000LL << 2000LL << true;
    QTest::newRow("400k/272k/128k 200k+20k+10k") << 400000LL << 272000LL << 128000LL << 200000LL << 20000LL << 10000LL << false;
    QTest::newRow("200k/120k/10k 50k+9999") << 200000LL << 120000LL << 10000LL << 50000LL << 9999LL << 0LL << false;
    QTest::newRow("200k/200k/32k 180k+15k+3k") << 200000LL << 200000LL << 32000LL << 180000LL << 15000LL << 3000LL << true;
    QTest::newRow("200k/-/32k 180k+15k+3k") << 200000LL << 0LL << 32000LL << 180000LL << 15000LL << 3000LL << true;
    QTest::newRow("200k/200k/32k 166k+10k+5k") << 200000LL << 200000LL << 32000LL << 166000LL << 10000LL << 5000LL << true;
    QTest::newRow("200k/-/32k 166k+10k+5k") << 200000LL << 0LL << 32000LL << 166000LL << 10000LL << 5000LL << true;
}

void CompactionRulesTest::overflowFollowsOpenCodesCases()
{
    QFETCH(qint64, context);
    QFETCH(qint64, input);
    QFETCH(qint64, output);
    QFETCH(qint64, inputTokens);
    QFETCH(qint64, outputTokens);
    QFETCH(qint64, cacheRead);
    QFETCH(bool, overflow);
    const TokenUsage tokens{std::nullopt, inputTokens, outputTokens, 0, cacheRead, 0};
    QCOMPARE(CompactionRules::isOverflow(tokens, {context, input, output}, {}), overflow);
}

void CompactionRulesTest::overflowIsOffWhenAutoCompactionIsOffOrTheContextUnknown()
{
    const TokenUsage huge{std::nullopt, 1000000, 1000, 0, 0, 0};
    QVERIFY(!CompactionRules::isOverflow(huge, {0, 0, 32000}, {}));
    CompactionRules::CompactionSettings off;
    off.autoCompact = false;
    QVERIFY(!CompactionRules::isOverflow(huge, {100000, 0, 32000}, off));
}

void CompactionRulesTest::estimatesAQuarterOfTheCharacters()
{
    QCOMPARE(CompactionRules::estimateTokens(QString(4000, u'a')), 1000);
    QCOMPARE(CompactionRules::estimateTokens(QString(20000, u'a')), 5000);
    QCOMPARE(CompactionRules::estimateTokens(QString()), 0);
}

void CompactionRulesTest::prunesLargeOutputOlderThanTheLastTwoTurns()
{
    const MessageWithParts tool = toolTurn(u"bash"_s, 200000);
    const auto pruned = CompactionRules::partsToPrune({userTurn(u"first"_s), tool, userTurn(u"second"_s), userTurn(u"third"_s)});
    QCOMPARE(pruned.size(), 1);
    QCOMPARE(pruned[0].id, tool.parts[0].id);
}

void CompactionRulesTest::neverPrunesTheSkillTool()
{
    QVERIFY(CompactionRules::partsToPrune({userTurn(u"first"_s), toolTurn(u"skill"_s, 200000), userTurn(u"second"_s),
                                           userTurn(u"third"_s)})
                .isEmpty());
}

void CompactionRulesTest::neverPrunesTheLastTwoTurns()
{
    QVERIFY(CompactionRules::partsToPrune({userTurn(u"first"_s), toolTurn(u"bash"_s, 200000), userTurn(u"second"_s)})
                .isEmpty());
}

void CompactionRulesTest::prunesNothingWhenItWouldFreeTooLittle()
{
    // 45k tokens in all: 5k past the protected 40k, under the 20k minimum.
    QVERIFY(CompactionRules::partsToPrune({userTurn(u"first"_s), toolTurn(u"bash"_s, 20000), toolTurn(u"bash"_s, 160000),
                                           userTurn(u"second"_s), userTurn(u"third"_s)})
                .isEmpty());
}

void CompactionRulesTest::stopsAtOutputPrunedBefore()
{
    const MessageWithParts older = toolTurn(u"bash"_s, 400000);
    const auto pruned = CompactionRules::partsToPrune({userTurn(u"a"_s), older, toolTurn(u"bash"_s, 4000, 5),
                                                       toolTurn(u"bash"_s, 160000), userTurn(u"b"_s), userTurn(u"c"_s)});
    QVERIFY(pruned.isEmpty()); // 40k seen, then the earlier pruning stops the walk before `older`
}

void CompactionRulesTest::stopsAtACompactionSummary()
{
    MessageWithParts summary = toolTurn(u"bash"_s, 10);
    summary.info.assistant()->summary = true;
    QVERIFY(CompactionRules::partsToPrune({userTurn(u"a"_s), toolTurn(u"bash"_s, 400000), summary, userTurn(u"b"_s),
                                           userTurn(u"c"_s)})
                .isEmpty());
}

QTEST_GUILESS_MAIN(CompactionRulesTest)
#include "tst_compaction_rules.moc"
