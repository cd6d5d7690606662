#include "UserMessageBuilder.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

#include "DataUrl.h"
#include "MessageLogging.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

const QString DirectoryMime = u"application/x-directory"_s;
const QString TextMime = u"text/plain"_s;

// The texts below are what OpenCode puts before the model, word for word:
// the model's protocol, so they are not translated.
const QString ReadCallPrefix = u"Called the Read tool with the following input: "_s;
// The leading space keeps "Use" from sticking to the person's last word.
const QString AgentInstruction =
    u" Use the above message and context to generate a prompt and call the task tool with subagent: "_s;
const QString AgentDeniedHint = u" . Invoked by user; guaranteed to exist."_s;

TextPart syntheticText(const QString &text)
{
    return TextPart{text, true, std::nullopt, std::nullopt, std::nullopt};
}

// JSON.stringify of one string, so a path with quotes or backslashes stays
// valid JSON.
QString jsonString(const QString &value)
{
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

// JSON.stringify({filePath, offset, limit}) in that key order (QJsonObject
// would sort the keys), leaving out the ones not set.
QString readArguments(const QString &filePath, std::optional<qint64> offset = {}, std::optional<qint64> limit = {})
{
    QString out = u"{\"filePath\":"_s + jsonString(filePath);
    if (offset)
        out += u",\"offset\":"_s + QString::number(*offset);
    if (limit)
        out += u",\"limit\":"_s + QString::number(*limit);
    return out + u'}';
}

// JavaScript's parseInt: the leading integer, or nothing.
std::optional<qint64> parseInteger(const QString &text)
{
    static const QRegularExpression leading(u"^\\s*([+-]?\\d+)"_s);
    const QRegularExpressionMatch match = leading.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const qint64 value = match.captured(1).toLongLong(&ok);
    return ok ? std::optional(value) : std::nullopt;
}

NamedError unknownError(const QString &message)
{
    return NamedError{u"UnknownError"_s, QJsonObject{{"message"_L1, message}}};
}

} // namespace

struct UserMessageBuilder::Context {
    const PromptDefaults &defaults;
    BuiltUserMessage &out;

    void noteRead(const QString &path, const FileReader &reader)
    {
        if (!out.readFiles.contains(path))
            out.readFiles.append(path);
        if (reader.isExternal(path) && !out.externalFiles.contains(path))
            out.externalFiles.append(path);
    }
    // The model is told, and the person is shown, the same sentence.
    Draft failure(const QString &path, const QString &message)
    {
        qCWarning(lcMessage) << "cannot read a prompt's file" << path << message;
        out.errors.append(unknownError(message));
        return Draft{std::nullopt,
                     syntheticText(u"Read tool failed to read %1 with the following error: %2"_s.arg(path, message)),
                     {}};
    }
};

UserMessageBuilder::UserMessageBuilder(FileReader reader) : m_reader(std::move(reader)) {}

