#include <QTest>

#include "TempDatabase.h"
#include "engine/session/loop/ModelMessages.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QString Session = u"ses_test"_s;
const ModelTarget Target{u"test"_s, u"test-model"_s, true};

Part part(const QString &messageID, PartBody body, QJsonObject extra = {})
{
    return Part{Identifier::ascending(Identifier::Prefix::Part), Session, messageID, std::move(body), std::move(extra)};
}

MessageWithParts user(QList<PartBody> bodies)
{
    const Message info = makeUserMessage(Session);
    MessageWithParts m{info, {}};
    for (PartBody &b : bodies)
        m.parts.append(part(info.id(), std::move(b)));
    return m;
}

MessageWithParts assistant(QList<PartBody> bodies, const QString &provider = u"test"_s,
                           const QString &model = u"test-model"_s)
{
    Message info = makeAssistantMessage(Session, u"msg_parent"_s);
    info.assistant()->providerID = provider;
    info.assistant()->modelID = model;
    MessageWithParts m{info, {}};
    for (PartBody &b : bodies)
        m.parts.append(part(info.id(), std::move(b)));
    return m;
}

TextPart text(const QString &t, QJsonObject metadata = {})
{
    TextPart p{t, {}, {}, {}, {}};
    if (!metadata.isEmpty())
        p.metadata = metadata;
    return p;
}

ToolPart completedTool(const QString &output, std::optional<QList<FileAttachment>> attachments = std::nullopt,
                       std::optional<qint64> compacted = std::nullopt)
{
    return ToolPart{u"call-1"_s, u"bash"_s,
                    ToolCompleted{QJsonObject{{"cmd"_L1, "ls"_L1}}, output, u"ls"_s, {}, 1, 2, compacted, attachments},
                    QJsonObject{{"openai"_L1, QJsonObject{{"itemId"_L1, "fc_1"_L1}}}}, {}};
}

FileAttachment pngAttachment()
{
    return FileAttachment{u"prt_att"_s, Session, u"msg_x"_s,
                          FilePart{u"image/png"_s, u"shot.png"_s, u"data:image/png;base64,Zm9v"_s, {}}, {}};
}

const TextContent &textAt(const ModelMessage &m, int i) { return std::get<TextContent>(m.content.at(i)); }

} // namespace

class ModelMessagesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void dropsAUserMessageWithoutParts();
    void dropsAUserMessageWhoseOnlyPartIsIgnored();
    void includesSyntheticText();
    void convertsEveryUserPartKind();
    void stripMediaTurnsImagesIntoANote();
    void replaysProviderMetadataToTheSameModel();
    void dropsProviderMetadataForAnotherModel();
    void compactedToolOutputIsCleared();
    void toolErrorsBecomeErrorResults();
    void interruptedToolsGetAResultSoNoCallDangles();
    void dropsAFailedAssistantButKeepsAnInterruptedAnswer();
    void stepStartSplitsAnAssistantMessage();
    void toolMediaGoesToAUserMessageWhenTheProviderCannotTakeIt();
};

void ModelMessagesTest::dropsAUserMessageWithoutParts()
{
    QVERIFY(toModelMessages({user({})}, Target).isEmpty());
}

void ModelMessagesTest::dropsAUserMessageWhoseOnlyPartIsIgnored()
{
    TextPart ignored = text(u"hidden"_s);
    ignored.ignored = true;
    QVERIFY(toModelMessages({user({ignored})}, Target).isEmpty());
}

void ModelMessagesTest::includesSyntheticText()
{
    TextPart synthetic = text(u"Called the Read tool"_s);
    synthetic.synthetic = true;
    const auto out = toModelMessages({user({synthetic}), assistant({synthetic})}, Target);
    QCOMPARE(out.size(), 2);
    QCOMPARE(textAt(out[0], 0).text, u"Called the Read tool"_s);
    QCOMPARE(out[1].role, ModelRole::Assistant);
}

