#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>

#include "TempTree.h"

#include "engine/config/Config.h"
#include "engine/config/ConfigLoader.h"
#include "engine/config/JsonMerge.h"
#include "engine/config/JsoncParser.h"
#include "engine/config/NpmProtocol.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class TestConfigLoading : public QObject
{
    Q_OBJECT

    test::TempTree m_tree;

    QString path(const QString &relative) const { return m_tree.path(relative); }

    void write(const QString &relative, const QByteArray &text) { QVERIFY(m_tree.write(relative, text)); }

    // A home, two global folders and a project two levels below a worktree
    // root, all inside the temporary folder; an empty environment.
    ConfigLocations locations() const
    {
        ConfigLocations l;
        l.homeDirectory = path(u"home"_s);
        l.globalDirectories = {path(u"home/.config/opencode"_s), path(u"home/.config/qcode"_s)};
        l.worktreeRoot = path(u"repo"_s);
        l.projectDirectory = path(u"repo/packages/app"_s);
        l.environment = QProcessEnvironment();
        return l;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(path(u"repo/packages/app"_s)));
    }

    void noConfigFilesGiveAnEmptyConfig()
    {
        const LoadedConfig loaded = ConfigLoader::load(locations());
        QVERIFY(loaded.json.isEmpty());
        QVERIFY(loaded.files.isEmpty());
        QVERIFY(loaded.problems.isEmpty());
    }

    void discoveryOrderGoesGlobalThenNamedFileThenProjectTopDown()
    {
        ConfigLocations l = locations();
        l.environment.insert(u"OPENCODE_CONFIG"_s, path(u"named/opencode.json"_s));
        l.environment.insert(u"QCODE_CONFIG"_s, path(u"named/qcode.json"_s));
        const QStringList files = ConfigLoader::candidateFiles(l);
        const auto at = [&](const QString &relative) { return files.indexOf(QDir::cleanPath(path(relative))); };
        QVERIFY(at(u"home/.config/opencode/opencode.json"_s) >= 0);
        QVERIFY(at(u"home/.config/opencode/opencode.json"_s) < at(u"home/.config/opencode/opencode.jsonc"_s));
        QVERIFY(at(u"home/.config/opencode/opencode.jsonc"_s) < at(u"home/.config/qcode/qcode.json"_s));
        QVERIFY(at(u"home/.config/qcode/qcode.json"_s) < at(u"named/opencode.json"_s));
        QVERIFY(at(u"named/opencode.json"_s) < at(u"named/qcode.json"_s));
        QVERIFY(at(u"named/qcode.json"_s) < at(u"repo/opencode.json"_s));
        QVERIFY(at(u"repo/opencode.json"_s) < at(u"repo/packages/opencode.json"_s));
        QVERIFY(at(u"repo/packages/opencode.json"_s) < at(u"repo/packages/app/opencode.jsonc"_s));
        QVERIFY(at(u"repo/packages/app/opencode.json"_s) < at(u"repo/packages/app/qcode.json"_s));
        QVERIFY(at(u"repo/packages/app/qcode.json"_s) < at(u"repo/.opencode/opencode.json"_s));
        QVERIFY(at(u"repo/.opencode/opencode.json"_s) < at(u"repo/packages/app/.opencode/opencode.json"_s));
        QCOMPARE(files.filter(u"/home/opencode.json"_s).size(), 0); // the walk never leaves the worktree
    }

    void laterConfigFileWinsOverEarlier()
    {
        write(u"home/.config/opencode/opencode.json"_s, R"({"model":"anthropic/claude-sonnet-4-5","small_model":"anthropic/claude-haiku-4-5"})");
        write(u"repo/opencode.json"_s, R"({"model":"openai/gpt-5"})");
        write(u"repo/packages/app/opencode.json"_s, R"({"model":"google/gemini-2.5-pro"})");
        const LoadedConfig loaded = ConfigLoader::load(locations());
        QCOMPARE(loaded.files.size(), 3);
        QCOMPARE(loaded.json.value(u"model"_s).toString(), u"google/gemini-2.5-pro"_s);
        QCOMPARE(loaded.json.value(u"small_model"_s).toString(), u"anthropic/claude-haiku-4-5"_s);
    }

    void nestedObjectsMergeDeeply()
    {
        write(u"home/.config/opencode/opencode.json"_s,
              R"({"provider":{"anthropic":{"options":{"apiKey":"a","headers":{"X-A":"1"}}}},"instructions":["a.md"]})");
        write(u"repo/packages/app/opencode.json"_s,
              R"({"provider":{"anthropic":{"options":{"headers":{"X-B":"2"}}}},"instructions":["b.md","a.md"]})");
        const LoadedConfig loaded = ConfigLoader::load(locations());
        const QJsonObject options = loaded.json[u"provider"_s][u"anthropic"_s][u"options"_s].toObject();
        QCOMPARE(options.value(u"apiKey"_s).toString(), u"a"_s);
        QCOMPARE(options.value(u"headers"_s).toObject().keys(), QStringList({u"X-A"_s, u"X-B"_s}));
        QCOMPARE(loaded.json.value(u"instructions"_s).toArray(), QJsonArray({u"a.md"_s, u"b.md"_s}));
    }

    void arraysOtherThanInstructionsAreReplaced()
    {
        const QJsonObject merged = JsonMerge::deepMerge(QJsonObject{{u"disabled_providers"_s, QJsonArray{u"a"_s}}},
                                                        QJsonObject{{u"disabled_providers"_s, QJsonArray{u"b"_s}}},
                                                        JsonMerge::configConcatenatedKeys());
        QCOMPARE(merged.value(u"disabled_providers"_s).toArray(), QJsonArray({u"b"_s}));
    }

    void qcodeJsonAndDotOpencodeFolderAreRead()
    {
        write(u"repo/packages/app/opencode.json"_s, R"({"model":"a/b","agent":{"build":{"temperature":0.2}}})");
        write(u"repo/packages/app/qcode.json"_s, R"({"model":"c/d"})");
        write(u"repo/.opencode/opencode.jsonc"_s, R"({"model":"e/f", /* folder config */ "permission":{"bash":"ask"},})");
        const LoadedConfig loaded = ConfigLoader::load(locations());
        QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u'\n')));
        QCOMPARE(loaded.json.value(u"model"_s).toString(), u"e/f"_s);
        // Keys the provider layer does not read stay available as JSON.
        const Config config = Config::fromJson(loaded.json);
        QCOMPARE(config.value(u"permission"_s).toObject().value(u"bash"_s).toString(), u"ask"_s);
        QCOMPARE(config.value(u"agent"_s)[u"build"_s][u"temperature"_s].toDouble(), 0.2);
    }

    void qcodeConfigVariableNamesAnExtraFile()
    {
        write(u"elsewhere/extra.jsonc"_s, "// extra\n{\"model\": \"x/y\"}");
        ConfigLocations l = locations();
        l.environment.insert(u"QCODE_CONFIG"_s, path(u"elsewhere/extra.jsonc"_s));
        const LoadedConfig loaded = ConfigLoader::load(l);
        QCOMPARE(loaded.json.value(u"model"_s).toString(), u"x/y"_s);
    }

    void opencodeConfigVariableIsAcceptedToo()
    {
        write(u"elsewhere/oc.json"_s, R"({"small_model":"x/small"})");
        ConfigLocations l = locations();
        l.environment.insert(u"OPENCODE_CONFIG"_s, path(u"elsewhere/oc.json"_s));
        QCOMPARE(ConfigLoader::load(l).json.value(u"small_model"_s).toString(), u"x/small"_s);
    }

    void missingNamedFileIsReported()
    {
        ConfigLocations l = locations();
        l.environment.insert(u"QCODE_CONFIG"_s, path(u"nowhere.json"_s));
        const LoadedConfig loaded = ConfigLoader::load(l);
        QCOMPARE(loaded.problems.size(), 1);
        QVERIFY(loaded.problems.constFirst().contains(u"nowhere.json"_s));
    }

    void brokenJsoncNamesTheFileLineAndColumn()
    {
        write(u"home/.config/opencode/opencode.json"_s, R"({"model":"good/one"})");
        write(u"repo/packages/app/opencode.jsonc"_s, "{\n  // a comment\n  \"model\": \"bad/one\"\n  \"small_model\": 3\n}\n");
        const LoadedConfig loaded = ConfigLoader::load(locations());
        QCOMPARE(loaded.errors.size(), 1);
        const QString problem = loaded.errors.constFirst().toString();
        QVERIFY2(problem.contains(u"opencode.jsonc:4:3:"_s), qPrintable(problem));
        // The good file is merged (the project refuses prompts for the error).
        QCOMPARE(loaded.json.value(u"model"_s).toString(), u"good/one"_s);
        QCOMPARE(loaded.files.size(), 1);
    }

    void jsoncAllowsCommentsAndTrailingCommas()
    {
        const QByteArray text = "{\n // line comment\n \"a\": \"http://x//y\", /* block\n comment */\n \"b\": [1, 2, ],\n \"c\": {\"d\": \"/* not a comment */\",},\n}";
        const Result<QJsonObject> parsed = JsoncParser::parseObject(text, u"t.jsonc"_s);
        QVERIFY2(parsed.ok(), qPrintable(parsed.errorMessage()));
        QCOMPARE(parsed->value(u"a"_s).toString(), u"http://x//y"_s);
        QCOMPARE(parsed->value(u"b"_s).toArray().size(), 2);
        QCOMPARE(parsed->value(u"c"_s)[u"d"_s].toString(), u"/* not a comment */"_s);
    }

    void unterminatedBlockCommentIsReportedWhereItStarts()
    {
        const Result<QJsonObject> parsed = JsoncParser::parseObject("{\n  \"a\": 1 /* never closed\n}", u"t.jsonc"_s);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.errorMessage().startsWith(u"t.jsonc:2:10:"_s), qPrintable(parsed.errorMessage()));
    }

    void nonObjectRootIsAnError()
    {
        const Result<QJsonObject> parsed = JsoncParser::parseObject("[1, 2]", u"t.json"_s);
        QVERIFY(!parsed.ok());
        QVERIFY(parsed.errorMessage().startsWith(u"t.json:1:1:"_s));
    }

    void envSubstitutionReadsTheVariable()
    {
        write(u"repo/packages/app/opencode.json"_s,
              R"({"provider":{"anthropic":{"options":{"apiKey":"{env:MY_KEY}","baseURL":"{env:UNSET_VAR}"}}}})");
        ConfigLocations l = locations();
        l.environment.insert(u"MY_KEY"_s, u"sk-\"quoted\"\\"_s);
        const LoadedConfig loaded = ConfigLoader::load(l);
        QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u'\n')));
        const QJsonObject options = loaded.json[u"provider"_s][u"anthropic"_s][u"options"_s].toObject();
        QCOMPARE(options.value(u"apiKey"_s).toString(), u"sk-\"quoted\"\\"_s);
        QCOMPARE(options.value(u"baseURL"_s).toString(), QString());
    }

    void fileSubstitutionReadsRelativeToTheConfigFile()
    {
        write(u"repo/secrets/key.txt"_s, "  sk-from-file\n");
        write(u"home/key.txt"_s, "sk-home");
        write(u"repo/opencode.jsonc"_s,
              "{\n  \"provider\": {\"a\": {\"options\": {\"apiKey\": \"{file:secrets/key.txt}\"}},\n"
              "                \"b\": {\"options\": {\"apiKey\": \"{file:~/key.txt}\"}}},\n"
              "  // \"instructions\": [\"{file:missing.txt}\"]\n}");
        const LoadedConfig loaded = ConfigLoader::load(locations());
        QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u'\n')));
        QCOMPARE(loaded.json[u"provider"_s][u"a"_s][u"options"_s][u"apiKey"_s].toString(), u"sk-from-file"_s);
        QCOMPARE(loaded.json[u"provider"_s][u"b"_s][u"options"_s][u"apiKey"_s].toString(), u"sk-home"_s);
    }

    void missingSubstitutedFileNamesTheConfigAndThePath()
    {
        write(u"repo/opencode.json"_s, R"({"provider":{"a":{"options":{"apiKey":"{file:nope.txt}"}}}})");
        const LoadedConfig loaded = ConfigLoader::load(locations());
        QCOMPARE(loaded.errors.size(), 1);
        const QString error = loaded.errors.constFirst().toString();
        QVERIFY2(error.contains(u"opencode.json:1:40: bad file reference"_s), qPrintable(error));
        QVERIFY(error.contains(u"nope.txt"_s));
    }

    void inlineConfigContentWinsLast()
    {
        write(u"repo/packages/app/opencode.json"_s, R"({"model":"a/b"})");
        ConfigLocations l = locations();
        l.environment.insert(u"OPENCODE_CONFIG_CONTENT"_s, uR"({"model":"inline/model"})"_s);
        QCOMPARE(ConfigLoader::load(l).json.value(u"model"_s).toString(), u"inline/model"_s);
    }

    void npmPackagesMapToWireProtocols()
    {
        QCOMPARE(NpmProtocol::forPackage(u"@ai-sdk/anthropic"_s), WireProtocol::AnthropicMessages);
        QCOMPARE(NpmProtocol::forPackage(u"@ai-sdk/openai"_s), WireProtocol::OpenAIResponses);
        QCOMPARE(NpmProtocol::forPackage(u"@ai-sdk/openai-compatible"_s), WireProtocol::OpenAIChat);
        QCOMPARE(NpmProtocol::forPackage(u"@ai-sdk/google"_s), WireProtocol::Gemini);
        QCOMPARE(NpmProtocol::forPackage(u"@openrouter/ai-sdk-provider"_s), WireProtocol::OpenAIChat);
        QCOMPARE(NpmProtocol::forPackage(QString()), WireProtocol::OpenAIChat);
        QVERIFY(!NpmProtocol::forPackage(u"@ai-sdk/amazon-bedrock"_s));
    }

    void wrongTypesOfKnownKeysAreReportedAndIgnored()
    {
        const Config config = Config::fromJson(QJsonObject{{u"model"_s, 5},
                                                           {u"disabled_providers"_s, u"openai"_s},
                                                           {u"provider"_s, QJsonObject{{u"x"_s, 1}}}});
        QVERIFY(!config.model());
        QVERIFY(config.disabledProviders().isEmpty());
        QVERIFY(config.providers().isEmpty());
        QCOMPARE(config.problems().size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestConfigLoading)
#include "tst_config_loading.moc"
