#include <QTest>

#include "TempDatabase.h"
#include "engine/session/CompactionRules.h"
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
    void estimatesAQuarterOfTheCharacters();
    void prunesLargeOutputOlderThanTheLastTwoTurns();
    void neverPrunesTheSkillTool();
    void neverPrunesTheLastTwoTurns();
    void prunesNothingWhenItWouldFreeTooLittle();
    void stopsAtOutputPrunedBefore();
    void stopsAtACompactionSummary();
};

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
