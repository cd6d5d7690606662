#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>

#include "engine/agent/EnvironmentInfo.h"
#include "engine/agent/ProjectListing.h"
#include "engine/agent/PromptLibrary.h"
#include "engine/agent/SystemPrompt.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

EnvironmentInfo environment()
{
    EnvironmentInfo info;
    info.workingDirectory = u"/work/project/app"_s;
    info.worktree = u"/work/project"_s;
    info.isGitRepo = true;
    info.platform = u"linux"_s;
    info.today = QDate(2026, 3, 3);
    return info;
}

SystemPrompt::Input input(const QString &apiModelID = u"claude-sonnet-4-5"_s)
{
    SystemPrompt::Input in;
    in.providerID = u"anthropic"_s;
    in.apiModelID = apiModelID;
    in.environment = environment();
    return in;
}

} // namespace

Q_DECLARE_METATYPE(qcode::PromptText)

// Reference §6.1: the base prompt by model family, the environment block,
// and the order of the parts.
class TestSystemPrompt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theBasePromptFollowsTheModelFamily_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<PromptText>("family");
        QTest::newRow("gpt-5") << u"gpt-5"_s << PromptText::Codex;
        QTest::newRow("gpt-5-codex") << u"gpt-5.1-codex"_s << PromptText::Codex;
        QTest::newRow("gpt-4.1") << u"gpt-4.1"_s << PromptText::Beast;
        QTest::newRow("gpt-4o") << u"gpt-4o-mini"_s << PromptText::Beast;
        QTest::newRow("o1") << u"o1-preview"_s << PromptText::Beast;
        QTest::newRow("o3") << u"o3-mini"_s << PromptText::Beast;
        QTest::newRow("gemini") << u"gemini-2.5-pro"_s << PromptText::Gemini;
        QTest::newRow("claude") << u"claude-sonnet-4-5"_s << PromptText::Anthropic;
        QTest::newRow("claude via openrouter") << u"anthropic/claude-opus-4"_s << PromptText::Anthropic;
        QTest::newRow("trinity any case") << u"arcee-ai/Trinity-Mini"_s << PromptText::Trinity;
        QTest::newRow("qwen") << u"qwen3-coder:30b"_s << PromptText::Default;
        QTest::newRow("deepseek") << u"deepseek-chat"_s << PromptText::Default;
        QTest::newRow("llama") << u"llama3.1:8b"_s << PromptText::Default;
        // Checked in OpenCode's order, case-sensitively except "trinity".
        QTest::newRow("gpt-5 before gpt-") << u"openai/gpt-5-mini"_s << PromptText::Codex;
        QTest::newRow("Claude capitalised") << u"Claude-3"_s << PromptText::Default;
        QTest::newRow("o3 inside a name") << u"mistral-o3x"_s << PromptText::Beast;
    }

    void theBasePromptFollowsTheModelFamily()
    {
        QFETCH(QString, model);
        QFETCH(PromptText, family);
        QCOMPARE(SystemPrompt::familyFor(model), family);
        QCOMPARE(SystemPrompt::providerPrompt(model), PromptLibrary::text(family));
    }

    void everyPromptIsInTheBuild()
    {
        for (PromptText prompt : {PromptText::Anthropic, PromptText::Beast, PromptText::Codex, PromptText::Gemini,
                                  PromptText::Trinity, PromptText::Default, PromptText::Explore, PromptText::Compaction,
                                  PromptText::Title, PromptText::Summary, PromptText::PlanReminder,
                                  PromptText::BuildSwitch, PromptText::MaxSteps, PromptText::CompactionRequest}) {
            const QString text = PromptLibrary::text(prompt);
            QVERIFY2(text.size() > 100, qPrintable(PromptLibrary::resourcePath(prompt)));
            QVERIFY(!text.endsWith(QLatin1Char('\n')));
        }
        // Each family has its own text.
        QSet<QString> bases;
        for (PromptText prompt : {PromptText::Anthropic, PromptText::Beast, PromptText::Codex, PromptText::Gemini,
                                  PromptText::Trinity, PromptText::Default})
            bases.insert(PromptLibrary::text(prompt));
        QCOMPARE(bases.size(), 6);
    }

    void theRemindersAreSystemReminders()
    {
        for (PromptText prompt : {PromptText::PlanReminder, PromptText::BuildSwitch}) {
            const QString text = PromptLibrary::text(prompt);
            QVERIFY(text.startsWith(u"<system-reminder>"_s));
            QVERIFY(text.endsWith(u"</system-reminder>"_s));
        }
    }

    void theEnvironmentBlockDescribesModelFoldersAndDate()
    {
        QCOMPARE(SystemPrompt::environment(u"anthropic"_s, u"claude-sonnet-4-5"_s, environment()),
                 u"You are powered by the model named claude-sonnet-4-5. The exact model ID is anthropic/claude-sonnet-4-5\n"
                 u"Here is some useful information about the environment you are running in:\n"
                 u"<env>\n"
                 u"  Working directory: /work/project/app\n"
                 u"  Workspace root folder: /work/project\n"
                 u"  Is directory a git repo: yes\n"
                 u"  Platform: linux\n"
                 u"  Today's date: Tue Mar 03 2026\n"
                 u"</env>\n"
                 u"<directories>\n"
                 u"</directories>"_s);
        EnvironmentInfo other = environment();
        other.isGitRepo = false;
        other.directoryListing = u"src/\n  main.cpp"_s;
        const QString block = SystemPrompt::environment(u"ollama"_s, u"qwen3"_s, other);
        QVERIFY(block.contains(u"Is directory a git repo: no"_s));
        QVERIFY(block.endsWith(u"<directories>\nsrc/\n  main.cpp\n</directories>"_s));
    }

    void datesAreWrittenAsJavaScriptDoes()
    {
        QCOMPARE(EnvironmentInfo::dateString(QDate(2026, 12, 25)), u"Fri Dec 25 2026"_s);
        QCOMPARE(EnvironmentInfo::dateString(QDate(2025, 1, 5)), u"Sun Jan 05 2025"_s);
    }

    void thePartsComeInOpenCodesOrder()
    {
        SystemPrompt::Input in = input();
        in.instructions = {u"Instructions from: /g/AGENTS.md\nglobal"_s, u"Instructions from: /p/AGENTS.md\nproject"_s};
        in.extra = {u"IMPORTANT: structured output"_s};
        in.userSystem = u"Answer in French."_s;
        const QStringList blocks = SystemPrompt::blocks(in);
        QCOMPARE(blocks.size(), 6);
        QCOMPARE(blocks.at(0), PromptLibrary::text(PromptText::Anthropic));
        QVERIFY(blocks.at(1).startsWith(u"You are powered by the model named claude-sonnet-4-5."_s));
        QCOMPARE(blocks.mid(2, 2), in.instructions);
        QCOMPARE(blocks.at(4), u"IMPORTANT: structured output"_s);
        QCOMPARE(blocks.at(5), u"Answer in French."_s);
    }

    void theAgentsPromptReplacesTheBasePrompt()
    {
        SystemPrompt::Input in = input(u"gpt-5"_s);
        in.agentPrompt = u"You only review code."_s;
        const QStringList blocks = SystemPrompt::blocks(in);
        QCOMPARE(blocks.first(), u"You only review code."_s);
        QVERIFY(!blocks.contains(PromptLibrary::text(PromptText::Codex)));
        // An empty prompt (a Markdown agent with no body) means none.
        in.agentPrompt = QString();
        QCOMPARE(SystemPrompt::blocks(in).first(), PromptLibrary::text(PromptText::Codex));
    }

    void emptyPartsAreDropped()
    {
        SystemPrompt::Input in = input();
        in.instructions = {QString(), u"rules"_s};
        in.userSystem = QString();
        QCOMPARE(SystemPrompt::blocks(in).size(), 3);
    }

    void theRequestGetsOneSystemTextJoinedByNewlines()
    {
        SystemPrompt::Input in = input();
        in.instructions = {u"Instructions from: /p/AGENTS.md\nproject"_s};
        const QStringList system = SystemPrompt::build(in);
        QCOMPARE(system.size(), 1);
        QCOMPARE(system.first(), SystemPrompt::blocks(in).join(u"\n"_s));
        QVERIFY(system.first().endsWith(u"</directories>\nInstructions from: /p/AGENTS.md\nproject"_s));
    }

    void environmentIsReadFromTheMachine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString project = QDir(dir.path()).filePath(u"a/b"_s);
        QVERIFY(QDir().mkpath(project));
        EnvironmentInfo info = EnvironmentInfo::forDirectory(project, dir.path());
        QCOMPARE(info.workingDirectory, QDir::cleanPath(project));
        QCOMPARE(info.worktree, QDir::cleanPath(dir.path()));
        QCOMPARE(info.today, QDate::currentDate());
        QVERIFY(!info.platform.isEmpty());
        if (!EnvironmentInfo::isInsideGitRepository(dir.path())) {
            QVERIFY(!info.isGitRepo);
            QVERIFY(QDir().mkpath(QDir(dir.path()).filePath(u".git"_s)));
            QVERIFY(EnvironmentInfo::forDirectory(project, dir.path()).isGitRepo);
        }
#if defined(Q_OS_LINUX)
        QCOMPARE(info.platform, u"linux"_s);
#endif
    }

    void theProjectListingIsShortShallowFirstAndSkipsNoise()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto touch = [&](const QString &relative) {
            const QString file = QDir(dir.path()).filePath(relative);
            QVERIFY(QDir().mkpath(QFileInfo(file).absolutePath()));
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
        };
        touch(u"README.md"_s);
        touch(u"src/main.cpp"_s);
        touch(u"src/deep/er/x.cpp"_s);
        touch(u".git/HEAD"_s);
        touch(u"node_modules/pkg/index.js"_s);
        QCOMPARE(ProjectListing::tree(dir.path()), u"README.md\nsrc/\n  deep/\n    er/\n      x.cpp\n  main.cpp"_s);
        QCOMPARE(ProjectListing::tree(dir.path(), 3), u"README.md\nsrc/\n  deep/"_s);
    }
};

QTEST_GUILESS_MAIN(TestSystemPrompt)
#include "tst_system_prompt.moc"
