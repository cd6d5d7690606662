#include <QTest>

#include <cmath>

#include "engine/catalogue/StepUsage.h"

using namespace Qt::StringLiterals;
using namespace qcode;

// The cases of OpenCode 1.2.27's getUsage tests (reference §12.5), with
// the stream's usage in qcode's normalized form.
class TestStepUsage : public QObject
{
    Q_OBJECT

    static StreamUsage usage(qint64 input, qint64 output)
    {
        StreamUsage u;
        u.input = input;
        u.output = output;
        u.inputTotal = input;
        return u;
    }
    static ModelCost prices(double in, double out, double read = 0, double write = 0)
    {
        ModelCost cost;
        cost.base = {in, out, read, write};
        return cost;
    }
    const QString openai = u"@ai-sdk/openai"_s;
    const QString anthropic = u"@ai-sdk/anthropic"_s;

private Q_SLOTS:
    void plainUsageIsCopied()
    {
        const StepUsage s = StepUsage::compute(prices(0, 0), openai, usage(1000, 500), {});
        QCOMPARE(s.tokens.input, 1000);
        QCOMPARE(s.tokens.output, 500);
        QCOMPARE(s.tokens.reasoning, 0);
        QCOMPARE(s.tokens.cacheRead, 0);
        QCOMPARE(s.tokens.cacheWrite, 0);
        QCOMPARE(s.tokens.total, std::optional<qint64>(1500));
    }

    void cachedTokensAreTakenOutOfInputWithoutAnthropicMetadata()
    {
        StreamUsage u = usage(1000, 500);
        u.cacheRead = 200;
        const StepUsage s = StepUsage::compute(prices(0, 0), openai, u, {});
        QCOMPARE(s.tokens.input, 800);
        QCOMPARE(s.tokens.cacheRead, 200);
    }

    void anthropicMetadataMeansInputAlreadyExcludesCache()
    {
        StreamUsage u = usage(1000, 500);
        const QJsonObject metadata{{u"anthropic"_s, QJsonObject{{u"cacheCreationInputTokens"_s, 300}}}};
        const StepUsage s = StepUsage::compute(prices(0, 0), openai, u, metadata);
        QCOMPARE(s.tokens.cacheWrite, 300);
        QCOMPARE(s.tokens.input, 1000);
    }

    void cacheWriteFromTheUsageWhenNoMetadataNamesIt()
    {
        // qcode's Anthropic decoder keeps the raw usage under "anthropic";
        // the cache write then comes from the normalized usage.
        StreamUsage u = usage(1000, 500);
        u.cacheWrite = 300;
        const QJsonObject metadata{{u"anthropic"_s, QJsonObject{{u"usage"_s, QJsonObject()}}}};
        const StepUsage s = StepUsage::compute(prices(0, 0), anthropic, u, metadata);
        QCOMPARE(s.tokens.cacheWrite, 300);
        QCOMPARE(s.tokens.input, 1000);
    }

    void reasoningTokensAreRecorded()
    {
        StreamUsage u = usage(1000, 500);
        u.reasoning = 100;
        QCOMPARE(StepUsage::compute(prices(0, 0), openai, u, {}).tokens.reasoning, 100);
    }

    void allZerosGiveZerosAndAFiniteCost()
    {
        const StepUsage s = StepUsage::compute(prices(3, 15), openai, usage(0, 0), {});
        QCOMPARE(s.tokens.input, 0);
        QCOMPARE(s.tokens.output, 0);
        QVERIFY(std::isfinite(s.cost));
        QCOMPARE(s.cost, 0.0);
    }

    void emptyUsageLeavesTotalUnset()
    {
        const StepUsage s = StepUsage::compute(prices(3, 15), openai, StreamUsage(), {});
        QVERIFY(!s.tokens.total);
        QCOMPARE(s.cost, 0.0);
    }