Result<BuiltUserMessage> UserMessageBuilder::build(const PromptInput &input, const PromptDefaults &defaults) const
{
    UserMessage info;
    if (input.messageID) {
        auto id = Identifier::ascending(Identifier::Prefix::Message, *input.messageID);
        if (!id)
            return Error{tr("The message id is not valid: %1").arg(id.error().message)};
        info.id = *id;
    } else {
        info.id = Identifier::ascending(Identifier::Prefix::Message);
    }

    QSet<QString> givenIds;
    for (const PromptPart &part : input.parts) {
        if (!part.id)
            continue;
        if (auto id = Identifier::ascending(Identifier::Prefix::Part, *part.id); !id)
            return Error{tr("A part id is not valid: %1").arg(id.error().message)};
        if (givenIds.contains(*part.id))
            return Error{tr("The part id %1 is given twice.").arg(*part.id)};
        givenIds.insert(*part.id);
    }

    info.agent = input.agent.value_or(defaults.defaultAgent);
    if (info.agent.isEmpty())
        return Error{tr("No agent is chosen and there is no default agent.")};
    // input → agent → the session's last → the provider list's default.
    const std::optional<ModelRef> model =
        input.model ? input.model
                    : defaults.agentModel ? defaults.agentModel
                                          : defaults.lastUserModel ? defaults.lastUserModel : defaults.defaultModel;
    if (!model || model->providerID.isEmpty() || model->modelID.isEmpty())
        return Error{tr("No model is chosen: pick a model or configure a default one.")};
    info.model = *model;
    if (input.variant)
        info.variant = input.variant;
    else if (defaults.agentVariant && defaults.modelVariants
             && defaults.modelVariants(*model).contains(*defaults.agentVariant))
        info.variant = defaults.agentVariant;

    info.sessionID = input.sessionID;
    info.created = defaults.now > 0 ? defaults.now : QDateTime::currentMSecsSinceEpoch();
    info.tools = input.tools;
    info.system = input.system;
    info.format = input.format;

    BuiltUserMessage out;
    Context context{defaults, out};
    QList<Draft> drafts;
    for (const PromptPart &part : input.parts) {
        if (const auto *file = std::get_if<FilePart>(&part.body))
            drafts.append(fromFile(part.id, *file, context));
        else if (const auto *agent = std::get_if<AgentPart>(&part.body))
            drafts.append(fromAgent(part.id, *agent, context));
        else
            std::visit([&](const auto &body) { drafts.append(Draft{part.id, body, {}}); }, part.body);
    }

    out.message.info = Message(info);
    for (Draft &draft : drafts) {
        // Caller-made ids are kept; the rest are made now, in order, so
        // they ascend in the order the parts appear.
        const QString id = draft.id ? *draft.id : Identifier::ascending(Identifier::Prefix::Part);
        out.message.parts.append(Part{id, input.sessionID, info.id, std::move(draft.body), std::move(draft.extra)});
    }
    qCDebug(lcMessage) << "user message" << info.id << "with" << out.message.parts.size() << "parts,"
                       << out.errors.size() << "unreadable files";
    return out;
}

QList<UserMessageBuilder::Draft> UserMessageBuilder::fromAgent(const std::optional<QString> &id,
                                                               const AgentPart &agent, Context &context) const
{
    const bool denied = context.defaults.taskDenied && context.defaults.taskDenied(agent.name);
    return {Draft{id, agent, {}},
            Draft{std::nullopt, syntheticText(AgentInstruction + agent.name + (denied ? AgentDeniedHint : QString())),
                  {}}};
}

QList<UserMessageBuilder::Draft> UserMessageBuilder::fromFile(const std::optional<QString> &id, FilePart file,
                                                              Context &context) const
{
    if (file.source && file.source->value("type"_L1).toString() == "resource"_L1)
        return fromMcpResource(id, file, context);

    const QUrl url(file.url, QUrl::StrictMode);
    const QString name = file.filename.value_or(file.url);
    if (!url.isValid() || url.scheme().isEmpty()) {
        const QString message = QStringLiteral("The attachment %1 has no valid URL (%2).").arg(name, file.url);
        return {context.failure(name, message)};
    }
    if (url.scheme() == "data"_L1) {
        // Only text is inlined; other data URLs go to the model as they are.
        if (file.mime != TextMime)
            return {Draft{id, file, {}}};
        auto text = DataUrl::decodeText(file.url);
        if (!text)
            return {context.failure(name, QStringLiteral("Cannot read the attached text %1: %2").arg(name, text.error().message))};
        // JSON.stringify drops an undefined filePath: "{}" for a nameless paste.
        const QString arguments = file.filename ? readArguments(*file.filename) : u"{}"_s;
        return {Draft{std::nullopt, syntheticText(ReadCallPrefix + arguments), {}},
                Draft{std::nullopt, syntheticText(*text), {}}, Draft{id, file, {}}};
    }
    if (url.scheme() == "file"_L1)
        return fromLocalFile(id, std::move(file), context);
    return {Draft{id, file, {}}};
}