void ModelMessagesTest::convertsEveryUserPartKind()
{
    TextPart ignored = text(u"ignored"_s);
    ignored.ignored = true;
    const auto out = toModelMessages(
        {user({text(u"hello"_s), ignored, FilePart{u"image/png"_s, u"img.png"_s, u"https://example.com/img.png"_s, {}},
               FilePart{u"text/plain"_s, u"a.txt"_s, u"file:///a.txt"_s, {}},
               FilePart{u"application/x-directory"_s, u"src"_s, u"file:///src"_s, {}},
               CompactionPart{false, std::nullopt},
               SubtaskPart{u"p"_s, u"d"_s, u"general"_s, std::nullopt, std::nullopt},
               AgentPart{u"explore"_s, std::nullopt}})},
        Target);
    QCOMPARE(out.size(), 1);
    const ModelMessage &m = out[0];
    QCOMPARE(m.role, ModelRole::User);
    QCOMPARE(m.content.size(), 4);
    QCOMPARE(textAt(m, 0).text, u"hello"_s);
    const FileContent &file = std::get<FileContent>(m.content[1]);
    QCOMPARE(file.mediaType, u"image/png"_s);
    QCOMPARE(file.filename, u"img.png"_s);
    QCOMPARE(file.url, QUrl(u"https://example.com/img.png"_s));
    QCOMPARE(textAt(m, 2).text, u"What did we do so far?"_s);
    QCOMPARE(textAt(m, 3).text, u"The following tool was executed by the user"_s);
}

void ModelMessagesTest::stripMediaTurnsImagesIntoANote()
{
    const auto out = toModelMessages(
        {user({FilePart{u"image/png"_s, u"cat.png"_s, u"data:image/png;base64,Zm9v"_s, {}},
               FilePart{u"application/pdf"_s, std::nullopt, u"data:application/pdf;base64,Zm9v"_s, {}}})},
        Target, ModelMessageOptions{true});
    QCOMPARE(textAt(out[0], 0).text, u"[Attached image/png: cat.png]"_s);
    QCOMPARE(textAt(out[0], 1).text, u"[Attached application/pdf: file]"_s);
}

void ModelMessagesTest::replaysProviderMetadataToTheSameModel()
{
    const QJsonObject meta{{"openai"_L1, QJsonObject{{"itemId"_L1, "msg_1"_L1}}}};
    const auto out = toModelMessages({assistant({text(u"done"_s, meta), completedTool(u"ok"_s, QList{pngAttachment()})})},
                                     Target);
    QCOMPARE(out.size(), 2);
    QCOMPARE(out[0].role, ModelRole::Assistant);
    QCOMPARE(textAt(out[0], 0).providerOptions, meta);
    const auto &call = std::get<ToolCallContent>(out[0].content[1]);
    QCOMPARE(call.toolCallId, u"call-1"_s);
    QCOMPARE(call.input.value("cmd"_L1).toString(), u"ls"_s);
    QVERIFY(!call.providerMetadata.isEmpty());
    QCOMPARE(out[1].role, ModelRole::Tool);
    const auto &result = std::get<ToolResultContent>(out[1].content[0]);
    QCOMPARE(result.text, u"ok"_s);
    QCOMPARE(result.media.size(), 1);
    QCOMPARE(result.media[0].mediaType, u"image/png"_s);
    QCOMPARE(result.media[0].data, QByteArray("foo"));
}

void ModelMessagesTest::dropsProviderMetadataForAnotherModel()
{
    const QJsonObject meta{{"openai"_L1, QJsonObject{{"itemId"_L1, "msg_1"_L1}}}};
    ReasoningPart reasoning{u"thinking"_s, QJsonObject{{"anthropic"_L1, QJsonObject{{"signature"_L1, "s"_L1}}}}, {}};
    const auto out = toModelMessages(
        {assistant({reasoning, text(u"done"_s, meta), completedTool(u"ok"_s)}, u"other"_s, u"other-model"_s)}, Target);
    QVERIFY(std::get<ReasoningContent>(out[0].content[0]).providerMetadata.isEmpty());
    QCOMPARE(std::get<ReasoningContent>(out[0].content[0]).text, u"thinking"_s);
    QVERIFY(textAt(out[0], 1).providerOptions.isEmpty());
    QVERIFY(std::get<ToolCallContent>(out[0].content[2]).providerMetadata.isEmpty());
}

void ModelMessagesTest::compactedToolOutputIsCleared()
{
    const auto out = toModelMessages({assistant({completedTool(u"secret output"_s, QList{pngAttachment()}, 99)})}, Target);
    const auto &result = std::get<ToolResultContent>(out[1].content[0]);
    QCOMPARE(result.text, u"[Old tool result content cleared]"_s);
    QVERIFY(result.media.isEmpty());
}

