#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTest>

#include "TempTree.h"
#include "ToolTestSupport.h"
#include "engine/tool/BuiltinTools.h"
#include "engine/tool/ToolArguments.h"
#include "engine/tool/ToolRegistry.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using qcode::test::failureOf;
using qcode::test::outputOf;

namespace {

// A tool whose schema uses every keyword the validator knows and which
// remembers the arguments it ran with.
class ProbeTool : public Tool
{
public:
    explicit ProbeTool(QString name, QString output = u"done"_s)
        : m_name(std::move(name))
        , m_output(std::move(output))
    {
    }

    QString name() const override { return m_name; }
    QString description() const override { return u"probe "_s + m_name; }
    QJsonObject parameters() const override
    {
        return QJsonObject{
            {"type"_L1, "object"_L1},
            {"properties"_L1,
             QJsonObject{
                 {"text"_L1, QJsonObject{{"type"_L1, "string"_L1}, {"maxLength"_L1, 20}}},
                 {"count"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"minimum"_L1, 0}}},
                 {"ratio"_L1, QJsonObject{{"type"_L1, "number"_L1}, {"coerce"_L1, true}}},
                 {"mode"_L1, QJsonObject{{"type"_L1, "string"_L1}, {"enum"_L1, QJsonArray{"fast"_L1, "slow"_L1}}}},
                 {"flag"_L1, QJsonObject{{"type"_L1, "boolean"_L1}}},
                 {"tags"_L1, QJsonObject{{"type"_L1, "array"_L1}, {"items"_L1, QJsonObject{{"type"_L1, "string"_L1}}}}},
                 {"todos"_L1,
                  QJsonObject{{"type"_L1, "array"_L1},
                              {"items"_L1,
                               QJsonObject{{"type"_L1, "object"_L1},
                                           {"properties"_L1,
                                            QJsonObject{{"status"_L1, QJsonObject{{"type"_L1, "string"_L1},
                                                                                  {"enum"_L1, QJsonArray{"pending"_L1, "done"_L1}}}}}},
                                           {"required"_L1, QJsonArray{"status"_L1}}}}}},
             }},
            {"required"_L1, QJsonArray{"text"_L1}},
        };
    }

    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override
    {
        ++runs;
        received = arguments;
        agent = context.agent;
        co_return ToolOutput{m_output, u"probe"_s, metadata, {}};
    }

    int runs = 0;
    QJsonObject received;
    QString agent;
    QJsonObject metadata;

private:
    QString m_name;
    QString m_output;
};

class FailingTool : public ProbeTool
{
public:
    using ProbeTool::ProbeTool;
    QCoro::Task<ToolResult> execute(QJsonObject, ToolContext) override
    {
        co_return ToolFailure{u"it broke"_s, ToolFailure::Kind::Failed};
    }
};

struct Fixture {
    test::TempTree data;
    std::unique_ptr<ToolRegistry> registry;
    ProbeTool *probe = nullptr;
    test::RecordingAsker asker;

    explicit Fixture(QString output = u"done"_s)
    {
        ToolServices services;
        services.dataDirectory = data.root();
        registry = std::make_unique<ToolRegistry>(services, [](const QString &agent) { return agent == "build"_L1; });
        auto tool = std::make_unique<ProbeTool>(u"probe"_s, std::move(output));
        probe = tool.get();
        registry->add(std::move(tool));
    }

    ToolResult call(const QString &name, const QJsonObject &input, const QString &agent = u"build"_s)
    {
        ToolContext context = test::toolContext(data.root(), &asker, nullptr);
        context.agent = agent;
        return test::runCall(*registry, ToolCall{name, u"call_1"_s, input}, context);
    }

    QString failure(const QJsonObject &input)
    {
        const ToolResult result = call(u"probe"_s, input);
        const ToolFailure *failed = failureOf(result);
        return failed ? failed->message : QString();
    }
};

QStringList names(const QList<ToolDefinition> &definitions)
{
    QStringList out;
    for (const ToolDefinition &definition : definitions)
        out.append(definition.name);
    return out;
}

std::unique_ptr<ToolRegistry> registryOf(const QStringList &toolNames)
{
    auto registry = std::make_unique<ToolRegistry>(ToolServices{}, nullptr);
    for (const QString &name : toolNames)
        registry->add(std::make_unique<ProbeTool>(name));
    return registry;
}

} // namespace

