#include <QJsonObject>
#include <QTest>

#include "engine/agent/ConfigSourceMap.h"
#include "engine/agent/PermissionRules.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

constexpr auto Allow = PermissionAction::Allow;
constexpr auto Deny = PermissionAction::Deny;
constexpr auto Ask = PermissionAction::Ask;

PermissionRule rule(const QString &permission, const QString &pattern, PermissionAction action)
{
    return {permission, pattern, action};
}

// A source map that knows the order the keys of `permission` (and of each
// of its pattern maps) were written in, as a parsed file would record it.
ConfigSourceMap writtenOrder(const QList<std::pair<QString, QStringList>> &keys)
{
    ConfigSourceMap map(u"test"_s);
    for (const auto &[permission, patterns] : keys) {
        map.recordKey({}, permission, {});
        for (const QString &pattern : patterns)
            map.recordKey({permission}, pattern, {});
    }
    return map;
}

PermissionAction evaluate(const QString &permission, const QString &pattern, const PermissionRuleset &rules)
{
    return PermissionRules::evaluate(permission, pattern, rules).action;
}

} // namespace

Q_DECLARE_METATYPE(qcode::PermissionRuleset)

// The ruleset part of OpenCode's test/permission/next.test.ts (reference
// §12.2); its wildcard tests are tests/engine/glob/tst_wildcard.cpp.
class TestPermissionRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aPermissionWithAnActionIsOneStarRule()
    {
        QCOMPARE(PermissionRules::fromConfig(QJsonObject{{u"bash"_s, u"allow"_s}}, {}),
                 PermissionRuleset({rule(u"bash"_s, u"*"_s, Allow)}));
        QCOMPARE(PermissionRules::fromConfig(QJsonObject{}, {}), PermissionRuleset());
        QCOMPARE(PermissionRules::fromConfig(QJsonValue(), {}), PermissionRuleset());
    }

    void aBareActionAppliesToEverything()
    {
        QCOMPARE(PermissionRules::fromConfig(u"deny"_s, {}), PermissionRuleset({rule(u"*"_s, u"*"_s, Deny)}));
    }

    void patternMapsGiveOneRulePerPatternInWrittenOrder()
    {
        const QJsonObject config{{u"bash"_s, QJsonObject{{u"*"_s, u"allow"_s}, {u"rm"_s, u"deny"_s}}}};
        QCOMPARE(PermissionRules::fromConfig(config, {}, writtenOrder({{u"bash"_s, {u"rm"_s, u"*"_s}}})),
                 PermissionRuleset({rule(u"bash"_s, u"rm"_s, Deny), rule(u"bash"_s, u"*"_s, Allow)}));
        // Without a source map the keys come sorted, as QJsonObject holds them.
        QCOMPARE(PermissionRules::fromConfig(config, {}),
                 PermissionRuleset({rule(u"bash"_s, u"*"_s, Allow), rule(u"bash"_s, u"rm"_s, Deny)}));
    }

    void mixedKeysKeepTheirWrittenOrder()
    {
        const QJsonObject config{{u"*"_s, u"ask"_s}, {u"bash"_s, u"allow"_s}, {u"edit"_s, u"deny"_s}};
        const PermissionRuleset rules =
            PermissionRules::fromConfig(config, {}, writtenOrder({{u"edit"_s, {}}, {u"*"_s, {}}, {u"bash"_s, {}}}));
        QCOMPARE(rules, PermissionRuleset({rule(u"edit"_s, u"*"_s, Deny), rule(u"*"_s, u"*"_s, Ask),
                                           rule(u"bash"_s, u"*"_s, Allow)}));
    }

    void orderDecidesWhichRuleWins()
    {
        const QJsonObject starFirst{{u"*"_s, u"deny"_s}, {u"bash"_s, u"allow"_s}};
        const PermissionRuleset a = PermissionRules::fromConfig(starFirst, {}, writtenOrder({{u"*"_s, {}}, {u"bash"_s, {}}}));
        QCOMPARE(evaluate(u"bash"_s, u"ls"_s, a), Allow);
        const PermissionRuleset b = PermissionRules::fromConfig(starFirst, {}, writtenOrder({{u"bash"_s, {}}, {u"*"_s, {}}}));
        QCOMPARE(evaluate(u"bash"_s, u"ls"_s, b), Deny);

        const QJsonObject mixed{{u"*"_s, u"ask"_s}, {u"bash"_s, u"allow"_s}, {u"edit"_s, u"deny"_s}};
        const PermissionRuleset c =
            PermissionRules::fromConfig(mixed, {}, writtenOrder({{u"*"_s, {}}, {u"bash"_s, {}}, {u"edit"_s, {}}}));
        QCOMPARE(evaluate(u"bash"_s, u"ls"_s, c), Allow);
        QCOMPARE(evaluate(u"edit"_s, u"a.txt"_s, c), Deny);
        QCOMPARE(evaluate(u"read"_s, u"a.txt"_s, c), Ask);

        const QJsonObject bash{{u"bash"_s, QJsonObject{{u"*"_s, u"deny"_s}, {u"git *"_s, u"allow"_s}}}};
        const PermissionRuleset d =
            PermissionRules::fromConfig(bash, {}, writtenOrder({{u"bash"_s, {u"*"_s, u"git *"_s}}}));
        QCOMPARE(evaluate(u"bash"_s, u"rm foo"_s, d), Deny);
        QCOMPARE(evaluate(u"bash"_s, u"git status"_s, d), Allow);
    }

    void homeIsExpandedAtThePatternStart()
    {
        const QString home = u"/home/ada"_s;
        QCOMPARE(PermissionRules::expandHome(u"~/projects/*"_s, home), u"/home/ada/projects/*"_s);
        QCOMPARE(PermissionRules::expandHome(u"$HOME/projects/*"_s, home), u"/home/ada/projects/*"_s);
        QCOMPARE(PermissionRules::expandHome(u"~"_s, home), home);
        QCOMPARE(PermissionRules::expandHome(u"$HOME"_s, home), home);
        QCOMPARE(PermissionRules::expandHome(u"/some/~/path"_s, home), u"/some/~/path"_s);
        const PermissionRuleset rules = PermissionRules::fromConfig(
            QJsonObject{{u"external_directory"_s, QJsonObject{{u"~/projects/*"_s, u"allow"_s}}}}, home);
        QCOMPARE(evaluate(u"external_directory"_s, u"/home/ada/projects/file.txt"_s, rules), Allow);
    }

    void aValueThatIsNotAnActionAsksAndIsReported()
    {
        QStringList problems;
        const PermissionRuleset rules = PermissionRules::fromConfig(
            QJsonObject{{u"bash"_s, u"never"_s}, {u"edit"_s, QJsonObject{{u"*.md"_s, 3}}}}, {},
            ConfigSourceMap(u"opencode.json"_s), {u"permission"_s}, &problems);
        QCOMPARE(rules, PermissionRuleset({rule(u"bash"_s, u"*"_s, Ask), rule(u"edit"_s, u"*.md"_s, Ask)}));
        QCOMPARE(problems.size(), 2);
        QVERIFY2(problems.at(0).startsWith(u"opencode.json: \"permission.bash\" is \"never\""_s), qPrintable(problems.at(0)));
        QVERIFY2(problems.at(1).contains(u"\"permission.edit.*.md\" is 3"_s), qPrintable(problems.at(1)));
    }

    // --- merge and evaluate ------------------------------------------------

    void mergeConcatenatesKeepingDuplicates()
    {
        const PermissionRuleset a{rule(u"bash"_s, u"*"_s, Allow)};
        const PermissionRuleset b{rule(u"bash"_s, u"*"_s, Allow), rule(u"edit"_s, u"*"_s, Deny)};
        QCOMPARE(PermissionRules::merge({a, b}),
                 PermissionRuleset({rule(u"bash"_s, u"*"_s, Allow), rule(u"bash"_s, u"*"_s, Allow),
                                    rule(u"edit"_s, u"*"_s, Deny)}));
        const PermissionRuleset merged =
            PermissionRules::merge({{rule(u"*"_s, u"*"_s, Ask)}, {rule(u"bash"_s, u"*"_s, Allow)}});
        QCOMPARE(evaluate(u"bash"_s, u"ls"_s, merged), Allow);
        QCOMPARE(evaluate(u"edit"_s, u"a"_s, merged), Ask);
    }

    void lastMatchingRuleWins_data()
    {
        QTest::addColumn<PermissionRuleset>("rules");
        QTest::addColumn<QString>("permission");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<PermissionAction>("expected");

        QTest::newRow("exact") << PermissionRuleset{rule(u"bash"_s, u"ls"_s, Allow)} << u"bash"_s << u"ls"_s << Allow;
        QTest::newRow("wildcard pattern")
            << PermissionRuleset{rule(u"edit"_s, u"src/*"_s, Deny)} << u"edit"_s << u"src/foo.ts"_s << Deny;
        QTest::newRow("later deny wins")
            << PermissionRuleset{rule(u"bash"_s, u"*"_s, Allow), rule(u"bash"_s, u"rm"_s, Deny)} << u"bash"_s
            << u"rm"_s << Deny;
        QTest::newRow("later allow wins")
            << PermissionRuleset{rule(u"bash"_s, u"rm"_s, Deny), rule(u"bash"_s, u"*"_s, Allow)} << u"bash"_s
            << u"rm"_s << Allow;
        QTest::newRow("specific folder after general")
            << PermissionRuleset{rule(u"edit"_s, u"src/*"_s, Deny), rule(u"edit"_s, u"src/components/*"_s, Allow)}
            << u"edit"_s << u"src/components/Button.tsx"_s << Allow;
        QTest::newRow("general folder after specific")
            << PermissionRuleset{rule(u"edit"_s, u"src/components/*"_s, Allow), rule(u"edit"_s, u"src/*"_s, Deny)}
            << u"edit"_s << u"src/components/Button.tsx"_s << Deny;
        QTest::newRow("unknown permission") << PermissionRuleset{rule(u"bash"_s, u"*"_s, Allow)} << u"edit"_s
                                            << u"a"_s << Ask;
        QTest::newRow("empty ruleset") << PermissionRuleset{} << u"bash"_s << u"ls"_s << Ask;
        QTest::newRow("no pattern matches")
            << PermissionRuleset{rule(u"bash"_s, u"git *"_s, Allow)} << u"bash"_s << u"rm x"_s << Ask;
        QTest::newRow("permission wildcard")
            << PermissionRuleset{rule(u"*"_s, u"*"_s, Deny)} << u"webfetch"_s << u"https://x"_s << Deny;
        QTest::newRow("mcp wildcard")
            << PermissionRuleset{rule(u"*"_s, u"*"_s, Ask), rule(u"mcp_*"_s, u"*"_s, Allow),
                                 rule(u"mcp_dangerous"_s, u"*"_s, Deny)}
            << u"mcp_dangerous"_s << u"*"_s << Deny;
        QTest::newRow("mcp wildcard allows others")
            << PermissionRuleset{rule(u"*"_s, u"*"_s, Ask), rule(u"mcp_*"_s, u"*"_s, Allow),
                                 rule(u"mcp_dangerous"_s, u"*"_s, Deny)}
            << u"mcp_github"_s << u"*"_s << Allow;
    }

    void lastMatchingRuleWins()
    {
        QFETCH(PermissionRuleset, rules);
        QFETCH(QString, permission);
        QFETCH(QString, pattern);
        QFETCH(PermissionAction, expected);
        QCOMPARE(::evaluate(permission, pattern, rules), expected);
    }

    void noMatchAsksForThatPermission()
    {
        const PermissionRule fallback = PermissionRules::evaluate(u"edit"_s, u"a.txt"_s, {});
        QCOMPARE(fallback, rule(u"edit"_s, u"*"_s, Ask));
    }

    void rulesRoundTripThroughJson()
    {
        const PermissionRule r = rule(u"bash"_s, u"git *"_s, Deny);
        QCOMPARE(PermissionRule::fromJson(r.toJson()), r);
        QCOMPARE(r.toJson().value("action"_L1).toString(), u"deny"_s);
        QVERIFY(!PermissionRule::fromJson(QJsonObject{{u"permission"_s, u"bash"_s}, {u"action"_s, u"maybe"_s}}));
    }
};

QTEST_GUILESS_MAIN(TestPermissionRules)
#include "tst_permission_rules.moc"