void ModelMessagesTest::toolErrorsBecomeErrorResults()
{
    const ToolPart failed{u"call-1"_s, u"bash"_s, ToolError{{}, u"nope"_s, std::nullopt, 1, 2}, {}, {}};
    const auto out = toModelMessages({assistant({failed})}, Target);
    const auto &result = std::get<ToolResultContent>(out[1].content[0]);
    QVERIFY(result.isError);
    QCOMPARE(result.text, u"nope"_s);
}

void ModelMessagesTest::interruptedToolsGetAResultSoNoCallDangles()
{
    const ToolPart pending{u"call-1"_s, u"bash"_s, ToolPending{{}, {}}, {}, {}};
    const ToolPart running{u"call-2"_s, u"read"_s, ToolRunning{QJsonObject{{"filePath"_L1, "/a"_L1}}, {}, {}, 5}, {}, {}};
    const auto out = toModelMessages({assistant({pending, running})}, Target);
    QCOMPARE(out.size(), 2);
    QCOMPARE(out[0].content.size(), 2);
    QCOMPARE(out[1].content.size(), 2);
    for (const ContentPart &c : out[1].content) {
        const auto &result = std::get<ToolResultContent>(c);
        QVERIFY(result.isError);
        QCOMPARE(result.text, u"[Tool execution was interrupted]"_s);
    }
}

void ModelMessagesTest::dropsAFailedAssistantButKeepsAnInterruptedAnswer()
{
    MessageWithParts failed = assistant({text(u"partial"_s)});
    failed.info.assistant()->error = NamedError{u"APIError"_s, {}};
    QVERIFY(toModelMessages({failed}, Target).isEmpty());

    MessageWithParts aborted = assistant({ReasoningPart{u"hmm"_s, {}, {}}, text(u"partial"_s)});
    aborted.info.assistant()->error = NamedError{u"MessageAbortedError"_s, {}};
    const auto kept = toModelMessages({aborted}, Target);
    QCOMPARE(kept.size(), 1);
    QCOMPARE(kept[0].content.size(), 2);

    MessageWithParts abortedEarly = assistant({StepStartPart{}, ReasoningPart{u"hmm"_s, {}, {}}});
    abortedEarly.info.assistant()->error = NamedError{u"MessageAbortedError"_s, {}};
    QVERIFY(toModelMessages({abortedEarly}, Target).isEmpty());
}

void ModelMessagesTest::stepStartSplitsAnAssistantMessage()
{
    const auto out = toModelMessages({assistant({text(u"first"_s), StepStartPart{}, text(u"second"_s)})}, Target);
    QCOMPARE(out.size(), 2);
    QCOMPARE(textAt(out[0], 0).text, u"first"_s);
    QCOMPARE(textAt(out[1], 0).text, u"second"_s);
    QVERIFY(toModelMessages({assistant({StepStartPart{}})}, Target).isEmpty());
}

void ModelMessagesTest::toolMediaGoesToAUserMessageWhenTheProviderCannotTakeIt()
{
    const ModelTarget chatOnly{u"test"_s, u"test-model"_s, false};
    const auto out = toModelMessages({assistant({completedTool(u"ok"_s, QList{pngAttachment()})})}, chatOnly);
    QCOMPARE(out.size(), 3);
    QVERIFY(std::get<ToolResultContent>(out[1].content[0]).media.isEmpty());
    QCOMPARE(out[2].role, ModelRole::User);
    QCOMPARE(textAt(out[2], 0).text, u"Attached image(s) from tool result:"_s);
    QCOMPARE(std::get<FileContent>(out[2].content[1]).mediaType, u"image/png"_s);
    QVERIFY(!ModelTarget::mediaInToolResultsFor(WireProtocol::OpenAIChat, u"gpt-4o"_s));
    QVERIFY(ModelTarget::mediaInToolResultsFor(WireProtocol::Gemini, u"gemini-3-pro"_s));
    QVERIFY(!ModelTarget::mediaInToolResultsFor(WireProtocol::Gemini, u"gemini-2.5-pro"_s));
}

QTEST_GUILESS_MAIN(ModelMessagesTest)
#include "tst_model_messages.moc"
