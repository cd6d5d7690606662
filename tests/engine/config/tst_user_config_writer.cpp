#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "TempTree.h"

#include "engine/config/Config.h"
#include "engine/config/ConfigLoader.h"
#include "engine/config/ProviderRegistry.h"
#include "engine/config/UserConfigWriter.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class TestUserConfigWriter : public QObject
{
    Q_OBJECT

    test::TempTree m_tree;

    QString folder() const { return m_tree.path(u"config/qcode"_s); }
    QString file() const { return QDir(folder()).filePath(u"qcode.json"_s); }
    UserConfigWriter writer() const { return UserConfigWriter(folder()); }

    void write(const QByteArray &text) { QVERIFY(m_tree.write(u"config/qcode/qcode.json"_s, text)); }

    QByteArray text() const
    {
        QFile f(file());
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    QJsonObject json() const { return QJsonDocument::fromJson(text()).object(); }

    static CompatibleProvider server()
    {
        CompatibleProvider p;
        p.id = u"my-server"_s;
        p.name = u"My Server"_s;
        p.baseURL = u"http://127.0.0.1:8000/v1"_s;
        p.models = {u"qwen3-coder"_s, u"llama-3.3"_s};
        p.env = {CompatibleProvider::keyVariable(p.id)};
        return p;
    }

private Q_SLOTS:
    void init() { QVERIFY(m_tree.reset()); }

    void anAbsentFileHasNoSettings()
    {
        const Result<QJsonObject> read = writer().read();
        QVERIFY(read.ok());
        QVERIFY(read->isEmpty());
    }

    void writingCreatesTheFileAndItsFolder()
    {
        QVERIFY(writer().setModel(u"anthropic/claude-sonnet-4-5"_s).ok());
        QCOMPARE(json(), (QJsonObject{{u"model"_s, u"anthropic/claude-sonnet-4-5"_s}}));
        QVERIFY(text().endsWith('\n'));
    }

    void keepsEveryKeyItDoesNotChange()
    {
        write("{\n"
              "  \"$schema\": \"https://opencode.ai/config.json\",\n"
              "  \"model\": \"openai/gpt-5\",\n"
              "  \"instructions\": [\"CONTRIBUTING.md\", \"docs/*.md\"],\n"
              "  \"agent\": {\"review\": {\"description\": \"Reviews code\", \"temperature\": 0.2}},\n"
              "  \"compaction\": {\"auto\": false},\n"
              "  \"weird\": [1, 2.5, null, true, \"\\u00e9\\\"\\\\\"]\n"
              "}\n");
        QJsonObject expected = json();
        QVERIFY(writer().setModel(u"anthropic/claude-sonnet-4-5"_s).ok());
        expected.insert(u"model"_s, u"anthropic/claude-sonnet-4-5"_s);
        QCOMPARE(json(), expected);
    }

    void keepsTheOrderKeysWereWrittenIn()
    {
        // The last matching rule wins, so reordering "rm *" after "*" would
        // turn a deny into an ask.
        write(R"({"small_model": "a/b", "permission": {"bash": {"*": "ask", "rm *": "deny"}, "edit": "ask"}})");
        QVERIFY(writer().setPermissionAction(u"webfetch"_s, PermissionAction::Deny).ok());
        const QByteArray after = text();
        QVERIFY(after.indexOf("\"small_model\"") < after.indexOf("\"permission\""));
        QVERIFY(after.indexOf("\"*\"") < after.indexOf("\"rm *\""));
        QVERIFY(after.indexOf("\"edit\"") < after.indexOf("\"webfetch\""));

        write(R"({"permission": {"bash": {"rm *": "deny", "*": "ask"}}})");
        QVERIFY(writer().setPermissionAction(u"read"_s, PermissionAction::Allow).ok());
        QVERIFY(text().indexOf("\"rm *\"") < text().indexOf("\"*\""));
    }

    void setsAndRemovesTheModelSmallModelAndAgent()
    {
        write(R"({"theme": "opencode"})");
        QVERIFY(writer().setModel(u"openrouter/qwen/qwen3-coder"_s).ok());
        QVERIFY(writer().setSmallModel(u"anthropic/claude-haiku-4-5"_s).ok());
        QVERIFY(writer().setDefaultAgent(u"plan"_s).ok());
        QCOMPARE(json().value("model"_L1).toString(), u"openrouter/qwen/qwen3-coder"_s);
        QCOMPARE(json().value("small_model"_L1).toString(), u"anthropic/claude-haiku-4-5"_s);
        QCOMPARE(json().value("default_agent"_L1).toString(), u"plan"_s);

        QVERIFY(writer().setModel(std::nullopt).ok());
        QVERIFY(writer().setSmallModel(std::nullopt).ok());
        QVERIFY(writer().setDefaultAgent(std::nullopt).ok());
        QCOMPARE(json(), (QJsonObject{{u"theme"_s, u"opencode"_s}}));
    }

    void refusesAModelThatIsNotProviderSlashModel()
    {
        write(R"({"model": "openai/gpt-5"})");
        const QByteArray before = text();
        const Result<void> refused = writer().setModel(u"gpt-5"_s);
        QVERIFY(!refused.ok());
        QVERIFY(refused.errorMessage().contains(u"provider/model"_s));
        QCOMPARE(text(), before);
    }

    void setsAndRemovesPermissions()
    {
        QVERIFY(writer().setPermissionAction(u"bash"_s, PermissionAction::Ask).ok());
        QVERIFY(writer().setPermission(u"edit"_s, QJsonObject{{u"*"_s, u"ask"_s}, {u"docs/*"_s, u"allow"_s}}).ok());
        QCOMPARE(json().value("permission"_L1).toObject(),
                 (QJsonObject{{u"bash"_s, u"ask"_s},
                              {u"edit"_s, QJsonObject{{u"*"_s, u"ask"_s}, {u"docs/*"_s, u"allow"_s}}}}));

        QVERIFY(writer().setPermissionAction(u"bash"_s, std::nullopt).ok());
        QCOMPARE(json().value("permission"_L1).toObject().keys(), QStringList{u"edit"_s});
        QVERIFY(writer().setPermission(u"edit"_s, QJsonValue()).ok());
        QVERIFY(!json().contains("permission"_L1));
    }

    void aPermissionForEverythingBecomesTheFirstRule()
    {
        write(R"({"permission": "ask"})");
        QVERIFY(writer().setPermissionAction(u"read"_s, PermissionAction::Allow).ok());
        QCOMPARE(json().value("permission"_L1).toObject(),
                 (QJsonObject{{u"*"_s, u"ask"_s}, {u"read"_s, u"allow"_s}}));
    }

    void refusesAPermissionThatIsNoAction()
    {
        const Result<void> refused = writer().setPermission(u"bash"_s, u"allways"_s);
        QVERIFY(!refused.ok());
        QVERIFY(refused.errorMessage().contains(u"bash"_s));
        const Result<void> nested = writer().setPermission(u"bash"_s, QJsonObject{{u"git *"_s, u"yes"_s}});
        QVERIFY(!nested.ok());
        QVERIFY(nested.errorMessage().contains(u"git *"_s));
        QVERIFY(!QFile::exists(file()));
    }

    void setsAProviderInOpenCodesShape()
    {
        QVERIFY(writer().setProvider(server()).ok());
        const QJsonObject expected{
            {u"npm"_s, u"@ai-sdk/openai-compatible"_s},
            {u"name"_s, u"My Server"_s},
            {u"options"_s, QJsonObject{{u"baseURL"_s, u"http://127.0.0.1:8000/v1"_s}}},
            {u"models"_s, QJsonObject{{u"qwen3-coder"_s, QJsonObject{{u"name"_s, u"qwen3-coder"_s}}},
                                      {u"llama-3.3"_s, QJsonObject{{u"name"_s, u"llama-3.3"_s}}}}},
            {u"env"_s, QJsonArray{u"MY_SERVER_API_KEY"_s}},
        };
        QCOMPARE(json().value("provider"_L1).toObject().value("my-server"_L1).toObject(), expected);
    }

    void updatingAProviderKeepsItsOtherOptionsAndModelDetails()
    {
        write(R"({"provider": {"my-server": {"name": "Old", "options": {"baseURL": "http://old/v1", )"
              R"("headers": {"X-Team": "core"}}, "models": {"qwen3-coder": {"name": "Qwen", "limit": )"
              R"({"context": 32000, "output": 4000}}, "gone": {}}}, "other": {"npm": "@ai-sdk/anthropic"}}})");
        QVERIFY(writer().setProvider(server()).ok());
        const QJsonObject providers = json().value("provider"_L1).toObject();
        QVERIFY(providers.contains("other"_L1));
        const QJsonObject entry = providers.value("my-server"_L1).toObject();
        QCOMPARE(entry.value("options"_L1).toObject(),
                 (QJsonObject{{u"baseURL"_s, u"http://127.0.0.1:8000/v1"_s},
                              {u"headers"_s, QJsonObject{{u"X-Team"_s, u"core"_s}}}}));
        const QJsonObject models = entry.value("models"_L1).toObject();
        QCOMPARE(models.keys(), (QStringList{u"llama-3.3"_s, u"qwen3-coder"_s}));
        QCOMPARE(models.value("qwen3-coder"_L1).toObject().value("limit"_L1).toObject().value("context"_L1).toInt(),
                 32000);
    }

    void removesAProvider()
    {
        QVERIFY(writer().setProvider(server()).ok());
        QVERIFY(writer().setModel(u"my-server/qwen3-coder"_s).ok());
        QVERIFY(writer().removeProvider(u"my-server"_s).ok());
        QCOMPARE(json(), (QJsonObject{{u"model"_s, u"my-server/qwen3-coder"_s}}));
        const Result<void> again = writer().removeProvider(u"my-server"_s);
        QVERIFY(!again.ok());
        QVERIFY(again.errorMessage().contains(u"my-server"_s));
    }

    void refusesAProviderItCannotUse_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("baseURL");
        QTest::addColumn<QStringList>("models");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("empty id") << u""_s << u"http://h/v1"_s << QStringList{u"m"_s} << u"id"_s;
        QTest::newRow("id with slash") << u"a/b"_s << u"http://h/v1"_s << QStringList{u"m"_s} << u"a/b"_s;
        QTest::newRow("empty URL") << u"x"_s << u""_s << QStringList{u"m"_s} << u"base URL"_s;
        QTest::newRow("no scheme") << u"x"_s << u"localhost:8000"_s << QStringList{u"m"_s} << u"localhost:8000"_s;
        QTest::newRow("ftp") << u"x"_s << u"ftp://h/v1"_s << QStringList{u"m"_s} << u"http://"_s;
        QTest::newRow("no models") << u"x"_s << u"http://h/v1"_s << QStringList{} << u"model"_s;
        QTest::newRow("model with space") << u"x"_s << u"http://h/v1"_s << QStringList{u"a b"_s} << u"a b"_s;
    }

    void refusesAProviderItCannotUse()
    {
        QFETCH(QString, id);
        QFETCH(QString, baseURL);
        QFETCH(QStringList, models);
        QFETCH(QString, mentions);
        write(R"({"model": "openai/gpt-5"})");
        const QByteArray before = text();
        CompatibleProvider p;
        p.id = id;
        p.baseURL = baseURL;
        p.models = models;
        const Result<void> refused = writer().setProvider(p);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.errorMessage().contains(mentions), qPrintable(refused.errorMessage()));
        QCOMPARE(text(), before);
    }

    void refusesInvalidJsonNamingTheFileAndLineAndLeavesItUntouched()
    {
        const QByteArray broken = "{\n  \"model\": \"openai/gpt-5\",\n  \"agent\": {\n    \"x\": \n  }\n}\n";
        write(broken);
        const Result<void> refused = writer().setModel(u"anthropic/claude-sonnet-4-5"_s);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.errorMessage().contains(QDir::toNativeSeparators(file())), qPrintable(refused.errorMessage()));
        QVERIFY2(refused.errorMessage().contains(u"line 5"_s), qPrintable(refused.errorMessage()));
        QCOMPARE(text(), broken);
        QVERIFY(!writer().read().ok());
        QCOMPARE(QDir(folder()).entryList(QDir::Files), QStringList{u"qcode.json"_s});
    }

    void refusesCommentsItWouldLose()
    {
        const QByteArray commented = "{\n  // my favourite\n  \"model\": \"openai/gpt-5\",\n}\n";
        write(commented);
        const Result<void> refused = writer().setDefaultAgent(u"plan"_s);
        QVERIFY(!refused.ok());
        QVERIFY(refused.errorMessage().contains(u"comments"_s));
        QVERIFY(refused.errorMessage().contains(u"line 2"_s));
        QCOMPARE(text(), commented);
    }

    void refusesADocumentThatIsNotAnObject()
    {
        write("[1, 2]");
        QVERIFY(!writer().setModel(u"a/b"_s).ok());
        QCOMPARE(text(), QByteArray("[1, 2]"));

        write(R"({"provider": "none", "permission": 3})");
        const QByteArray before = text();
        const Result<void> provider = writer().setProvider(server());
        QVERIFY(!provider.ok());
        QVERIFY(provider.errorMessage().contains(u"\"provider\""_s));
        QVERIFY(!writer().setPermissionAction(u"bash"_s, PermissionAction::Ask).ok());
        QCOMPARE(text(), before);
    }

    void anEmptyFileHasNoSettings()
    {
        write("  \n");
        QVERIFY(writer().setModel(u"a/b"_s).ok());
        QCOMPARE(json(), (QJsonObject{{u"model"_s, u"a/b"_s}}));
    }

    void replacesTheFileInOneStep()
    {
        const QByteArray old = R"({"model": "openai/gpt-5", "small_model": "openai/gpt-5-nano"})";
        write(old);
        // A reader that opened the file before the write goes on reading
        // the whole old file: the new one replaced it, it was never
        // truncated and rewritten in place.
        QFile reader(file());
        QVERIFY(reader.open(QIODevice::ReadOnly));
        QVERIFY(writer().setModel(u"anthropic/claude-sonnet-4-5"_s).ok());
        QCOMPARE(reader.readAll(), old);
        QCOMPARE(json().value("model"_L1).toString(), u"anthropic/claude-sonnet-4-5"_s);
        QCOMPARE(QDir(folder()).entryList(QDir::Files), QStringList{u"qcode.json"_s});
    }

    void neverWritesAnApiKey()
    {
        QVERIFY(writer().setProvider(server()).ok());
        QVERIFY(writer().setModel(u"my-server/qwen3-coder"_s).ok());
        QVERIFY(!text().contains("apiKey"));
        QVERIFY(!text().contains("key\""));
    }

    void theSavedProviderIsOneTheRegistryOffers()
    {
        QVERIFY(writer().setProvider(server()).ok());
        ConfigLocations locations;
        locations.homeDirectory = m_tree.path(u"home"_s);
        locations.globalDirectories = {m_tree.path(u"config/opencode"_s), folder()};
        QCOMPARE(UserConfigWriter::directoryFor(locations), folder());
        const LoadedConfig loaded = ConfigLoader::load(locations);
        QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u'\n')));
        // What the writer writes passes the strict check too.
        QVERIFY2(loaded.errors.isEmpty(), qPrintable(configErrorLines(loaded.errors).join(u'\n')));

        QProcessEnvironment environment;
        environment.insert(u"MY_SERVER_API_KEY"_s, u"sk-from-env"_s);
        ProviderRegistry registry(ModelCatalogue::bundled(), Config::fromJson(loaded.json), environment, nullptr);
        const ProviderInfo *info = registry.provider(u"my-server"_s);
        QVERIFY(info);
        QCOMPARE(info->protocol, WireProtocol::OpenAIChat);
        QCOMPARE(info->baseUrl, QUrl(u"http://127.0.0.1:8000/v1"_s));
        QCOMPARE(info->models.size(), 2);
        QCOMPARE(info->keySource, KeySource::Environment);
        QCOMPARE(info->keyVariable, u"MY_SERVER_API_KEY"_s);
    }

    void keyVariablesAreShellNames()
    {
        QCOMPARE(CompatibleProvider::keyVariable(u"my-server.local"_s), u"MY_SERVER_LOCAL_API_KEY"_s);
        QCOMPARE(CompatibleProvider::keyVariable(u"vllm"_s), u"VLLM_API_KEY"_s);
    }
};

QTEST_GUILESS_MAIN(TestUserConfigWriter)
#include "tst_user_config_writer.moc"
