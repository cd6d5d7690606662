// Where a project's slash commands come from and which definition wins.

#include <QDir>
#include <QJsonObject>
#include <QTest>

#include "TempTree.h"
#include "engine/command/CommandRegistry.h"
#include "engine/config/Config.h"
#include "engine/config/ConfigLocations.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class CommandRegistryTest : public QObject
{
    Q_OBJECT

private:
    test::TempTree m_tree;

    QString global() const { return m_tree.path(u"home/.config/opencode"_s); }
    QString project() const { return m_tree.path(u"project/.opencode"_s); }

    ConfigLocations locations() const
    {
        ConfigLocations locations;
        locations.homeDirectory = m_tree.path(u"home"_s);
        locations.globalDirectories = {global()};
        locations.projectDirectory = m_tree.path(u"project"_s);
        locations.worktreeRoot = m_tree.path(u"project"_s);
        return locations;
    }

private Q_SLOTS:
    void init() { QVERIFY(m_tree.reset()); }

    void configCommandsCarryTheirSettings()
    {
        const QJsonObject commands{
            {u"test"_s, QJsonObject{{u"template"_s, u"Run the tests for $1"_s},
                                    {u"description"_s, u"Runs tests"_s},
                                    {u"agent"_s, u"build"_s},
                                    {u"model"_s, u"anthropic/claude-sonnet-4"_s},
                                    {u"subtask"_s, true}}},
        };
        const CommandRegistry registry = CommandRegistry::build(commands, {});
        QVERIFY2(registry.problems().isEmpty(), qPrintable(registry.problems().join(u'\n')));
        const CommandDefinition *test = registry.find(u"test"_s);
        QVERIFY(test);
        QCOMPARE(test->templateText, u"Run the tests for $1"_s);
        QCOMPARE(test->description, u"Runs tests"_s);
        QCOMPARE(test->agent, u"build"_s);
        QCOMPARE(test->model, (ModelRef{u"anthropic"_s, u"claude-sonnet-4"_s}));
        QCOMPARE(test->subtask, true);
    }

    void markdownCommandsAreNamedByTheirPathAndTrimmed()
    {
        QVERIFY(m_tree.write(u"project/.opencode/command/review.md"_s,
                             "---\ndescription: Reviews a change\nagent: plan\nsubtask: false\n---\n\n  Review $ARGUMENTS.\n\n"));
        QVERIFY(m_tree.write(u"project/.opencode/commands/team/deploy.md"_s, "Deploy it."));
        QVERIFY(m_tree.write(u"project/.opencode/command/other.md"_s, "---\nname: renamed\n---\nBody"));
        const CommandRegistry registry = CommandRegistry::load(Config(), locations());
        QVERIFY2(registry.problems().isEmpty(), qPrintable(registry.problems().join(u'\n')));
        QCOMPARE(registry.names(), (QStringList{u"renamed"_s, u"review"_s, u"team/deploy"_s}));
        const CommandDefinition *review = registry.find(u"review"_s);
        QCOMPARE(review->templateText, u"Review $ARGUMENTS."_s);
        QCOMPARE(review->description, u"Reviews a change"_s);
        QCOMPARE(review->agent, u"plan"_s);
        QCOMPARE(review->subtask, false);
        QCOMPARE(review->source, m_tree.path(u"project/.opencode/command/review.md"_s));
        QCOMPARE(registry.find(u"team/deploy"_s)->templateText, u"Deploy it."_s);
        QVERIFY(!registry.find(u"team/deploy"_s)->description);
    }

    void laterSourcesOverrideEarlierOnesFieldByField()
    {
        const QJsonObject config{{u"review"_s, QJsonObject{{u"template"_s, u"from config"_s},
                                                          {u"description"_s, u"config description"_s},
                                                          {u"agent"_s, u"plan"_s}}}};
        // Global first, then the project: the project's file wins, and what
        // it leaves out keeps the earlier value.
        QVERIFY(m_tree.write(u"home/.config/opencode/command/review.md"_s,
                             "---\ndescription: global description\nmodel: a/b\n---\nfrom global"));
        QVERIFY(m_tree.write(u"project/.opencode/command/review.md"_s, "---\nsubtask: true\n---\nfrom project"));
        QVERIFY(m_tree.write(u"home/.config/opencode/command/only-global.md"_s, "global only"));
        const CommandRegistry registry = CommandRegistry::build(config, {global(), project()});
        QVERIFY2(registry.problems().isEmpty(), qPrintable(registry.problems().join(u'\n')));
        const CommandDefinition *review = registry.find(u"review"_s);
        QVERIFY(review);
        QCOMPARE(review->templateText, u"from project"_s);
        QCOMPARE(review->description, u"global description"_s);
        QCOMPARE(review->agent, u"plan"_s);
        QCOMPARE(review->model, (ModelRef{u"a"_s, u"b"_s}));
        QCOMPARE(review->subtask, true);
        QCOMPARE(registry.find(u"only-global"_s)->templateText, u"global only"_s);
    }

    void configFoldersAreWalkedFromTheWorktreeToTheProject()
    {
        QVERIFY(m_tree.write(u"repo/.git/HEAD"_s, "ref: refs/heads/main\n"));
        QVERIFY(m_tree.write(u"repo/.opencode/command/where.md"_s, "the root"));
        QVERIFY(m_tree.write(u"repo/app/.opencode/command/where.md"_s, "the app folder"));
        ConfigLocations nested = locations();
        nested.projectDirectory = m_tree.path(u"repo/app"_s);
        nested.worktreeRoot = m_tree.path(u"repo"_s);
        const CommandRegistry registry = CommandRegistry::load(Config(), nested);
        QCOMPARE(registry.find(u"where"_s)->templateText, u"the app folder"_s);
    }

    void badEntriesAreReportedAndTheRestLoads()
    {
        const QJsonObject config{
            {u"no-template"_s, QJsonObject{{u"description"_s, u"x"_s}}},
            {u"not-a-map"_s, u"Run it"_s},
            {u"bad-model"_s, QJsonObject{{u"template"_s, u"t"_s}, {u"model"_s, u"no-slash"_s}}},
            {u"good"_s, QJsonObject{{u"template"_s, u"fine"_s}}},
        };
        QVERIFY(m_tree.write(u"project/.opencode/command/broken.md"_s, "---\ndescription: [unclosed\n---\nBody"));
        QVERIFY(m_tree.write(u"project/.opencode/command/typed.md"_s, "---\nsubtask: sometimes\n---\nBody"));
        QVERIFY(m_tree.write(u"project/.opencode/command/fine.md"_s, "---\ndescription: ok\n---\nBody"));
        const CommandRegistry registry = CommandRegistry::build(config, {project()});
        QCOMPARE(registry.names(), (QStringList{u"fine"_s, u"good"_s}));
        const QString problems = registry.problems().join(u'\n');
        QCOMPARE(registry.problems().size(), 5);
        QVERIFY2(problems.contains(u"command.no-template has no \"template\""_s), qPrintable(problems));
        QVERIFY2(problems.contains(u"command.not-a-map must be a map"_s), qPrintable(problems));
        QVERIFY2(problems.contains(u"\"bad-model\" is skipped: \"model\" must be of the form provider/model"_s),
                 qPrintable(problems));
        QVERIFY2(problems.contains(u"broken.md"_s), qPrintable(problems));
        QVERIFY2(problems.contains(u"typed.md: the command \"typed\" is skipped: \"subtask\" must be true or false"_s),
                 qPrintable(problems));
    }

    void aBadOverrideKeepsTheEarlierDefinition()
    {
        const QJsonObject config{{u"review"_s, QJsonObject{{u"template"_s, u"from config"_s}}}};
        QVERIFY(m_tree.write(u"project/.opencode/command/review.md"_s, "---\nagent: 3\n---\nfrom file"));
        const CommandRegistry registry = CommandRegistry::build(config, {project()});
        QCOMPARE(registry.find(u"review"_s)->templateText, u"from config"_s);
        QCOMPARE(registry.problems().size(), 1);
    }

    void aCommandMapOfTheWrongTypeIsReported()
    {
        const CommandRegistry registry = CommandRegistry::build(QJsonValue(u"review"_s), {});
        QVERIFY(registry.list().isEmpty());
        QCOMPARE(registry.problems().size(), 1);
        QVERIFY(registry.problems().first().contains(u"\"command\" must be a map"_s));
    }
};

QTEST_GUILESS_MAIN(CommandRegistryTest)
#include "tst_command_registry.moc"
