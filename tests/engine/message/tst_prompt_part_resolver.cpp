#include <QTest>
#include <QUrl>

#include "ProjectFiles.h"
#include "engine/message/PromptPartResolver.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

const QSet<QString> Agents{u"explore"_s, u"general"_s};

const FilePart *fileAt(const QList<PromptPart> &parts, qsizetype i)
{
    return i < parts.size() ? std::get_if<FilePart>(&parts[i].body) : nullptr;
}

} // namespace

class PromptPartResolverTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keepsTheTemplateAsTheFirstTextPart()
    {
        ProjectFiles project;
        const auto parts = PromptPartResolver::resolve(u"no mentions here"_s, project.root(), Agents, project.outside());
        QCOMPARE(parts.size(), 1);
        QCOMPARE(std::get<TextPart>(parts[0].body).text, u"no mentions here"_s);
    }

    void turnsMentionedFilesAndFoldersIntoFileParts()
    {
        ProjectFiles project;
        const QString file = project.write(u"src/main.cpp"_s, "int main() {}");
        const QString dir = project.mkdir(u"docs"_s);
        const auto parts =
            PromptPartResolver::resolve(u"Read @src/main.cpp and @docs, then stop."_s, project.root(), Agents, {});
        QCOMPARE(parts.size(), 3);
        QCOMPARE(fileAt(parts, 1)->mime, u"text/plain"_s);
        QCOMPARE(fileAt(parts, 1)->filename, std::optional(u"src/main.cpp"_s));
        QCOMPARE(QUrl(fileAt(parts, 1)->url).toLocalFile(), file);
        QCOMPARE(fileAt(parts, 2)->mime, u"application/x-directory"_s);
        QCOMPARE(QUrl(fileAt(parts, 2)->url).toLocalFile(), dir);
    }

    void leavesOutATrailingDotAndComma()
    {
        ProjectFiles project;
        project.write(u"a.ts"_s, "");
        project.write(u"b.ts"_s, "");
        const auto parts = PromptPartResolver::resolve(u"See @a.ts, and @b.ts."_s, project.root(), Agents, {});
        QCOMPARE(parts.size(), 3);
        QCOMPARE(fileAt(parts, 1)->filename, std::optional(u"a.ts"_s));
        QCOMPARE(fileAt(parts, 2)->filename, std::optional(u"b.ts"_s));
    }

    void turnsAnAgentNameThatIsNoFileIntoAnAgentPart()
    {
        ProjectFiles project;
        const auto parts =
            PromptPartResolver::resolve(u"Ask @explore about @nobody"_s, project.root(), Agents, {});
        QCOMPARE(parts.size(), 2);
        QCOMPARE(std::get<AgentPart>(parts[1].body).name, u"explore"_s);
    }

    void prefersAFileOverAnAgentOfTheSameName()
    {
        ProjectFiles project;
        project.write(u"general"_s, "a file named like an agent");
        const auto parts = PromptPartResolver::resolve(u"@general"_s, project.root(), Agents, {});
        QCOMPARE(parts.size(), 2);
        QCOMPARE(fileAt(parts, 1)->mime, u"text/plain"_s);
    }

    void ignoresAtSignsAfterAWordCharacterOrABacktick()
    {
        ProjectFiles project;
        project.write(u"x.com"_s, "");
        project.write(u"code"_s, "");
        const auto parts =
            PromptPartResolver::resolve(u"mail me@x.com or see `@code` or @ alone"_s, project.root(), Agents, {});
        QCOMPARE(parts.size(), 1);
    }

    void mentionsTheSameFileOnce()
    {
        ProjectFiles project;
        project.write(u"a.txt"_s, "");
        const auto parts = PromptPartResolver::resolve(u"@a.txt and again @a.txt"_s, project.root(), Agents, {});
        QCOMPARE(parts.size(), 2);
    }

    void readsATildePathFromTheHomeFolder()
    {
        ProjectFiles project;
        const QString notes = project.write(project.outside() + u"/notes.md"_s, "home notes");
        const auto parts = PromptPartResolver::resolve(u"@~/notes.md"_s, project.root(), Agents, project.outside());
        QCOMPARE(parts.size(), 2);
        QCOMPARE(QUrl(fileAt(parts, 1)->url).toLocalFile(), notes);
        QCOMPARE(fileAt(parts, 1)->filename, std::optional(u"~/notes.md"_s));
    }
};

QTEST_GUILESS_MAIN(PromptPartResolverTest)
#include "tst_prompt_part_resolver.moc"