    void costIsPricePerMillionTokens()
    {
        const StepUsage s = StepUsage::compute(prices(3, 15), openai, usage(1'000'000, 100'000), {});
        QCOMPARE(s.cost, 4.5);
    }

    void anthropicTotalAddsCacheReadsAndWrites()
    {
        StreamUsage u = usage(1000, 500);
        u.cacheRead = 200;
        const QJsonObject metadata{{u"anthropic"_s, QJsonObject{{u"cacheCreationInputTokens"_s, 300}}}};
        const StepUsage s = StepUsage::compute(prices(0, 0), anthropic, u, metadata);
        QCOMPARE(s.tokens.input, 1000);
        QCOMPARE(s.tokens.cacheRead, 200);
        QCOMPARE(s.tokens.cacheWrite, 300);
        QCOMPARE(s.tokens.total, std::optional<qint64>(2000));
    }

    void bedrockMetadataGivesTheCacheWrite()
    {
        StreamUsage u = usage(1000, 500);
        u.cacheRead = 200;
        const QJsonObject metadata{
            {u"bedrock"_s, QJsonObject{{u"usage"_s, QJsonObject{{u"cacheWriteInputTokens"_s, 300}}}}}};
        const StepUsage s = StepUsage::compute(prices(0, 0), u"@ai-sdk/amazon-bedrock"_s, u, metadata);
        QCOMPARE(s.tokens.input, 1000);
        QCOMPARE(s.tokens.cacheWrite, 300);
        QCOMPARE(s.tokens.total, std::optional<qint64>(2000));
    }

    void everyTokenKindIsPricedAndReasoningAddsAtTheOutputPrice()
    {
        StreamUsage u = usage(10'000, 2'000);
        u.cacheRead = 4'000;
        u.cacheWrite = 1'000;
        u.reasoning = 500;
        const StepUsage s = StepUsage::compute(prices(2, 10, 0.5, 4), openai, u, {});
        QCOMPARE(s.tokens.input, 5'000);
        // (5000·2 + 2000·10 + 4000·0.5 + 1000·4 + 500·10) / 1e6
        QVERIFY(qFuzzyCompare(s.cost, 0.041));
    }

    void over200kTierAppliesWhenInputAndCacheReadExceedIt()
    {
        ModelCost cost = prices(3, 15, 0.3, 3.75);
        cost.hasOver200k = true;
        cost.over200k = {6, 22.5, 0.6, 7.5};
        StreamUsage u = usage(150'000, 1'000);
        u.cacheRead = 60'000;
        const QJsonObject metadata{{u"anthropic"_s, QJsonObject()}};
        const StepUsage over = StepUsage::compute(cost, anthropic, u, metadata);
        // 150k + 60k read > 200k: (150000·6 + 1000·22.5 + 60000·0.6) / 1e6
        QVERIFY(qFuzzyCompare(over.cost, 0.9585));

        u.cacheRead = 50'000; // exactly 200k is not over
        const StepUsage at = StepUsage::compute(cost, anthropic, u, metadata);
        QVERIFY(qFuzzyCompare(at.cost, (150'000 * 3 + 1'000 * 15 + 50'000 * 0.3) / 1e6));
    }

    void geminiOutputIsBilledLikeTheSdkReportsIt()
    {
        // qcode's usage counts thoughts inside output; the AI SDK (and so
        // OpenCode) reports candidates and thoughts apart.
        StreamUsage u = usage(1000, 700);
        u.reasoning = 200;
        const StepUsage s = StepUsage::compute(prices(1, 10), u"@ai-sdk/google"_s, u, {});
        QCOMPARE(s.tokens.output, 500);
        QCOMPARE(s.tokens.reasoning, 200);
        QCOMPARE(s.tokens.total, std::optional<qint64>(1700));
        QVERIFY(qFuzzyCompare(s.cost, (1000 * 1 + 500 * 10 + 200 * 10) / 1e6));
    }

    void nonFinitePricesCountAsZero()
    {
        const StepUsage s = StepUsage::compute(prices(std::nan(""), 15), openai, usage(1000, 1000), {});
        QVERIFY(std::isfinite(s.cost));
        QVERIFY(qFuzzyCompare(s.cost, 0.015));
    }

    void nonNumericMetadataFallsThrough()
    {
        StreamUsage u = usage(1000, 500);
        const QJsonObject metadata{{u"anthropic"_s, QJsonObject{{u"cacheCreationInputTokens"_s, QJsonValue::Null}}},
                                   {u"bedrock"_s, QJsonObject{{u"usage"_s, QJsonObject{{u"cacheWriteInputTokens"_s, 40}}}}}};
        QCOMPARE(StepUsage::compute(prices(0, 0), anthropic, u, metadata).tokens.cacheWrite, 40);
    }
};

QTEST_GUILESS_MAIN(TestStepUsage)
#include "tst_step_usage.moc"