// The registry's wrapper (reference §8.0, §6.6): definitions per model and
// agent, name repair, the invalid tool, argument validation, truncation.
class ToolRegistryTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void definitionsKeepTheOrderToolsWereAdded()
    {
        const auto registry = registryOf({u"bash"_s, u"read"_s, u"glob"_s, u"grep"_s, u"edit"_s, u"write"_s});
        const auto definitions = registry->definitions(ToolScope{u"anthropic"_s, u"claude-sonnet-4"_s, u"build"_s, {}});
        QCOMPARE(names(definitions), QStringList({u"bash"_s, u"read"_s, u"glob"_s, u"grep"_s, u"edit"_s, u"write"_s}));
        QCOMPARE(definitions.at(1).description, u"probe read"_s);
    }

    void gptModelsGetApplyPatchInsteadOfEditAndWrite_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("patch");
        QTest::newRow("gpt-5") << u"gpt-5"_s << true;
        QTest::newRow("gpt-5-codex") << u"gpt-5-codex"_s << true;
        QTest::newRow("openai/gpt-5.1") << u"openai/gpt-5.1"_s << true;
        QTest::newRow("gpt-4o") << u"gpt-4o"_s << false;
        QTest::newRow("gpt-4.1") << u"gpt-4.1"_s << false;
        QTest::newRow("gpt-oss-120b") << u"gpt-oss-120b"_s << false;
        QTest::newRow("claude") << u"claude-sonnet-4-5"_s << false;
        QTest::newRow("o3") << u"o3"_s << false;
    }

    void gptModelsGetApplyPatchInsteadOfEditAndWrite()
    {
        QFETCH(QString, model);
        QFETCH(bool, patch);
        const auto registry = registryOf({u"read"_s, u"edit"_s, u"write"_s, u"apply_patch"_s});
        const QStringList offered = names(registry->definitions(ToolScope{u"p"_s, model, u"build"_s, {}}));
        if (patch)
            QCOMPARE(offered, QStringList({u"read"_s, u"apply_patch"_s}));
        else
            QCOMPARE(offered, QStringList({u"read"_s, u"edit"_s, u"write"_s}));
    }

    void disabledToolsAreLeftOut()
    {
        const auto registry = registryOf({u"bash"_s, u"read"_s, u"edit"_s, u"write"_s, u"task"_s});
        QCOMPARE(names(registry->definitions(ToolScope{u"p"_s, u"claude"_s, u"plan"_s, {u"bash"_s, u"task"_s}})),
                 QStringList({u"read"_s, u"edit"_s, u"write"_s}));
        // "edit" is the permission of every file-changing tool.
        QCOMPARE(names(registry->definitions(ToolScope{u"p"_s, u"claude"_s, u"plan"_s, {u"edit"_s}})),
                 QStringList({u"bash"_s, u"read"_s, u"task"_s}));
    }

    void definitionsCarryTheSchemaWithoutQcodesKeywords()
    {
        Fixture fixture;
        const auto definitions = fixture.registry->definitions(ToolScope{});
        QCOMPARE(definitions.size(), 1);
        const QJsonObject ratio =
            definitions.first().inputSchema.value("properties"_L1).toObject().value("ratio"_L1).toObject();
        QCOMPARE(ratio, QJsonObject({{"type"_L1, "number"_L1}}));
        QCOMPARE(definitions.first().inputSchema.value("required"_L1).toArray(), QJsonArray({"text"_L1}));
    }

    void aToolAddedTwiceReplacesTheFirstInPlace()
    {
        auto registry = registryOf({u"a"_s, u"b"_s, u"c"_s});
        registry->add(std::make_unique<ProbeTool>(u"b"_s, u"second"_s));
        QCOMPARE(registry->names(), QStringList({u"a"_s, u"b"_s, u"c"_s}));
        const ToolResult result = test::runCall(*registry, ToolCall{u"b"_s, u"c1"_s, {{"text"_L1, "x"_L1}}},
                                                test::toolContext(QDir::tempPath(), nullptr, nullptr));
        QVERIFY(outputOf(result));
        QCOMPARE(test::outputIn(result).output, u"second"_s);
    }

    void runsTheToolWithItsArguments()
    {
        Fixture fixture;
        const ToolResult result = fixture.call(u"probe"_s, {{"text"_L1, "hi"_L1}, {"count"_L1, 3}}, u"build"_s);
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(test::outputIn(result).output, u"done"_s);
        QCOMPARE(test::outputIn(result).title, u"probe"_s);
        QCOMPARE(test::outputIn(result).metadata.value("truncated"_L1), QJsonValue(false));
        QVERIFY(!test::outputIn(result).metadata.contains("outputPath"_L1));
        QCOMPARE(fixture.probe->received, QJsonObject({{"text"_L1, "hi"_L1}, {"count"_L1, 3}}));
        QCOMPARE(fixture.probe->agent, u"build"_s);
    }

    void aNameInTheWrongCaseIsRepaired()
    {
        Fixture fixture;
        const ToolResult result = fixture.call(u"PROBE"_s, {{"text"_L1, "hi"_L1}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(fixture.probe->runs, 1);
    }

    void anUnknownToolGetsTheInvalidToolsAnswer()
    {
        Fixture fixture;
        fixture.registry->add(std::make_unique<ProbeTool>(u"read"_s));
        const ToolResult result = fixture.call(u"browse"_s, {{"url"_L1, "x"_L1}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(test::outputIn(result).title, u"Invalid Tool"_s);
        QCOMPARE(test::outputIn(result).output,
                 u"The arguments provided to the tool are invalid: Model tried to call unavailable tool 'browse'. "
                 "Available tools: probe, read."_s);
        QCOMPARE(fixture.probe->runs, 0);
    }

    void aToolTheModelWasNotOfferedIsUnknown()
    {
        const auto registry = registryOf({u"edit"_s, u"apply_patch"_s});
        ToolContext context = test::toolContext(QDir::tempPath(), nullptr, nullptr);
        context.model = ModelRef{u"openai"_s, u"gpt-5"_s};
        const ToolResult edit = test::runCall(*registry, ToolCall{u"edit"_s, u"c"_s, {{"text"_L1, "x"_L1}}}, context);
        QVERIFY(outputOf(edit));
        QCOMPARE(test::outputIn(edit).title, u"Invalid Tool"_s);
        QVERIFY(test::outputIn(edit).output.endsWith("Available tools: apply_patch."_L1));
        const ToolResult patch =
            test::runCall(*registry, ToolCall{u"apply_patch"_s, u"c"_s, {{"text"_L1, "x"_L1}}}, context);
        QCOMPARE(test::outputIn(patch).output, u"done"_s);
    }

    void badArgumentsAreRefusedNamingTheField_data()
    {
        QTest::addColumn<QJsonObject>("input");
        QTest::addColumn<QString>("problem");
        QTest::newRow("missing") << QJsonObject{{"count"_L1, 1}} << u"text: required, but missing"_s;
        QTest::newRow("null required") << QJsonObject{{"text"_L1, QJsonValue::Null}} << u"text: required, but missing"_s;
        QTest::newRow("wrong type") << QJsonObject{{"text"_L1, 5}} << u"text: expected string, received number"_s;
        QTest::newRow("string for integer")
            << QJsonObject{{"text"_L1, "x"_L1}, {"count"_L1, "3"_L1}} << u"count: expected integer, received string"_s;
        QTest::newRow("fraction") << QJsonObject{{"text"_L1, "x"_L1}, {"count"_L1, 1.5}}
                                  << u"count: expected an integer, received 1.5"_s;
        QTest::newRow("minimum") << QJsonObject{{"text"_L1, "x"_L1}, {"count"_L1, -2}}
                                 << u"count: must be greater than or equal to 0, received -2"_s;
        QTest::newRow("enum") << QJsonObject{{"text"_L1, "x"_L1}, {"mode"_L1, "warp"_L1}}
                              << u"mode: expected one of \"fast\", \"slow\", received \"warp\""_s;
        QTest::newRow("boolean") << QJsonObject{{"text"_L1, "x"_L1}, {"flag"_L1, "yes"_L1}}
                                 << u"flag: expected boolean, received string"_s;
        QTest::newRow("array item") << QJsonObject{{"text"_L1, "x"_L1}, {"tags"_L1, QJsonArray{"a"_L1, 2}}}
                                    << u"tags[1]: expected string, received number"_s;
        QTest::newRow("not an array") << QJsonObject{{"text"_L1, "x"_L1}, {"tags"_L1, "a"_L1}}
                                      << u"tags: expected array, received string"_s;
        QTest::newRow("nested object")
            << QJsonObject{{"text"_L1, "x"_L1}, {"todos"_L1, QJsonArray{QJsonObject{{"status"_L1, "done"_L1}}, QJsonObject{}}}}
            << u"todos[1].status: required, but missing"_s;
        QTest::newRow("nested enum")
            << QJsonObject{{"text"_L1, "x"_L1}, {"todos"_L1, QJsonArray{QJsonObject{{"status"_L1, "later"_L1}}}}}
            << u"todos[0].status: expected one of \"pending\", \"done\", received \"later\""_s;
        QTest::newRow("too long") << QJsonObject{{"text"_L1, QString(21, u'x')}}
                                  << u"text: must be at most 20 characters long, received 21"_s;
        QTest::newRow("not coercible") << QJsonObject{{"text"_L1, "x"_L1}, {"ratio"_L1, "half"_L1}}
                                       << u"ratio: expected number, received string"_s;
    }

    void badArgumentsAreRefusedNamingTheField()
    {
        QFETCH(QJsonObject, input);
        QFETCH(QString, problem);
        Fixture fixture;
        const QString message = fixture.failure(input);
        QVERIFY2(message.startsWith("The probe tool was called with invalid arguments: "_L1), qPrintable(message));
        QVERIFY2(message.contains(problem), qPrintable(message));
        QVERIFY(message.endsWith(".\nPlease rewrite the input so it satisfies the expected schema."_L1));
        QCOMPARE(fixture.probe->runs, 0);
    }

    void everyBadFieldIsNamed()
    {
        Fixture fixture;
        const QString message = fixture.failure({{"count"_L1, -1}, {"flag"_L1, 1}});
        QVERIFY(message.contains("text: required, but missing"_L1));
        QVERIFY(message.contains("count: must be greater than or equal to 0"_L1));
        QVERIFY(message.contains("flag: expected boolean, received number"_L1));
    }

    void numericStringsAreCoercedWhereTheSchemaSaysSo()
    {
        Fixture fixture;
        const ToolResult result = fixture.call(u"probe"_s, {{"text"_L1, "x"_L1}, {"ratio"_L1, " 2.5 "_L1}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(fixture.probe->received.value("ratio"_L1), QJsonValue(2.5));
    }

    void unknownFieldsAreDroppedAndNullOptionalsCountAsAbsent()
    {
        Fixture fixture;
        const ToolResult result =
            fixture.call(u"probe"_s, {{"text"_L1, "x"_L1}, {"count"_L1, QJsonValue::Null}, {"extra"_L1, 1}});
        QVERIFY2(outputOf(result), qPrintable(test::describe(result)));
        QCOMPARE(fixture.probe->received, QJsonObject({{"text"_L1, "x"_L1}}));
    }

    void theValidatorChecksTopLevelTypesToo()
    {
        const auto result = ToolArguments::validate(QJsonObject{}, QJsonObject{{"type"_L1, "object"_L1}});
        QVERIFY(result.ok());
        const auto integer = ToolArguments::validate(
            QJsonObject{{"n"_L1, 2}},
            QJsonObject{{"type"_L1, "object"_L1},
                        {"properties"_L1, QJsonObject{{"n"_L1, QJsonObject{{"type"_L1, QJsonArray{"integer"_L1, "null"_L1}}}}}}});
        QVERIFY2(integer.ok(), qPrintable(integer.errorMessage()));
    }

    void aFailureReachesTheModelUntouched()
    {
        ToolRegistry registry(ToolServices{}, nullptr);
        registry.add(std::make_unique<FailingTool>(u"broken"_s));
        const ToolResult result = test::runCall(registry, ToolCall{u"broken"_s, u"c"_s, {{"text"_L1, "x"_L1}}},
                                                test::toolContext(QDir::tempPath(), nullptr, nullptr));
        QVERIFY(failureOf(result));
        QCOMPARE(test::failureIn(result).message, u"it broke"_s);
    }

    void longOutputIsCutAndSavedWithAHintForTheAgent()
    {
        QStringList lines;
        for (int i = 0; i < 2500; ++i)
            lines.append(u"row %1"_s.arg(i));
        Fixture fixture(lines.join(u'\n'));

        const ToolResult delegating = fixture.call(u"probe"_s, {{"text"_L1, "x"_L1}}, u"build"_s);
        const ToolOutput *output = outputOf(delegating);
        QVERIFY(output);
        QCOMPARE(output->metadata.value("truncated"_L1), QJsonValue(true));
        const QString path = output->metadata.value("outputPath"_L1).toString();
        QVERIFY(path.startsWith(QDir(fixture.data.root()).filePath(u"tool-output/tool_"_s)));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(saved.readAll()), lines.join(u'\n'));
        QVERIFY(output->output.contains("row 1999\n\n...500 lines truncated..."_L1));
        QVERIFY(!output->output.contains("row 2000"_L1));
        QVERIFY(output->output.contains("Task tool"_L1));

        // An agent whose rules deny `task` is told to grep and read instead.
        const ToolResult alone = fixture.call(u"probe"_s, {{"text"_L1, "x"_L1}}, u"plan"_s);
        QVERIFY(!test::outputIn(alone).output.contains("Task tool"_L1));
        QVERIFY(test::outputIn(alone).output.contains("Use Grep to search the full content"_L1));
    }

    void aToolThatReportsTruncationItselfIsNotCutAgain()
    {
        QStringList lines;
        for (int i = 0; i < 2500; ++i)
            lines.append(u"row %1"_s.arg(i));
        Fixture fixture(lines.join(u'\n'));
        fixture.probe->metadata = QJsonObject{{"truncated"_L1, false}};
        const ToolResult result = fixture.call(u"probe"_s, {{"text"_L1, "x"_L1}});
        QCOMPARE(test::outputIn(result).output, lines.join(u'\n'));
        QVERIFY(!test::outputIn(result).metadata.contains("outputPath"_L1));
        QVERIFY(!QFileInfo::exists(QDir(fixture.data.root()).filePath(u"tool-output"_s)));
    }

    void theBuiltinRegistryFollowsOpenCodesOrder()
    {
        test::TempTree data;
        ToolServices services;
        services.dataDirectory = data.root();
        const auto registry = makeBuiltinToolRegistry(services, [](const QString &) { return true; });
        const QStringList order{u"question"_s, u"bash"_s,     u"read"_s,      u"glob"_s,  u"grep"_s,
                                u"edit"_s,     u"write"_s,    u"task"_s,      u"webfetch"_s, u"todowrite"_s,
                                u"websearch"_s, u"codesearch"_s, u"skill"_s, u"apply_patch"_s};
        const QStringList held = registry->names();
        QCOMPARE(held, QStringList({u"question"_s, u"bash"_s, u"read"_s, u"glob"_s, u"grep"_s, u"edit"_s, u"write"_s,
                                    u"task"_s, u"webfetch"_s, u"todowrite"_s, u"apply_patch"_s}));
        QVERIFY2(!held.contains(u"list"_s), "OpenCode 1.2 does not register list");
        QVERIFY2(!held.contains(u"todoread"_s), "OpenCode 1.2 does not register todoread");
        // A GPT model sees apply_patch instead of edit and write.
        QCOMPARE(names(registry->definitions(ToolScope{u"openai"_s, u"gpt-5"_s, u"build"_s, {}})),
                 QStringList({u"question"_s, u"bash"_s, u"read"_s, u"glob"_s, u"grep"_s, u"task"_s, u"webfetch"_s,
                              u"todowrite"_s, u"apply_patch"_s}));
        qsizetype last = -1;
        for (const QString &name : held) {
            const qsizetype position = order.indexOf(name);
            QVERIFY2(position > last, qPrintable(u"%1 out of OpenCode's order in %2"_s.arg(name, held.join(u", "_s))));
            last = position;
        }
    }
};

QTEST_GUILESS_MAIN(ToolRegistryTest)
#include "tst_tool_registry.moc"
