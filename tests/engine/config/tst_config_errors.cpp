// Configuration fails closed: every file in a config's place that cannot be
// read, is not UTF-8, does not parse or holds a key of the wrong type is an
// error naming its file, line and column — never a skipped file whose
// `"bash": "deny"` silently stops applying.

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

#include "TempTree.h"

#include "engine/config/ConfigError.h"
#include "engine/config/ConfigFile.h"
#include "engine/config/ConfigLoader.h"
#include "engine/config/JsoncParser.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class TestConfigErrors : public QObject
{
    Q_OBJECT

    test::TempTree m_tree;

    QString path(const QString &relative) const { return m_tree.path(relative); }
    QString projectFile() const { return path(u"project/opencode.json"_s); }

    ConfigLocations locations() const
    {
        ConfigLocations l;
        l.homeDirectory = path(u"home"_s);
        l.globalDirectories = {path(u"home/.config/opencode"_s)};
        l.projectDirectory = path(u"project"_s);
        l.environment = QProcessEnvironment();
        return l;
    }

    // The errors of a project whose only config is `text`.
    ConfigErrors errorsOf(const QByteArray &text)
    {
        if (!m_tree.write(u"project/opencode.json"_s, text))
            return {{u"(test)"_s, 0, 0, u"could not write the config"_s}};
        return ConfigLoader::load(locations()).errors;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(path(u"project"_s)));
    }

    void anErrorReadsPathLineColumnAndWhatIsWrong()
    {
        QCOMPARE((ConfigError{u"/p/opencode.json"_s, 3, 14, u"bad"_s}.toString()), u"/p/opencode.json:3:14: bad"_s);
        QCOMPARE((ConfigError{u"/p/a.md"_s, 5, 0, u"bad"_s}.toString()), u"/p/a.md:5: bad"_s);
        QCOMPARE((ConfigError{u"/p/x"_s, 0, 0, u"is a folder"_s}.toString()), u"/p/x: is a folder"_s);
        QCOMPARE(ConfigError::fromLocatedText(u"/p/a.md"_s, u"/p/a.md:7: tabs are not allowed"_s),
                 (ConfigError{u"/p/a.md"_s, 7, 0, u"tabs are not allowed"_s}));
        QCOMPARE(ConfigError::fromLocatedText(u"/p/a.md"_s, u"/p/a.md: cannot be read"_s),
                 (ConfigError{u"/p/a.md"_s, 0, 0, u"cannot be read"_s}));
    }

    void invalidJsoncIsAnErrorWithItsLineAndColumn()
    {
        const ConfigErrors errors = errorsOf("{\n  \"model\": \"a/b\",\n  \"permission\": {\"bash\": \"deny\" \"edit\": \"ask\"}\n}\n");
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.constFirst().file, QDir::toNativeSeparators(projectFile()));
        QCOMPARE(errors.constFirst().line, 3);
        QCOMPARE(errors.constFirst().column, 33);
        QVERIFY(!errors.constFirst().message.isEmpty());
    }

    void aTopLevelThatIsNotAnObjectIsAnError()
    {
        const ConfigErrors errors = errorsOf("\n  [\"bash\"]\n");
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.constFirst().line, 2);
        QCOMPARE(errors.constFirst().column, 3);
        QVERIFY(errors.constFirst().message.contains(u"JSON object"_s));
    }

    void bytesThatAreNotUtf8AreAnErrorWhereTheyAre()
    {
        const ConfigErrors errors = errorsOf("{\n  \"username\": \"caf\xE9\"\n}\n");
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.constFirst().line, 2);
        QCOMPARE(errors.constFirst().column, 19);
        QVERIFY2(errors.constFirst().message.contains(u"not UTF-8"_s), qPrintable(errors.constFirst().toString()));
        QVERIFY(errors.constFirst().message.contains(u"0xe9"_s));
        // Overlong forms and surrogates are refused too; real UTF-8 is not.
        QCOMPARE(JsoncParser::invalidUtf8Offset("ab\xC0\xAF"), 2);
        QCOMPARE(JsoncParser::invalidUtf8Offset("\xED\xA0\x80"), 0);
        QCOMPARE(JsoncParser::invalidUtf8Offset("caf\xC3\xA9 \xF0\x9F\x98\x80"), -1);
    }

    void permissionWrittenAsAListIsAnErrorAtTheValue()
    {
        const ConfigErrors errors = errorsOf("{\n  \"permission\": [\"bash\", \"deny\"]\n}\n");
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.constFirst().line, 2);
        QCOMPARE(errors.constFirst().column, 17);
        QVERIFY2(errors.constFirst().message.contains(u"\"permission\" must be"_s),
                 qPrintable(errors.constFirst().toString()));
        QVERIFY(errors.constFirst().message.contains(u"a list"_s));
    }

    void aPermissionActionThatIsNoneOfTheThreeIsAnError()
    {
        const ConfigErrors errors =
            errorsOf(R"({"permission": {"bash": {"git *": "allow", "rm *": "dney"}, "edit": true}})");
        QCOMPARE(errors.size(), 2);
        const QString all = configErrorLines(errors).join(u'\n');
        QVERIFY2(all.contains(u"\"permission.bash.rm *\" must be \"allow\", \"ask\" or \"deny\", not the text \"dney\""_s),
                 qPrintable(all));
        QVERIFY2(all.contains(u"\"permission.edit\" must be"_s), qPrintable(all));
    }

    void aModelLimitWrittenAsTextIsAnError()
    {
        const ConfigErrors errors = errorsOf(
            "{\"provider\": {\"local\": {\"models\": {\"m\": {\n"
            "  \"limit\": {\"context\": \"128000\", \"output\": 4096}}}}}}");
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.constFirst().line, 2);
        QCOMPARE(errors.constFirst().column, 24);
        QVERIFY2(errors.constFirst().message.contains(u"\"provider.local.models.m.limit.context\" must be a number"_s),
                 qPrintable(errors.constFirst().toString()));
    }

    void keysOfTheWrongTypeAreErrorsEachAtItsValue_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("key");
        QTest::newRow("model") << QByteArray(R"({"model": 5})") << u"\"model\""_s;
        QTest::newRow("disabled_providers") << QByteArray(R"({"disabled_providers": "openai"})") << u"\"disabled_providers\""_s;
        QTest::newRow("provider entry") << QByteArray(R"({"provider": {"x": 1}})") << u"\"provider.x\""_s;
        QTest::newRow("header") << QByteArray(R"({"provider": {"x": {"options": {"headers": {"A": 1}}}}})")
                                << u"\"provider.x.options.headers.A\""_s;
        QTest::newRow("timeout") << QByteArray(R"({"provider": {"x": {"options": {"timeout": true}}}})")
                                 << u"\"provider.x.options.timeout\""_s;
        QTest::newRow("agent steps") << QByteArray(R"({"agent": {"build": {"steps": 0}}})") << u"\"agent.build.steps\""_s;
        QTest::newRow("agent tools") << QByteArray(R"({"agent": {"plan": {"tools": {"bash": "no"}}}})")
                                     << u"\"agent.plan.tools.bash\""_s;
        QTest::newRow("agent mode") << QByteArray(R"({"agent": {"x": {"mode": "boss"}}})") << u"\"agent.x.mode\""_s;
        QTest::newRow("legacy mode map") << QByteArray(R"({"mode": {"x": {"temperature": "hot"}}})")
                                         << u"\"mode.x.temperature\""_s;
        QTest::newRow("tools") << QByteArray(R"({"tools": {"bash": "deny"}})") << u"\"tools.bash\""_s;
        QTest::newRow("instructions") << QByteArray(R"({"instructions": "AGENTS.md"})") << u"\"instructions\""_s;
        QTest::newRow("compaction") << QByteArray(R"({"compaction": {"reserved": "lots"}})")
                                    << u"\"compaction.reserved\""_s;
        QTest::newRow("command") << QByteArray(R"({"command": {"t": {"template": "x", "subtask": "yes"}}})")
                                 << u"\"command.t.subtask\""_s;
        QTest::newRow("experimental") << QByteArray(R"({"experimental": []})") << u"\"experimental\""_s;
        QTest::newRow("mcp server") << QByteArray(R"({"mcp": {"s": "npx server"}})") << u"\"mcp.s\""_s;
        QTest::newRow("plugin") << QByteArray(R"({"plugin": [1]})") << u"\"plugin.0\""_s;
        QTest::newRow("snapshot") << QByteArray(R"({"snapshot": "no"})") << u"\"snapshot\""_s;
    }

    void keysOfTheWrongTypeAreErrorsEachAtItsValue()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, key);
        const ConfigErrors errors = errorsOf(text);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.constFirst().message.startsWith(key + u" must be"_s), qPrintable(errors.constFirst().toString()));
        QCOMPARE(errors.constFirst().line, 1);
        QVERIFY(errors.constFirst().column > 1);
    }

    void aWellTypedConfigHasNoErrors()
    {
        const ConfigErrors errors = errorsOf(R"({
  "$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-sonnet-4-5", "small_model": "anthropic/claude-haiku-4-5",
  "default_agent": "build", "username": "me", "theme": "opencode", "share": "disabled",
  "autoupdate": "notify", "snapshot": false, "disabled_providers": ["openai"], "enabled_providers": ["anthropic", "local"],
  "provider": {"local": {"npm": "@ai-sdk/openai-compatible", "name": "Local", "api": "http://127.0.0.1:1/v1",
    "options": {"apiKey": "{env:NOPE}", "baseURL": "http://127.0.0.1:1/v1", "headers": {"X-A": "b"}, "timeout": false,
                "custom": [1, 2]},
    "models": {"m": {"name": "M", "limit": {"context": 1000, "output": 100}, "cost": {"input": 1, "output": 2,
      "context_over_200k": {"input": 3}}, "modalities": {"input": ["text"], "output": ["text"]},
      "reasoning": true, "tool_call": true, "attachment": false, "temperature": true, "options": {"x": 1},
      "variants": {"high": {"reasoningEffort": "high"}}}},
    "whitelist": ["m"], "blacklist": []}},
  "agent": {"build": {"model": "local/m", "prompt": "p", "description": "d", "temperature": 0.2, "top_p": 0.9,
    "tools": {"bash": false}, "permission": {"bash": {"*": "ask", "git *": "allow"}, "edit": "deny"},
    "mode": "primary", "disable": false, "steps": 5, "maxSteps": 3, "color": "#FF5733", "hidden": false,
    "reasoningEffort": "high"}},
  "mode": {"old": {"prompt": "p"}},
  "permission": {"bash": "ask", "webfetch": "deny", "external_directory": {"~/x/*": "allow"}},
  "tools": {"write": true}, "instructions": ["AGENTS.md"], "compaction": {"auto": true, "prune": false, "reserved": 1000},
  "command": {"t": {"template": "do $ARGUMENTS", "description": "d", "agent": "build", "model": "local/m", "subtask": true}},
  "experimental": {"continue_loop_on_deny": true, "whatever": 1},
  "mcp": {"s": {"type": "local", "command": ["npx", "s"]}},
  "formatter": false, "lsp": {"x": {"disabled": true}}, "watcher": {"ignore": ["dist/**"]}, "keybinds": {"leader": "ctrl+x"},
  "tui": {"scroll_speed": 3}, "server": {"port": 4096}, "plugin": ["p@1"],
  "a_key_from_a_newer_opencode": {"anything": true}
})");
        QVERIFY2(errors.isEmpty(), qPrintable(configErrorLines(errors).join(u'\n')));
    }

    void aFolderNamedLikeTheConfigIsAnError()
    {
        QVERIFY(QDir().mkpath(path(u"project/.opencode/opencode.json"_s)));
        const ConfigErrors errors = ConfigLoader::load(locations()).errors;
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.constFirst().toString(),
                 QDir::toNativeSeparators(path(u"project/.opencode/opencode.json"_s)) + u": is a folder, not a file"_s);
    }

    void aFifoInTheConfigsPlaceIsAnErrorAtOnce()
    {
        QVERIFY(QDir().mkpath(path(u"home/.config/opencode"_s)));
        const QByteArray fifo = QFile::encodeName(path(u"home/.config/opencode/opencode.jsonc"_s));
        QCOMPARE(::mkfifo(fifo.constData(), 0600), 0);
        // No writer ever opens the pipe: a blocking open or read would hang here.
        const ConfigErrors errors = ConfigLoader::load(locations()).errors;
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.constFirst().toString().endsWith(u"opencode.jsonc: is a named pipe (FIFO), not a file"_s),
                 qPrintable(errors.constFirst().toString()));
    }

    void aFileOverFourMebibytesIsRefusedUnread()
    {
        QByteArray huge = "{\"username\": \"";
        huge += QByteArray(5 * 1024 * 1024, 'x');
        huge += "\"}";
        const ConfigErrors errors = errorsOf(huge);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.constFirst().message.contains(u"larger than the 4 MiB"_s), qPrintable(errors.constFirst().toString()));
        QCOMPARE(errors.constFirst().line, 0);
    }

    void aFileThatCannotBeOpenedIsAnError()
    {
        if (::geteuid() == 0)
            QSKIP("Running as root: permission bits do not stop root from reading (a folder in the file's place is "
                  "covered by aFolderNamedLikeTheConfigIsAnError).");
        QVERIFY(m_tree.write(u"project/opencode.json"_s, R"({"permission": {"bash": "deny"}})"));
        QVERIFY(QFile::setPermissions(projectFile(), QFileDevice::Permissions()));
        const ConfigErrors errors = ConfigLoader::load(locations()).errors;
        QFile::setPermissions(projectFile(), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.constFirst().message.startsWith(u"cannot be read"_s), qPrintable(errors.constFirst().toString()));
    }

    void aFileReferenceToAPipeIsAnErrorAtTheReference()
    {
        const QByteArray fifo = QFile::encodeName(path(u"project/key.pipe"_s));
        QCOMPARE(::mkfifo(fifo.constData(), 0600), 0);
        const ConfigErrors errors =
            errorsOf("{\n  \"provider\": {\"a\": {\"options\": {\"apiKey\": \"{file:key.pipe}\"}}}\n}");
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.constFirst().line, 2);
        QCOMPARE(errors.constFirst().column, 45);
        QVERIFY2(errors.constFirst().message.contains(u"is a named pipe"_s), qPrintable(errors.constFirst().toString()));
    }

    void errorsInInlineContentNameTheVariable()
    {
        ConfigLocations l = locations();
        l.environment.insert(u"OPENCODE_CONFIG_CONTENT"_s, uR"({"permission": ["deny"]})"_s);
        const ConfigErrors errors = ConfigLoader::load(l).errors;
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.constFirst().toString().startsWith(u"OPENCODE_CONFIG_CONTENT:1:16: \"permission\" must be"_s),
                 qPrintable(errors.constFirst().toString()));
    }

    void aNamedFileThatIsMissingIsOnlyANote()
    {
        ConfigLocations l = locations();
        l.environment.insert(u"OPENCODE_CONFIG"_s, path(u"nowhere.json"_s));
        const LoadedConfig loaded = ConfigLoader::load(l);
        QVERIFY(loaded.errors.isEmpty());
        QCOMPARE(loaded.problems.size(), 1);
    }

    void theBrokenFileIsLeftOutAndTheOthersStillMerge()
    {
        QVERIFY(m_tree.write(u"home/.config/opencode/opencode.json"_s, R"({"model": "good/one"})"));
        const LoadedConfig loaded = [&] {
            (void)errorsOf(R"({"model": "bad/one", "permission": ["bash"]})");
            return ConfigLoader::load(locations());
        }();
        QCOMPARE(loaded.errors.size(), 1);
        QCOMPARE(loaded.json.value(u"model"_s).toString(), u"good/one"_s);
    }
};

QTEST_GUILESS_MAIN(TestConfigErrors)
#include "tst_config_errors.moc"
