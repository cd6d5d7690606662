#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

#include "FakeSecretStore.h"
#include "engine/config/ProviderRegistry.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// URLs inside the JSON below are written https:\/\/… (valid JSON) because
// moc reads a // inside a raw string literal as a comment.
Config configFrom(const char *json)
{
    return Config::fromJson(QJsonDocument::fromJson(json).object());
}

QProcessEnvironment environment(std::initializer_list<std::pair<QString, QString>> values)
{
    QProcessEnvironment env;
    for (const auto &[name, value] : values)
        env.insert(name, value);
    return env;
}

QStringList ids(const ProviderRegistry &registry)
{
    QStringList out;
    for (const ProviderInfo &p : registry.providers())
        out.append(p.id);
    return out;
}

} // namespace

class TestProviderRegistry : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void withoutKeysOrConfigNothingIsOffered()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(), QProcessEnvironment(), nullptr);
        QVERIFY(registry.providers().isEmpty());
        const Result<ModelRef> model = registry.defaultModel();
        QVERIFY(!model.ok());
        QVERIFY(model.errorMessage().contains(u"ANTHROPIC_API_KEY"_s));
    }

    void envKeysMakeProvidersAvailable()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(),
                                  environment({{u"ANTHROPIC_API_KEY"_s, u"sk-ant"_s},
                                               {u"GEMINI_API_KEY"_s, u"g-key"_s},
                                               {u"DEEPSEEK_API_KEY"_s, u"ds"_s},
                                               {u"OPENROUTER_API_KEY"_s, u"or"_s}}),
                                  nullptr);
        QCOMPARE(ids(registry), QStringList({u"anthropic"_s, u"deepseek"_s, u"google"_s, u"openrouter"_s}));
        const ProviderInfo *anthropic = registry.provider(u"anthropic"_s);
        QCOMPARE(anthropic->key.reveal(), u"sk-ant"_s);
        QCOMPARE(anthropic->keySource, KeySource::Environment);
        QCOMPARE(anthropic->keyVariable, u"ANTHROPIC_API_KEY"_s);
        QCOMPARE(anthropic->protocol, WireProtocol::AnthropicMessages);
        QCOMPARE(anthropic->baseUrl, QUrl(u"https://api.anthropic.com/v1"_s));
        QCOMPARE(registry.provider(u"google"_s)->keyVariable, u"GEMINI_API_KEY"_s);
        QCOMPARE(registry.provider(u"google"_s)->protocol, WireProtocol::Gemini);
        QCOMPARE(registry.provider(u"deepseek"_s)->protocol, WireProtocol::OpenAIChat);
    }

    void googleGenerativeAiKeyIsPreferredOverGeminiKey()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(),
                                  environment({{u"GEMINI_API_KEY"_s, u"second"_s},
                                               {u"GOOGLE_GENERATIVE_AI_API_KEY"_s, u"first"_s}}),
                                  nullptr);
        QCOMPARE(registry.provider(u"google"_s)->key.reveal(), u"first"_s);
    }

    void openaiUsesTheResponsesProtocol()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(), environment({{u"OPENAI_API_KEY"_s, u"sk"_s}}), nullptr);
        QCOMPARE(registry.provider(u"openai"_s)->protocol, WireProtocol::OpenAIResponses);
    }

    void configKeyWinsOverEnvironment()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(),
                                  configFrom(R"({"provider":{"anthropic":{"options":{"apiKey":"from-config", "baseURL":"https:\/\/proxy.example/v1","headers":{"X-Team":"qa"},"timeout":5}}}})"),
                                  environment({{u"ANTHROPIC_API_KEY"_s, u"from-env"_s}}), nullptr);
        const ProviderInfo *p = registry.provider(u"anthropic"_s);
        QCOMPARE(p->key.reveal(), u"from-config"_s);
        QCOMPARE(p->keySource, KeySource::Config);
        QCOMPARE(p->baseUrl, QUrl(u"https://proxy.example/v1"_s));
        QCOMPARE(p->headers.size(), 1);
        QCOMPARE(p->headers.constFirst().first, QByteArray("X-Team"));
        QVERIFY(!p->options.contains(u"apiKey"_s));
        QCOMPARE(p->options.value(u"timeout"_s).toInt(), 5);
    }

    void configDefinedProviderIsOfferedWithItsModels()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(),
                                  configFrom(R"({"provider":{"myserver":{"npm":"@ai-sdk/openai-compatible","name":"My server", "options":{"baseURL":"http:\/\/10.0.0.5:8000/v1"}, "models":{"coder":{"name":"Coder","limit":{"context":65536,"output":4096}, "cost":{"input":0.1,"output":0.2}}}}}})"),
                                  QProcessEnvironment(), nullptr);
        const ProviderInfo *p = registry.provider(u"myserver"_s);
        QVERIFY(p);
        QCOMPARE(p->name, u"My server"_s);
        QCOMPARE(p->protocol, WireProtocol::OpenAIChat);
        QCOMPARE(p->keySource, KeySource::None);
        QCOMPARE(p->model(u"coder"_s)->limits.context, 65536);
        QCOMPARE(p->model(u"coder"_s)->cost.base.output, 0.2);
        // With providers in the config, the default model comes from one of them.
        QCOMPARE(registry.defaultModel()->providerID, u"myserver"_s);
    }

    void configProviderWithoutBaseUrlIsReported()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(),
                                  configFrom(R"({"provider":{"nowhere":{"models":{"m":{}}}}})"),
                                  QProcessEnvironment(), nullptr);
        QVERIFY(!registry.provider(u"nowhere"_s));
        QVERIFY(registry.problems().join(u'\n').contains(u"nowhere"_s));
    }

    void unknownNpmPackageIsReportedNotCrashed()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(),
                                  configFrom(R"({"provider":{"bedrock":{"npm":"@ai-sdk/amazon-bedrock", "options":{"baseURL":"https:\/\/x"},"models":{"m":{}}}}})"),
                                  QProcessEnvironment(), nullptr);
        QVERIFY(!registry.provider(u"bedrock"_s));
        QVERIFY(registry.problems().join(u'\n').contains(u"@ai-sdk/amazon-bedrock"_s));
    }

    void disabledProvidersAreLeftOut()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), configFrom(R"({"disabled_providers":["openai"]})"),
                                  environment({{u"OPENAI_API_KEY"_s, u"a"_s}, {u"ANTHROPIC_API_KEY"_s, u"b"_s}}), nullptr);
        QCOMPARE(ids(registry), QStringList({u"anthropic"_s}));
    }

    void enabledProvidersKeepOnlyThoseListed()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), configFrom(R"({"enabled_providers":["openai","google"]})"),
                                  environment({{u"OPENAI_API_KEY"_s, u"a"_s}, {u"ANTHROPIC_API_KEY"_s, u"b"_s}}), nullptr);
        QCOMPARE(ids(registry), QStringList({u"openai"_s}));
    }

    void whitelistAndBlacklistFilterModels()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(),
                                  configFrom(R"({"provider":{"openai":{"whitelist":["gpt-5","gpt-5-mini","o3"],"blacklist":["o3"]}}})"),
                                  environment({{u"OPENAI_API_KEY"_s, u"a"_s}}), nullptr);
        QStringList models;
        for (const ModelInfo &m : registry.provider(u"openai"_s)->models)
            models.append(m.id);
        QCOMPARE(models, QStringList({u"gpt-5"_s, u"gpt-5-mini"_s}));
    }

    void configModelIsTheDefault()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), configFrom(R"({"model":"openrouter/anthropic/claude-sonnet-4.5"})"),
                                  QProcessEnvironment(), nullptr);
        const Result<ModelRef> model = registry.defaultModel();
        QVERIFY(model.ok());
        QCOMPARE(model->providerID, u"openrouter"_s);
        QCOMPARE(model->modelID, u"anthropic/claude-sonnet-4.5"_s);
    }

    void malformedConfigModelIsAnError()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), configFrom(R"({"model":"just-a-model"})"),
                                  QProcessEnvironment(), nullptr);
        QVERIFY(!registry.defaultModel().ok());
        QVERIFY(registry.defaultModel().errorMessage().contains(u"just-a-model"_s));
    }

    void defaultModelFollowsOpenCodePriority()
    {
        ProviderRegistry anthropic(ModelCatalogue::bundled(), Config(),
                                   environment({{u"ANTHROPIC_API_KEY"_s, u"b"_s}}), nullptr);
        QCOMPARE(anthropic.defaultModel()->modelID, u"claude-sonnet-4-5"_s);
        ProviderRegistry openai(ModelCatalogue::bundled(), Config(), environment({{u"OPENAI_API_KEY"_s, u"a"_s}}), nullptr);
        // Every gpt-5 model ranks alike; ties go to the highest id.
        QCOMPARE(openai.defaultModel()->modelID, u"gpt-5.1-codex"_s);
        ProviderRegistry google(ModelCatalogue::bundled(), Config(), environment({{u"GEMINI_API_KEY"_s, u"a"_s}}), nullptr);
        QCOMPARE(google.defaultModel()->modelID, u"gemini-3-pro-preview"_s);
    }

    void smallModelComesFromConfigOrThePriorityList()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(),
                                  environment({{u"ANTHROPIC_API_KEY"_s, u"b"_s}, {u"OPENAI_API_KEY"_s, u"a"_s},
                                               {u"GEMINI_API_KEY"_s, u"c"_s}, {u"DEEPSEEK_API_KEY"_s, u"d"_s}}),
                                  nullptr);
        QCOMPARE(registry.smallModel(u"anthropic"_s)->modelID, u"claude-haiku-4-5"_s);
        QCOMPARE(registry.smallModel(u"openai"_s)->modelID, u"gpt-5-nano"_s);
        QCOMPARE(registry.smallModel(u"google"_s)->modelID, u"gemini-2.5-flash"_s);
        QVERIFY(!registry.smallModel(u"deepseek"_s));

        ProviderRegistry configured(ModelCatalogue::bundled(), configFrom(R"({"small_model":"openai/gpt-5-mini"})"),
                                    QProcessEnvironment(), nullptr);
        QCOMPARE(configured.smallModel(u"anthropic"_s)->modelID, u"gpt-5-mini"_s);
    }

    void keychainKeyIsUsedOnceLoaded()
    {
        FakeSecretStore secrets;
        secrets.keys.insert(u"deepseek"_s, u"from-keychain"_s);
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(), environment({{u"DEEPSEEK_API_KEY"_s, u"from-env"_s}}),
                                  &secrets);
        QCOMPARE(registry.provider(u"deepseek"_s)->keySource, KeySource::Environment);
        QSignalSpy changed(&registry, &ProviderRegistry::providersChanged);
        QCoro::connect(registry.loadStoredKeys(), &registry, [] {});
        QVERIFY(changed.wait());
        QCOMPARE(registry.provider(u"deepseek"_s)->key.reveal(), u"from-keychain"_s);
        QCOMPARE(registry.provider(u"deepseek"_s)->keySource, KeySource::Keychain);
        QVERIFY(secrets.reads > 0);
    }

    void storingAndForgettingAKeyGoesThroughTheKeychain()
    {
        FakeSecretStore secrets;
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(), QProcessEnvironment(), &secrets);
        QVERIFY(!registry.provider(u"anthropic"_s));

        std::optional<Result<void>> stored;
        QCoro::connect(registry.storeKey(u"anthropic"_s, u"sk-new"_s), &registry,
                       [&](const Result<void> &r) { stored = r; });
        QTRY_VERIFY(stored.has_value());
        QVERIFY(stored->ok());
        QCOMPARE(secrets.keys.value(u"anthropic"_s), u"sk-new"_s);
        QCOMPARE(registry.provider(u"anthropic"_s)->keySource, KeySource::Keychain);

        std::optional<Result<void>> forgotten;
        QCoro::connect(registry.forgetKey(u"anthropic"_s), &registry,
                       [&](const Result<void> &r) { forgotten = r; });
        QTRY_VERIFY(forgotten.has_value());
        QVERIFY(!secrets.keys.contains(u"anthropic"_s));
        QVERIFY(!registry.provider(u"anthropic"_s));
    }

    void keychainFailureIsReportedAndEnvironmentStillWorks()
    {
        FakeSecretStore secrets;
        secrets.failure = u"keychain locked"_s;
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(), environment({{u"OPENAI_API_KEY"_s, u"a"_s}}), &secrets);
        QSignalSpy changed(&registry, &ProviderRegistry::providersChanged);
        QCoro::connect(registry.loadStoredKeys(), &registry, [] {});
        QVERIFY(changed.wait());
        QVERIFY(registry.problems().join(u'\n').contains(u"keychain locked"_s));
        QCOMPARE(registry.provider(u"openai"_s)->keySource, KeySource::Environment);
    }

    void aKeychainThatFailsEveryProviderIsOneProblemNotOnePerProvider()
    {
        FakeSecretStore secrets;
        secrets.failure = u"keychain locked"_s;
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(), QProcessEnvironment(), &secrets);
        QSignalSpy changed(&registry, &ProviderRegistry::providersChanged);
        QCoro::connect(registry.loadStoredKeys(), &registry, [] {});
        QVERIFY(changed.wait());
        QVERIFY(secrets.reads > 1);
        QCOMPARE(registry.problems().filter(u"keychain locked"_s).size(), 1);
    }

    void keysNeverAppearInDebugOutput()
    {
        QString printed;
        QDebug(&printed) << ApiKey(u"sk-secret-value"_s);
        QVERIFY(!printed.contains(u"sk-secret"_s));
        QVERIFY(printed.contains(u"redacted"_s));
    }

    void detectedLocalServerIsOfferedWithItsModels()
    {
        ProviderRegistry registry(ModelCatalogue::bundled(), Config(), QProcessEnvironment(), nullptr);
        QVERIFY(!registry.provider(u"ollama"_s)); // not without a running server
        LocalServer ollama = LocalServer::defaultProbes().constFirst();
        ollama.serverUrl = QUrl(u"http://127.0.0.1:5555"_s);
        ollama.models = {u"qwen2.5-coder:7b"_s, u"mystery:1b"_s};
        QSignalSpy changed(&registry, &ProviderRegistry::providersChanged);
        registry.setLocalServers({ollama});
        QCOMPARE(changed.size(), 1);
        const ProviderInfo *p = registry.provider(u"ollama"_s);
        QVERIFY(p);
        QVERIFY(p->local);
        QCOMPARE(p->protocol, WireProtocol::OpenAIChat);
        QCOMPARE(p->baseUrl, QUrl(u"http://127.0.0.1:5555/v1"_s));
        QCOMPARE(p->models.size(), 2);
        QCOMPARE(p->model(u"qwen2.5-coder:7b"_s)->limits.context, 32768); // known from the catalogue
        QVERIFY(p->model(u"mystery:1b"_s));
        QCOMPARE(registry.defaultModel()->providerID, u"ollama"_s);
    }
};

QTEST_GUILESS_MAIN(TestProviderRegistry)
#include "tst_provider_registry.moc"