QList<UserMessageBuilder::Draft> UserMessageBuilder::fromLocalFile(const std::optional<QString> &id, FilePart file,
                                                                   Context &context) const
{
    const QUrl url(file.url);
    const QString path = m_reader.absolutePath(url.toLocalFile());
    if (QFileInfo(path).isDir())
        file.mime = DirectoryMime;

    if (file.mime == TextMime) {
        std::optional<qint64> offset;
        std::optional<qint64> limit;
        const QUrlQuery query(url);
        // OpenCode widens a one-line range (start == end, from a symbol
        // search) through the language server's document symbols; qcode has
        // no language server yet, so such a range reads that one line.
        if (const auto start = parseInteger(query.queryItemValue(u"start"_s, QUrl::FullyDecoded))) {
            offset = std::max<qint64>(*start, 1);
            const auto end = parseInteger(query.queryItemValue(u"end"_s, QUrl::FullyDecoded));
            if (end && *end != 0)
                limit = *end - (*offset - 1);
        }
        QList<Draft> pieces{
            Draft{std::nullopt, syntheticText(ReadCallPrefix + readArguments(path, offset, limit)), {}}};
        const auto read = m_reader.read(FileReadRequest{path, offset, limit});
        if (!read) {
            pieces.append(context.failure(path, read.error().message));
            return pieces;
        }
        context.noteRead(path, m_reader);
        pieces.append(Draft{std::nullopt, syntheticText(read->output), {}});
        if (read->attachments.isEmpty()) {
            pieces.append(Draft{id, file, {}});
            return pieces;
        }
        for (FilePart attachment : read->attachments) {
            if (!attachment.filename)
                attachment.filename = file.filename;
            // FilePart has no "synthetic" field of its own; OpenCode's
            // attachments carry one, kept here with the part's other fields.
            pieces.append(Draft{std::nullopt, attachment, QJsonObject{{"synthetic"_L1, true}}});
        }
        return pieces;
    }

    if (file.mime == DirectoryMime) {
        QList<Draft> pieces{Draft{std::nullopt, syntheticText(ReadCallPrefix + readArguments(path)), {}}};
        const auto listing = m_reader.read(FileReadRequest{path, std::nullopt, std::nullopt});
        if (!listing) {
            // OpenCode lets this failure end the whole prompt; qcode keeps the
            // rest of the message and says what went wrong.
            pieces.append(context.failure(path, listing.error().message));
            return pieces;
        }
        pieces.append(Draft{std::nullopt, syntheticText(listing->output), {}});
        pieces.append(Draft{id, file, {}});
        return pieces;
    }

    // Images, PDFs and anything else the caller typed: the bytes as a data
    // URL, named as the caller named them.
    QList<Draft> pieces{Draft{std::nullopt, syntheticText(ReadCallPrefix + readArguments(path)), {}}};
    const auto bytes = m_reader.readBytes(path);
    if (!bytes) {
        pieces.append(context.failure(path, bytes.error().message));
        return pieces;
    }
    context.noteRead(path, m_reader);
    pieces.append(Draft{id, FilePart{file.mime, file.filename, DataUrl::encode(file.mime, *bytes), file.source}, {}});
    return pieces;
}

QList<UserMessageBuilder::Draft> UserMessageBuilder::fromMcpResource(const std::optional<QString> &id,
                                                                     const FilePart &file, Context &context) const
{
    const QString clientName = file.source->value("clientName"_L1).toString();
    const QString uri = file.source->value("uri"_L1).toString();
    const QString name = file.filename.value_or(uri);
    QList<Draft> pieces{
        Draft{std::nullopt, syntheticText(u"Reading MCP resource: %1 (%2)"_s.arg(name, uri)), {}}};

    Result<QList<McpResourceContent>> contents =
        context.defaults.readMcpResource ? context.defaults.readMcpResource(clientName, uri)
                                         : Result<QList<McpResourceContent>>(
                                               Error{QStringLiteral("No MCP server named %1 is connected.").arg(clientName)});
    if (contents && contents->isEmpty())
        contents = Error{QStringLiteral("Resource not found: %1/%2").arg(clientName, uri)};
    if (!contents) {
        qCWarning(lcMessage) << "cannot read an MCP resource" << clientName << uri << contents.error().message;
        pieces.append(Draft{std::nullopt,
                            syntheticText(u"Failed to read MCP resource %1: %2"_s.arg(name, contents.error().message)),
                            {}});
        return pieces;
    }
    for (const McpResourceContent &content : *contents) {
        if (content.text && !content.text->isEmpty())
            pieces.append(Draft{std::nullopt, syntheticText(*content.text), {}});
        else if (content.blob && !content.blob->isEmpty())
            pieces.append(Draft{
                std::nullopt,
                syntheticText(u"[Binary content: %1]"_s.arg(content.mimeType.isEmpty() ? file.mime : content.mimeType)),
                {}});
    }
    pieces.append(Draft{id, file, {}});
    return pieces;
}

} // namespace qcode
