#include "ModelMessages.h"

#include <QByteArray>
#include <QCoreApplication>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// Texts the model sees in place of parts it cannot be given as they are;
// they are part of the protocol with the model, not the interface, so
// they are not translated.
const QString CompactionRequestText = u"What did we do so far?"_s;
const QString SubtaskText = u"The following tool was executed by the user"_s;
const QString ClearedOutputText = u"[Old tool result content cleared]"_s;
const QString InterruptedToolText = u"[Tool execution was interrupted]"_s;
const QString ToolMediaText = u"Attached image(s) from tool result:"_s;

bool isMediaMime(const QString &mime)
{
    return mime.startsWith("image/"_L1) || mime == "application/pdf"_L1;
}

QString attachedNote(const QString &mime, const std::optional<QString> &filename)
{
    return u"[Attached %1: %2]"_s.arg(mime, filename.value_or(u"file"_s));
}

// data:<mime>;base64,<payload> → bytes; anything else stays a URL.
FileContent fileContent(const QString &mime, const QString &url, const QString &filename)
{
    FileContent file;
    file.mediaType = mime;
    file.filename = filename;
    if (url.startsWith("data:"_L1)) {
        const qsizetype comma = url.indexOf(u',');
        const QStringView header = QStringView(url).mid(5, comma < 0 ? 0 : comma - 5);
        const QByteArray payload = comma < 0 ? QByteArray() : url.mid(comma + 1).toLatin1();
        file.data = header.endsWith(";base64"_L1) ? QByteArray::fromBase64(payload)
                                                   : QByteArray::fromPercentEncoding(payload);
    } else {
        file.url = QUrl(url);
    }
    return file;
}

std::optional<ModelMessage> userMessage(const MessageWithParts &message, const ModelMessageOptions &options)
{
    ModelMessage out{ModelRole::User, {}, {}};
    for (const Part &part : message.parts) {
        if (const auto *text = part.as<TextPart>()) {
            if (!text->ignored.value_or(false))
                out.content.append(TextContent{text->text, {}});
        } else if (const auto *file = part.as<FilePart>()) {
            // Text files and folders were inlined as synthetic text when the
            // message was made.
            if (file->mime == "text/plain"_L1 || file->mime == "application/x-directory"_L1)
                continue;
            if (options.stripMedia && isMediaMime(file->mime))
                out.content.append(TextContent{attachedNote(file->mime, file->filename), {}});
            else
                out.content.append(fileContent(file->mime, file->url, file->filename.value_or(QString())));
        } else if (part.as<CompactionPart>()) {
            out.content.append(TextContent{CompactionRequestText, {}});
        } else if (part.as<SubtaskPart>()) {
            out.content.append(TextContent{SubtaskText, {}});
        }
    }
    if (out.content.isEmpty())
        return std::nullopt;
    return out;
}

// An assistant message that failed is left out, except an interrupted
// answer that already said something: the model should see what it wrote.
bool keepsAssistant(const MessageWithParts &message)
{
    const AssistantMessage *info = message.info.assistant();
    if (!info->error)
        return true;
    if (info->error->name != "MessageAbortedError"_L1)
        return false;
    return std::any_of(message.parts.begin(), message.parts.end(), [](const Part &p) {
        return !p.as<StepStartPart>() && !p.as<ReasoningPart>();
    });
}

// One step of an assistant message: what the assistant said and called,
// then the results of those calls, then any media the results carried for
// a provider that cannot take media inside a tool result.
struct Step {
    ModelMessage assistant{ModelRole::Assistant, {}, {}};
    ModelMessage tools{ModelRole::Tool, {}, {}};
    QList<FileContent> looseMedia;

    void appendTo(QList<ModelMessage> &out) const
    {
        if (assistant.content.isEmpty())
            return;
        out.append(assistant);
        if (!tools.content.isEmpty())
            out.append(tools);
        if (!looseMedia.isEmpty()) {
            ModelMessage media{ModelRole::User, {TextContent{ToolMediaText, {}}}, {}};
            for (const FileContent &file : looseMedia)
                media.content.append(file);
            out.append(media);
        }
    }
};

void addTool(Step &step, const ToolPart &tool, bool sameModel, const ModelTarget &target,
             const ModelMessageOptions &options)
{
    const QJsonObject metadata = sameModel ? tool.metadata.value_or(QJsonObject()) : QJsonObject();
    step.assistant.content.append(ToolCallContent{tool.callID, tool.tool, tool.input(), metadata});
    ToolResultContent result{tool.callID, tool.tool, {}, false, {}, {}};
    if (const auto *done = std::get_if<ToolCompleted>(&tool.state)) {
        result.text = done->compacted ? ClearedOutputText : done->output;
        if (!done->compacted && !options.stripMedia && done->attachments) {
            for (const FileAttachment &a : *done->attachments) {
                FileContent file = fileContent(a.file.mime, a.file.url, a.file.filename.value_or(QString()));
                if (target.mediaInToolResults || !isMediaMime(a.file.mime))
                    result.media.append(file);
                else
                    step.looseMedia.append(file);
            }
        }
    } else if (const auto *failed = std::get_if<ToolError>(&tool.state)) {
        result.text = failed->error;
        result.isError = true;
    } else {
        result.text = InterruptedToolText;
        result.isError = true;
    }
    step.tools.content.append(result);
}

void assistantMessages(const MessageWithParts &message, const ModelTarget &target,
                       const ModelMessageOptions &options, QList<ModelMessage> &out)
{
    const AssistantMessage *info = message.info.assistant();
    // Signatures and encrypted reasoning only replay to the model that made them.
    const bool sameModel = info->providerID == target.providerID && info->modelID == target.modelID;
    Step step;
    for (const Part &part : message.parts) {
        if (part.as<StepStartPart>()) {
            step.appendTo(out);
            step = Step{};
        } else if (const auto *text = part.as<TextPart>()) {
            step.assistant.content.append(
                TextContent{text->text, sameModel ? text->metadata.value_or(QJsonObject()) : QJsonObject()});
        } else if (const auto *reasoning = part.as<ReasoningPart>()) {
            step.assistant.content.append(ReasoningContent{
                reasoning->text, sameModel ? reasoning->metadata.value_or(QJsonObject()) : QJsonObject()});
        } else if (const auto *tool = part.as<ToolPart>()) {
            addTool(step, *tool, sameModel, target, options);
        }
    }
    step.appendTo(out);
}

} // namespace

bool ModelTarget::mediaInToolResultsFor(WireProtocol protocol, const QString &modelID)
{
    switch (protocol) {
    case WireProtocol::AnthropicMessages:
    case WireProtocol::OpenAIResponses: return true;
    case WireProtocol::Gemini: return modelID.contains("gemini-3"_L1);
    case WireProtocol::OpenAIChat: return false;
    }
    return false;
}

QList<ModelMessage> toModelMessages(const QList<MessageWithParts> &history, const ModelTarget &target,
                                    const ModelMessageOptions &options)
{
    QList<ModelMessage> out;
    for (const MessageWithParts &message : history) {
        if (message.parts.isEmpty())
            continue;
        if (message.info.isUser()) {
            if (auto user = userMessage(message, options))
                out.append(std::move(*user));
        } else if (keepsAssistant(message)) {
            assistantMessages(message, target, options, out);
        }
    }
    return out;
}

} // namespace qcode
