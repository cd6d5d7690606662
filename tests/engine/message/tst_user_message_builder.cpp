#include <QFileInfo>
#include <QTest>
#include <QUrl>

#include "ProjectFiles.h"
#include "TempDatabase.h"
#include "engine/message/DataUrl.h"
#include "engine/message/UserMessageBuilder.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const ModelRef Sonnet{u"anthropic"_s, u"claude-sonnet-4-5"_s};
const QString ReadCall = u"Called the Read tool with the following input: "_s;

PromptDefaults defaults()
{
    PromptDefaults d;
    d.defaultAgent = u"build"_s;
    d.defaultModel = Sonnet;
    return d;
}

PromptInput input(QList<PromptPart> parts)
{
    PromptInput in;
    in.sessionID = u"ses_test"_s;
    in.parts = std::move(parts);
    return in;
}

PromptPart file(const QString &mime, const QString &url, const QString &filename = u"file"_s)
{
    return PromptPart{std::nullopt, FilePart{mime, filename, url, std::nullopt}};
}

QString fileUrl(const QString &path)
{
    return QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded);
}

const TextPart &textOf(const Part &part)
{
    static const TextPart none;
    const TextPart *text = part.as<TextPart>();
    return text ? *text : none;
}

bool isSynthetic(const Part &part)
{
    if (const auto *text = part.as<TextPart>())
        return text->synthetic.value_or(false);
    return part.extra.value("synthetic"_L1).toBool();
}

} // namespace

class UserMessageBuilderTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void copiesTextAndSubtaskParts()
    {
        ProjectFiles project;
        SubtaskPart subtask{u"look around"_s, u"explore the code"_s, u"explore"_s, Sonnet, u"review"_s};
        const auto built = builder(project).build(
            input({PromptPart::text(u"hello"_s), PromptPart{std::nullopt, subtask}}), defaults());
        QVERIFY2(built.ok(), qPrintable(built.errorMessage()));
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 2);
        QCOMPARE(textOf(parts[0]).text, u"hello"_s);
        QVERIFY(!textOf(parts[0]).synthetic);
        QCOMPARE(parts[1].as<SubtaskPart>()->prompt, u"look around"_s);
        QCOMPARE(parts[1].as<SubtaskPart>()->model, std::optional(Sonnet));
        for (const Part &part : parts) {
            QCOMPARE(part.sessionID, u"ses_test"_s);
            QCOMPARE(part.messageID, built->message.info.id());
        }
        QVERIFY(built->errors.isEmpty());
    }

    void fillsTheMessageInfoFromTheInput()
    {
        ProjectFiles project;
        PromptInput in = input({PromptPart::text(u"hi"_s)});
        in.agent = u"plan"_s;
        in.model = ModelRef{u"openai"_s, u"gpt-5"_s};
        in.variant = u"high"_s;
        in.system = u"Be brief."_s;
        in.format = QJsonObject{{"type"_L1, "text"_L1}};
        in.tools = QJsonObject{{"bash"_L1, false}};
        PromptDefaults d = defaults();
        d.now = 1234;
        const auto built = builder(project).build(in, d);
        QVERIFY(built.ok());
        const UserMessage *info = built->message.info.user();
        QVERIFY(info);
        QVERIFY(Identifier::hasPrefix(info->id, Identifier::Prefix::Message));
        QCOMPARE(info->sessionID, u"ses_test"_s);
        QCOMPARE(info->created, 1234);
        QCOMPARE(info->agent, u"plan"_s);
        QCOMPARE(info->model, (ModelRef{u"openai"_s, u"gpt-5"_s}));
        QCOMPARE(info->variant, std::optional(u"high"_s));
        QCOMPARE(info->system, std::optional(u"Be brief."_s));
        QCOMPARE(info->format, std::optional(QJsonObject{{"type"_L1, "text"_L1}}));
        QCOMPARE(info->tools, std::optional(QJsonObject{{"bash"_L1, false}}));
    }

    void takesTheModelFromTheInputThenTheAgentThenTheLastMessageThenTheDefault()
    {
        ProjectFiles project;
        const ModelRef input1{u"p"_s, u"input"_s}, agent{u"p"_s, u"agent"_s}, last{u"p"_s, u"last"_s};
        PromptDefaults d = defaults();
        d.agentModel = agent;
        d.lastUserModel = last;
        PromptInput in = input({});
        in.model = input1;
        QCOMPARE(modelOf(project, in, d), input1);
        in.model.reset();
        QCOMPARE(modelOf(project, in, d), agent);
        d.agentModel.reset();
        QCOMPARE(modelOf(project, in, d), last);
        d.lastUserModel.reset();
        QCOMPARE(modelOf(project, in, d), Sonnet);
        QCOMPARE(builder(project).build(in, d)->message.info.user()->agent, u"build"_s);
    }

    void refusesAMessageWithNoModelOrNoAgent()
    {
        ProjectFiles project;
        PromptDefaults d = defaults();
        d.defaultModel.reset();
        QCOMPARE(builder(project).build(input({}), d).errorMessage(),
                 u"No model is chosen: pick a model or configure a default one."_s);
        d = defaults();
        d.defaultAgent.clear();
        QCOMPARE(builder(project).build(input({}), d).errorMessage(),
                 u"No agent is chosen and there is no default agent."_s);
    }

    void usesTheAgentsVariantOnlyWhenTheModelDefinesIt()
    {
        ProjectFiles project;
        PromptDefaults d = defaults();
        d.agentVariant = u"max"_s;
        d.modelVariants = [](const ModelRef &) { return QStringList{u"low"_s, u"high"_s}; };
        QCOMPARE(builder(project).build(input({}), d)->message.info.user()->variant, std::nullopt);
        d.modelVariants = [](const ModelRef &m) { return m == Sonnet ? QStringList{u"max"_s} : QStringList{}; };
        QCOMPARE(builder(project).build(input({}), d)->message.info.user()->variant, std::optional(u"max"_s));
        PromptInput in = input({});
        in.variant = u"low"_s;
        QCOMPARE(builder(project).build(in, d)->message.info.user()->variant, std::optional(u"low"_s));
    }

    void keepsCallerIdsAndGivesTheRestAscendingIdsInOrder()
    {
        ProjectFiles project;
        PromptInput in = input({PromptPart::text(u"one"_s), PromptPart::text(u"two"_s),
                                PromptPart{std::nullopt, AgentPart{u"explore"_s, std::nullopt}},
                                PromptPart::text(u"three"_s)});
        in.messageID = u"msg_mine"_s;
        in.parts[1].id = u"prt_given"_s;
        const auto built = builder(project).build(in, defaults());
        QVERIFY(built.ok());
        QCOMPARE(built->message.info.id(), u"msg_mine"_s);
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 5);
        QCOMPARE(parts[1].id, u"prt_given"_s);
        QStringList made{parts[0].id, parts[2].id, parts[3].id, parts[4].id};
        for (const QString &id : made)
            QVERIFY(Identifier::hasPrefix(id, Identifier::Prefix::Part));
        QStringList sorted = made;
        sorted.sort();
        QCOMPARE(made, sorted);
        QCOMPARE(QSet<QString>(made.begin(), made.end()).size(), 4);
    }

    void refusesIdsWithTheWrongPrefixOrGivenTwice()
    {
        ProjectFiles project;
        PromptInput in = input({PromptPart::text(u"one"_s)});
        in.messageID = u"prt_wrong"_s;
        QCOMPARE(builder(project).build(in, defaults()).errorMessage(),
                 u"The message id is not valid: ID prt_wrong does not start with msg"_s);
        in.messageID.reset();
        in.parts[0].id = u"msg_wrong"_s;
        QCOMPARE(builder(project).build(in, defaults()).errorMessage(),
                 u"A part id is not valid: ID msg_wrong does not start with prt"_s);
        in.parts[0].id = u"prt_same"_s;
        in.parts.append(PromptPart{u"prt_same"_s, TextPart{u"two"_s, {}, {}, {}, {}}});
        QCOMPARE(builder(project).build(in, defaults()).errorMessage(), u"The part id prt_same is given twice."_s);
    }

    void turnsAnAgentMentionIntoTheAgentPartAndATaskInstruction()
    {
        ProjectFiles project;
        const QJsonObject source{{"value"_L1, "@explore"_L1}, {"start"_L1, 0}, {"end"_L1, 8}};
        const auto built = builder(project).build(
            input({PromptPart{std::nullopt, AgentPart{u"explore"_s, source}}}), defaults());
        QVERIFY(built.ok());
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 2);
        QCOMPARE(parts[0].as<AgentPart>()->name, u"explore"_s);
        QCOMPARE(parts[0].as<AgentPart>()->source, std::optional(source));
        QCOMPARE(textOf(parts[1]).text,
                 u" Use the above message and context to generate a prompt and call the task tool with subagent: explore"_s);
        QVERIFY(isSynthetic(parts[1]));
    }

    void tellsTheModelADeniedSubagentWasInvokedByThePerson()
    {
        ProjectFiles project;
        PromptDefaults d = defaults();
        d.taskDenied = [](const QString &name) { return name == "secret"_L1; };
        const auto built =
            builder(project).build(input({PromptPart{std::nullopt, AgentPart{u"secret"_s, std::nullopt}}}), d);
        QVERIFY(textOf(built->message.parts[1]).text.endsWith(
            "subagent: secret . Invoked by user; guaranteed to exist."_L1));
    }

    void inlinesATextDataUrlAsTheReadToolWould()
    {
        ProjectFiles project;
        const QString url = DataUrl::encode(u"text/plain"_s, "pasted\ntext");
        const auto built = builder(project).build(input({file(u"text/plain"_s, url, u"notes.txt"_s)}), defaults());
        QVERIFY(built.ok());
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 3);
        QCOMPARE(textOf(parts[0]).text, ReadCall + u"{\"filePath\":\"notes.txt\"}"_s);
        QCOMPARE(textOf(parts[1]).text, u"pasted\ntext"_s);
        QVERIFY(isSynthetic(parts[0]) && isSynthetic(parts[1]));
        QCOMPARE(parts[2].as<FilePart>()->url, url);
        const auto nameless = builder(project).build(
            input({PromptPart{std::nullopt, FilePart{u"text/plain"_s, std::nullopt, url, std::nullopt}}}), defaults());
        QCOMPARE(textOf(nameless->message.parts[0]).text, ReadCall + u"{}"_s);
        const auto percent = builder(project).build(
            input({file(u"text/plain"_s, u"data:text/plain,caf%C3%A9%20ok"_s, u"p.txt"_s)}), defaults());
        QCOMPARE(textOf(percent->message.parts[1]).text, u"caf\u00e9 ok"_s);
    }

    void reportsAnInvalidDataUrlInsteadOfFailingThePrompt()
    {
        ProjectFiles project;
        const auto built = builder(project).build(
            input({file(u"text/plain"_s, u"data:text/plain;base64,@@@"_s, u"bad.txt"_s), PromptPart::text(u"after"_s)}),
            defaults());
        QVERIFY(built.ok());
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 2);
        QCOMPARE(textOf(parts[0]).text,
                 u"Read tool failed to read bad.txt with the following error: Cannot read the attached text bad.txt: "
                 "The data URL's base64 contents are broken."_s);
        QVERIFY(isSynthetic(parts[0]));
        QCOMPARE(built->errors.size(), 1);
        QCOMPARE(built->errors[0].name, u"UnknownError"_s);
        QVERIFY(built->errors[0].message().contains("base64"_L1));
        QCOMPARE(textOf(parts[1]).text, u"after"_s);
        const auto noComma =
            builder(project).build(input({file(u"text/plain"_s, u"data:text/plain"_s, u"x.txt"_s)}), defaults());
        QVERIFY(noComma->errors[0].message().contains("no comma"_L1));
        const auto escape =
            builder(project).build(input({file(u"text/plain"_s, u"data:text/plain,50%"_s, u"x.txt"_s)}), defaults());
        // QUrl refuses the broken escape before the data URL is decoded.
        QCOMPARE(escape->errors[0].message(), u"The attachment x.txt has no valid URL (data:text/plain,50%)."_s);
        QVERIFY(DataUrl::decode(u"data:text/plain,50%"_s).errorMessage().contains("broken escape"_L1));
    }

    void keepsDataUrlsThatAreNotTextAndWebUrlsAsTheyAre()
    {
        ProjectFiles project;
        const QString png = DataUrl::encode(u"image/png"_s, onePixelPng());
        const auto built = builder(project).build(
            input({file(u"image/png"_s, png), file(u"image/png"_s, u"https://example.com/a.png"_s)}), defaults());
        QCOMPARE(built->message.parts.size(), 2);
        QCOMPARE(built->message.parts[0].as<FilePart>()->url, png);
        QCOMPARE(built->message.parts[1].as<FilePart>()->url, u"https://example.com/a.png"_s);
    }

    void inlinesATextFileThroughTheReadToolsOutput()
    {
        ProjectFiles project;
        const QString path = project.write(u"src/main.cpp"_s, "int main()\n{\n}\n");
        PromptPart part = file(u"text/plain"_s, fileUrl(path), u"main.cpp"_s);
        part.id = u"prt_file"_s;
        const auto built = builder(project).build(input({part}), defaults());
        QVERIFY(built.ok());
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 3);
        QCOMPARE(textOf(parts[0]).text, ReadCall + u"{\"filePath\":\"%1\"}"_s.arg(path));
        QCOMPARE(textOf(parts[1]).text, FileReader(project.root(), project.root()).read({path, {}, {}})->output);
        QVERIFY(isSynthetic(parts[0]) && isSynthetic(parts[1]));
        QCOMPARE(parts[2].id, u"prt_file"_s);
        QCOMPARE(parts[2].as<FilePart>()->mime, u"text/plain"_s);
        QVERIFY(!isSynthetic(parts[2]));
        QCOMPARE(built->readFiles, QStringList{path});
        QVERIFY(built->externalFiles.isEmpty());
    }

    void readsTheLineRangeAFileUrlAsksFor()
    {
        ProjectFiles project;
        const QString path = project.write(u"range.txt"_s, "l1\nl2\nl3\nl4\nl5\n");
        const auto built = builder(project).build(
            input({file(u"text/plain"_s, fileUrl(path) + u"?start=2&end=3"_s)}), defaults());
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(textOf(parts[0]).text, ReadCall + u"{\"filePath\":\"%1\",\"offset\":2,\"limit\":2}"_s.arg(path));
        QVERIFY(textOf(parts[1]).text.contains("<content>\n2: l2\n3: l3\n\n(Showing lines 2-3 of 5."_L1));
        // A one-line range (a symbol search's answer) reads that line.
        const auto oneLine = builder(project).build(
            input({file(u"text/plain"_s, fileUrl(path) + u"?start=4&end=4"_s)}), defaults());
        QCOMPARE(textOf(oneLine->message.parts[0]).text, ReadCall + u"{\"filePath\":\"%1\",\"offset\":4,\"limit\":1}"_s.arg(path));
        QVERIFY(textOf(oneLine->message.parts[1]).text.contains("<content>\n4: l4\n\n(Showing lines 4-4 of 5."_L1));
        const auto fromZero = builder(project).build(
            input({file(u"text/plain"_s, fileUrl(path) + u"?start=0"_s)}), defaults());
        QCOMPARE(textOf(fromZero->message.parts[0]).text, ReadCall + u"{\"filePath\":\"%1\",\"offset\":1}"_s.arg(path));
    }

    void listsAFolderAndMarksItsPartAsADirectory()
    {
        ProjectFiles project;
        const QString dir = project.mkdir(u"docs"_s);
        project.write(u"docs/readme.md"_s, "#");
        const auto built = builder(project).build(input({file(u"text/plain"_s, fileUrl(dir), u"docs"_s)}), defaults());
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 3);
        QCOMPARE(textOf(parts[0]).text, ReadCall + u"{\"filePath\":\"%1\"}"_s.arg(dir));
        QVERIFY(textOf(parts[1]).text.contains("<type>directory</type>\n<entries>\nreadme.md\n\n(1 entries)"_L1));
        QCOMPARE(parts[2].as<FilePart>()->mime, u"application/x-directory"_s);
    }

    void attachesAnImageNamedAsTextWithTheReadToolsAttachment()
    {
        ProjectFiles project;
        const QString path = project.write(u"shot.png"_s, onePixelPng());
        const auto built =
            builder(project).build(input({file(u"text/plain"_s, fileUrl(path), u"shot.png"_s)}), defaults());
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 3);
        QCOMPARE(textOf(parts[1]).text, u"Image read successfully"_s);
        const FilePart *image = parts[2].as<FilePart>();
        QCOMPARE(image->mime, u"image/png"_s);
        QCOMPARE(image->filename, std::optional(u"shot.png"_s));
        QCOMPARE(DataUrl::decode(image->url).value(), onePixelPng());
        QVERIFY(isSynthetic(parts[2]));
    }

    void attachesImagesAndPdfsAsDataUrlsKeepingTheirNameAndSource()
    {
        ProjectFiles project;
        const QString path = project.write(u"paper.pdf"_s, "%PDF-1.4\n");
        const QJsonObject source{{"type"_L1, "file"_L1}, {"path"_L1, path}};
        PromptPart part{u"prt_pdf"_s, FilePart{u"application/pdf"_s, u"paper.pdf"_s, fileUrl(path), source}};
        const auto built = builder(project).build(input({part}), defaults());
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 2);
        QCOMPARE(textOf(parts[0]).text, ReadCall + u"{\"filePath\":\"%1\"}"_s.arg(path));
        QCOMPARE(parts[1].id, u"prt_pdf"_s);
        QCOMPARE(parts[1].as<FilePart>()->url, DataUrl::encode(u"application/pdf"_s, "%PDF-1.4\n"));
        QCOMPARE(parts[1].as<FilePart>()->source, std::optional(source));
        QCOMPARE(built->readFiles, QStringList{path});
    }

    void putsTheReadFailureBeforeTheRestOfTheMessage()
    {
        // OpenCode's prompt test: a missing file, then text.
        ProjectFiles project;
        const QString missing = project.path(u"still-missing.ts"_s);
        const auto built = builder(project).build(
            input({file(u"text/plain"_s, fileUrl(missing), u"still-missing.ts"_s), PromptPart::text(u"after-file"_s)}),
            defaults());
        QVERIFY(built.ok());
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 3);
        QVERIFY(textOf(parts[0]).text.startsWith(ReadCall));
        QCOMPARE(textOf(parts[1]).text, u"Read tool failed to read %1 with the following error: File not found: %1"_s.arg(missing));
        QCOMPARE(textOf(parts[2]).text, u"after-file"_s);
        QCOMPARE(built->errors.size(), 1);
        QCOMPARE(built->errors[0].message(), u"File not found: %1"_s.arg(missing));
        QVERIFY(built->readFiles.isEmpty());
    }

    void reportsBinaryMissingAndOversizedFilesAsReadFailures()
    {
        ProjectFiles project;
        const QString binary = project.write(u"tool.bin"_s, "x");
        const QString image = project.path(u"gone.png"_s);
        const QString huge = project.write(u"huge.png"_s, QByteArray());
        QFile(huge).resize(FileReader::MaxAttachmentBytes + 1);
        const auto built = builder(project).build(
            input({file(u"text/plain"_s, fileUrl(binary)), file(u"image/png"_s, fileUrl(image)),
                   file(u"image/png"_s, fileUrl(huge))}),
            defaults());
        QVERIFY(built.ok());
        QCOMPARE(built->errors.size(), 3);
        QCOMPARE(built->errors[0].message(), u"Cannot read binary file: %1"_s.arg(binary));
        QCOMPARE(built->errors[1].message(), u"File not found: %1"_s.arg(image));
        QVERIFY(built->errors[2].message().contains("too large to attach"_L1));
        for (const Part &part : built->message.parts)
            QVERIFY(isSynthetic(part));
    }

    void readsAFileOutsideTheProjectAndReportsIt()
    {
        ProjectFiles project;
        const QString outside = project.write(project.outside() + u"/notes.txt"_s, "elsewhere");
        const auto built = builder(project).build(input({file(u"text/plain"_s, fileUrl(outside))}), defaults());
        QVERIFY(built.ok());
        QVERIFY(textOf(built->message.parts[1]).text.contains("1: elsewhere"_L1));
        QCOMPARE(built->externalFiles, QStringList{outside});
    }

    void reportsAnAttachmentWithoutAUsableUrl()
    {
        ProjectFiles project;
        const auto built = builder(project).build(input({file(u"text/plain"_s, u"not a url"_s, u"odd"_s)}), defaults());
        QVERIFY(built.ok());
        QCOMPARE(built->message.parts.size(), 1);
        QVERIFY(textOf(built->message.parts[0]).text.startsWith("Read tool failed to read odd"_L1));
        QCOMPARE(built->errors.size(), 1);
    }

    void inlinesMcpResourcesAndSaysWhenOneCannotBeRead()
    {
        ProjectFiles project;
        const QJsonObject source{{"type"_L1, "resource"_L1}, {"clientName"_L1, "docs"_L1}, {"uri"_L1, "docs://a"_L1}};
        PromptPart part{std::nullopt, FilePart{u"text/plain"_s, u"a"_s, u"docs://a"_s, source}};
        PromptDefaults d = defaults();
        d.readMcpResource = [](const QString &client, const QString &uri) -> Result<QList<McpResourceContent>> {
            if (client != "docs"_L1 || uri != "docs://a"_L1)
                return Error{u"unexpected"_s};
            return QList<McpResourceContent>{{u"resource text"_s, std::nullopt, u"text/plain"_s},
                                             {std::nullopt, QByteArray("\x01"), u"image/png"_s}};
        };
        const auto built = builder(project).build(input({part}), d);
        const QList<Part> &parts = built->message.parts;
        QCOMPARE(parts.size(), 4);
        QCOMPARE(textOf(parts[0]).text, u"Reading MCP resource: a (docs://a)"_s);
        QCOMPARE(textOf(parts[1]).text, u"resource text"_s);
        QCOMPARE(textOf(parts[2]).text, u"[Binary content: image/png]"_s);
        QCOMPARE(parts[3].as<FilePart>()->url, u"docs://a"_s);

        const auto offline = builder(project).build(input({part}), defaults());
        QCOMPARE(offline->message.parts.size(), 2);
        QCOMPARE(textOf(offline->message.parts[1]).text,
                 u"Failed to read MCP resource a: No MCP server named docs is connected."_s);
    }

    void storesTheBuiltMessageAndItsPartsUnchanged()
    {
        ProjectFiles project;
        const QString path = project.write(u"a.txt"_s, "a\n");
        TempDatabase database;
        auto store = database.open();
        QVERIFY(store);
        const Session session = makeSession();
        QVERIFY(store->upsertProject(makeProject()).ok());
        QVERIFY(store->upsertSession(session).ok());
        PromptInput in = input({PromptPart::text(u"read this"_s), file(u"text/plain"_s, fileUrl(path), u"a.txt"_s),
                                PromptPart::droppedFile(project.write(u"i.png"_s, onePixelPng())),
                                PromptPart{std::nullopt, AgentPart{u"explore"_s, std::nullopt}}});
        in.sessionID = session.id;
        const auto built = builder(project).build(in, defaults());
        QVERIFY(built.ok());
        QVERIFY(store->updateMessage(built->message.info).ok());
        for (const Part &part : built->message.parts)
            QVERIFY(store->updatePart(part).ok());
        const auto stored = store->message(built->message.info.id());
        QVERIFY(stored.ok() && stored->has_value());
        QCOMPARE((*stored)->info, built->message.info);
        QCOMPARE((*stored)->parts, built->message.parts);
    }

    void givesADroppedFileTheTypeThatReadsItBest()
    {
        ProjectFiles project;
        const PromptPart folder = PromptPart::droppedFile(project.mkdir(u"a folder"_s));
        QCOMPARE(std::get<FilePart>(folder.body).mime, u"application/x-directory"_s);
        QCOMPARE(std::get<FilePart>(folder.body).url, fileUrl(project.path(u"a folder"_s)));
        QVERIFY(std::get<FilePart>(folder.body).url.contains("a%20folder"_L1));
        QCOMPARE(std::get<FilePart>(PromptPart::droppedFile(project.write(u"p.png"_s, onePixelPng())).body).mime,
                 u"image/png"_s);
        QCOMPARE(std::get<FilePart>(PromptPart::droppedFile(project.write(u"d.pdf"_s, "%PDF")).body).mime,
                 u"application/pdf"_s);
        const FilePart svg = std::get<FilePart>(PromptPart::droppedFile(project.write(u"v.svg"_s, "<svg/>")).body);
        QCOMPARE(svg.mime, u"text/plain"_s);
        QCOMPARE(svg.filename, std::optional(u"v.svg"_s));
    }

private:
    static UserMessageBuilder builder(const ProjectFiles &project)
    {
        return UserMessageBuilder(FileReader(project.root(), project.root()));
    }

    static ModelRef modelOf(const ProjectFiles &project, const PromptInput &in, const PromptDefaults &d)
    {
        const auto built = builder(project).build(in, d);
        return built.ok() ? built->message.info.user()->model : ModelRef{};
    }
};

QTEST_GUILESS_MAIN(UserMessageBuilderTest)
#include "tst_user_message_builder.moc"
