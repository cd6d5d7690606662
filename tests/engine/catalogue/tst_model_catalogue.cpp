#include <QJsonDocument>
#include <QTest>

#include "engine/catalogue/ModelCatalogue.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class TestModelCatalogue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bundledCatalogueLoadsWithoutProblems()
    {
        const ModelCatalogue catalogue = ModelCatalogue::bundled();
        QVERIFY2(catalogue.problems().isEmpty(), qPrintable(catalogue.problems().join(u'\n')));
        QVERIFY(!catalogue.updated().isEmpty());
        for (const QString &id : {u"anthropic"_s, u"openai"_s, u"google"_s, u"deepseek"_s, u"openrouter"_s, u"ollama"_s})
            QVERIFY2(catalogue.provider(id), qPrintable(id));
    }

    void bundledModelsCarryLimitsPricesAndCapabilities()
    {
        const ModelCatalogue catalogue = ModelCatalogue::bundled();
        for (const CatalogueProvider &provider : catalogue.providers()) {
            QVERIFY2(!provider.models.isEmpty(), qPrintable(provider.id));
            for (const ModelInfo &model : provider.models) {
                const QByteArray what = (provider.id + u'/' + model.id).toUtf8();
                QVERIFY2(model.limits.context > 0, what.constData());
                QVERIFY2(model.limits.output > 0, what.constData());
                QVERIFY2(model.limits.output <= model.limits.context, what.constData());
                if (!provider.local)
                    QVERIFY2(model.cost.base.input > 0 && model.cost.base.output > 0, what.constData());
            }
        }
        const ModelInfo sonnet = *catalogue.model(u"anthropic"_s, u"claude-sonnet-4-5"_s);
        QCOMPARE(sonnet.cost.base.input, 3.0);
        QCOMPARE(sonnet.cost.base.cacheWrite, 3.75);
        QVERIFY(sonnet.cost.hasOver200k);
        QCOMPARE(sonnet.cost.over200k.input, 6.0);
        QVERIFY(sonnet.capabilities.pdfInput && sonnet.capabilities.imageInput && sonnet.capabilities.reasoning);
        const ModelInfo gpt5 = *catalogue.model(u"openai"_s, u"gpt-5"_s);
        QVERIFY(!gpt5.capabilities.temperature);
        QCOMPARE(gpt5.limits.input, 272000);
        QVERIFY(!catalogue.model(u"ollama"_s, u"gpt-oss:20b"_s)->cost.base.input);
    }

    void invalidEntryIsReportedAndTheOthersLoad()
    {
        const QByteArray json = R"({"updated":"2025-01-01","providers":{"p":{"name":"P","npm":"@ai-sdk/openai-compatible", "models":{"good":{"limit":{"context":1000,"output":100},"cost":{"input":1,"output":2}}, "bad":{"limit":{"context":"lots","output":100}}, "negative":{"cost":{"input":-1}}, "notAnObject":5}}}})";
        const ModelCatalogue catalogue = ModelCatalogue::fromJson(json, u"test.json"_s);
        QVERIFY(catalogue.model(u"p"_s, u"good"_s));
        QVERIFY(!catalogue.model(u"p"_s, u"bad"_s));
        QVERIFY(!catalogue.model(u"p"_s, u"negative"_s));
        QCOMPARE(catalogue.problems().size(), 3);
        const QString all = catalogue.problems().join(u'\n');
        QVERIFY2(all.contains(u"p/bad"_s) && all.contains(u"limit.context"_s), qPrintable(all));
        QVERIFY2(all.contains(u"cost.input"_s), qPrintable(all));
    }

    void malformedCatalogueGivesAnEmptyCatalogueAndAProblem()
    {
        const ModelCatalogue catalogue = ModelCatalogue::fromJson("{ not json", u"broken.json"_s);
        QVERIFY(catalogue.providers().isEmpty());
        QCOMPARE(catalogue.problems().size(), 1);
        QVERIFY(catalogue.problems().constFirst().contains(u"broken.json"_s));
    }

    void configModelMergesOverTheCatalogueModel()
    {
        ModelCatalogue catalogue = ModelCatalogue::bundled();
        const QJsonObject config = QJsonDocument::fromJson(R"({"models":{"claude-sonnet-4-5":{"cost":{"input":2.5}, "options":{"thinking":{"type":"enabled"}}}}})").object();
        catalogue.mergeConfigProvider(u"anthropic"_s, config);
        const ModelInfo sonnet = *catalogue.model(u"anthropic"_s, u"claude-sonnet-4-5"_s);
        QCOMPARE(sonnet.cost.base.input, 2.5);
        QCOMPARE(sonnet.cost.base.output, 15.0); // untouched fields keep the catalogue's value
        QCOMPARE(sonnet.limits.context, 200000);
        QVERIFY(sonnet.options.contains(u"thinking"_s));
    }

    void configDefinesANewProviderAndModel()
    {
        ModelCatalogue catalogue = ModelCatalogue::bundled();
        const QJsonObject config = QJsonDocument::fromJson(R"({"name":"My vLLM","npm":"@ai-sdk/openai-compatible", "models":{"qwen3-32b":{"name":"Qwen3 32B","id":"Qwen/Qwen3-32B","limit":{"context":32768,"output":8192}}}})").object();
        catalogue.mergeConfigProvider(u"vllm"_s, config);
        const CatalogueProvider *provider = catalogue.provider(u"vllm"_s);
        QVERIFY(provider);
        QCOMPARE(provider->name, u"My vLLM"_s);
        const ModelInfo *model = provider->model(u"qwen3-32b"_s);
        QVERIFY(model);
        QCOMPARE(model->apiId, u"Qwen/Qwen3-32B"_s);
        QCOMPARE(model->limits.output, 8192);
        QVERIFY(model->capabilities.tools); // models.dev's default for an unspecified tool_call
    }

    void invalidConfigModelIsReportedNotMerged()
    {
        ModelCatalogue catalogue = ModelCatalogue::bundled();
        catalogue.mergeConfigProvider(u"anthropic"_s,
                                      QJsonDocument::fromJson(R"({"models":{"claude-haiku-4-5":{"reasoning":"yes"}}})").object());
        QVERIFY(catalogue.model(u"anthropic"_s, u"claude-haiku-4-5"_s)->capabilities.reasoning);
        QCOMPARE(catalogue.problems().size(), 1);
        QVERIFY(catalogue.problems().constFirst().contains(u"reasoning"_s));
    }

    void modelRoundTripsThroughJson()
    {
        const ModelInfo sonnet = *ModelCatalogue::bundled().model(u"anthropic"_s, u"claude-sonnet-4-5"_s);
        const Result<ModelInfo> again = ModelInfo::fromJson(sonnet.providerID, sonnet.id, sonnet.toJson());
        QVERIFY(again.ok());
        QCOMPARE(again->cost, sonnet.cost);
        QCOMPARE(again->limits, sonnet.limits);
        QCOMPARE(again->capabilities, sonnet.capabilities);
    }
};

QTEST_GUILESS_MAIN(TestModelCatalogue)
#include "tst_model_catalogue.moc"
