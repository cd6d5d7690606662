#include "Part.h"

#include "Identifier.h"
#include "JsonFields.h"
#include "Overloaded.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QJsonObject timeJson(const PartTime &t)
{
    QJsonObject o{{"start"_L1, t.start}};
    json::putOptional(o, "end"_L1, t.end);
    return o;
}

PartTime timeFromJson(const QJsonObject &o)
{
    return PartTime{json::integer(o, "start"_L1), json::optInteger(o, "end"_L1)};
}

QJsonObject fileFields(const FilePart &f)
{
    QJsonObject o{{"type"_L1, "file"_L1}, {"mime"_L1, f.mime}, {"url"_L1, f.url}};
    json::putOptional(o, "filename"_L1, f.filename);
    json::putOptional(o, "source"_L1, f.source);
    return o;
}

FilePart fileFromJson(const QJsonObject &o)
{
    return FilePart{json::string(o, "mime"_L1), json::optString(o, "filename"_L1), json::string(o, "url"_L1),
                    json::optObject(o, "source"_L1)};
}

QJsonObject stateJson(const ToolState &state)
{
    return std::visit(
        Overloaded{
            [](const ToolPending &s) {
                return QJsonObject{{"status"_L1, "pending"_L1}, {"input"_L1, s.input}, {"raw"_L1, s.raw}};
            },
            [](const ToolRunning &s) {
                QJsonObject o{{"status"_L1, "running"_L1},
                              {"input"_L1, s.input},
                              {"time"_L1, QJsonObject{{"start"_L1, s.start}}}};
                json::putOptional(o, "title"_L1, s.title);
                json::putOptional(o, "metadata"_L1, s.metadata);
                return o;
            },
            [](const ToolCompleted &s) {
                QJsonObject time{{"start"_L1, s.start}, {"end"_L1, s.end}};
                json::putOptional(time, "compacted"_L1, s.compacted);
                QJsonObject o{{"status"_L1, "completed"_L1}, {"input"_L1, s.input}, {"output"_L1, s.output},
                              {"title"_L1, s.title},         {"metadata"_L1, s.metadata}, {"time"_L1, time}};
                if (s.attachments) {
                    QJsonArray list;
                    for (const FileAttachment &a : *s.attachments)
                        list.append(a.toJson());
                    o.insert("attachments"_L1, list);
                }
                return o;
            },
            [](const ToolError &s) {
                QJsonObject o{{"status"_L1, "error"_L1},
                              {"input"_L1, s.input},
                              {"error"_L1, s.error},
                              {"time"_L1, QJsonObject{{"start"_L1, s.start}, {"end"_L1, s.end}}}};
                json::putOptional(o, "metadata"_L1, s.metadata);
                return o;
            },
        },
        state);
}

ToolState stateFromJson(const QJsonObject &o)
{
    const QString status = json::string(o, "status"_L1);
    const QJsonObject input = json::object(o, "input"_L1);
    const QJsonObject time = json::object(o, "time"_L1);
    if (status == "running"_L1)
        return ToolRunning{input, json::optString(o, "title"_L1), json::optObject(o, "metadata"_L1),
                           json::integer(time, "start"_L1)};
    if (status == "completed"_L1) {
        ToolCompleted s{input,
                        json::string(o, "output"_L1),
                        json::string(o, "title"_L1),
                        json::object(o, "metadata"_L1),
                        json::integer(time, "start"_L1),
                        json::integer(time, "end"_L1),
                        json::optInteger(time, "compacted"_L1),
                        std::nullopt};
        if (const auto list = json::optArray(o, "attachments"_L1)) {
            s.attachments.emplace();
            for (const QJsonValue &v : *list)
                s.attachments->append(FileAttachment::fromJson(v.toObject()));
        }
        return s;
    }
    if (status == "error"_L1)
        return ToolError{input, json::string(o, "error"_L1), json::optObject(o, "metadata"_L1),
                         json::integer(time, "start"_L1), json::integer(time, "end"_L1)};
    return ToolPending{input, json::string(o, "raw"_L1)};
}

// The part's own fields, without id/sessionID/messageID and without extras.
QJsonObject bodyJson(const PartBody &body)
{
    return std::visit(
        Overloaded{
            [](const TextPart &p) {
                QJsonObject o{{"type"_L1, "text"_L1}, {"text"_L1, p.text}};
                json::putOptional(o, "synthetic"_L1, p.synthetic);
                json::putOptional(o, "ignored"_L1, p.ignored);
                if (p.time)
                    o.insert("time"_L1, timeJson(*p.time));
                json::putOptional(o, "metadata"_L1, p.metadata);
                return o;
            },
            [](const ReasoningPart &p) {
                QJsonObject o{{"type"_L1, "reasoning"_L1}, {"text"_L1, p.text}, {"time"_L1, timeJson(p.time)}};
                json::putOptional(o, "metadata"_L1, p.metadata);
                return o;
            },
            [](const FilePart &p) { return fileFields(p); },
            [](const ToolPart &p) {
                QJsonObject o{{"type"_L1, "tool"_L1},
                              {"callID"_L1, p.callID},
                              {"tool"_L1, p.tool},
                              {"state"_L1, json::merged(stateJson(p.state), p.stateExtra)}};
                json::putOptional(o, "metadata"_L1, p.metadata);
                return o;
            },
            [](const StepStartPart &p) {
                QJsonObject o{{"type"_L1, "step-start"_L1}};
                json::putOptional(o, "snapshot"_L1, p.snapshot);
                return o;
            },
            [](const StepFinishPart &p) {
                QJsonObject o{{"type"_L1, "step-finish"_L1},
                              {"reason"_L1, p.reason},
                              {"cost"_L1, p.cost},
                              {"tokens"_L1, p.tokens.toJson()}};
                json::putOptional(o, "snapshot"_L1, p.snapshot);
                return o;
            },
            [](const SnapshotPart &p) {
                return QJsonObject{{"type"_L1, "snapshot"_L1}, {"snapshot"_L1, p.snapshot}};
            },
            [](const PatchPart &p) {
                return QJsonObject{{"type"_L1, "patch"_L1},
                                   {"hash"_L1, p.hash},
                                   {"files"_L1, QJsonArray::fromStringList(p.files)}};
            },
            [](const AgentPart &p) {
                QJsonObject o{{"type"_L1, "agent"_L1}, {"name"_L1, p.name}};
                json::putOptional(o, "source"_L1, p.source);
                return o;
            },
            [](const SubtaskPart &p) {
                QJsonObject o{{"type"_L1, "subtask"_L1},
                              {"prompt"_L1, p.prompt},
                              {"description"_L1, p.description},
                              {"agent"_L1, p.agent}};
                if (p.model)
                    o.insert("model"_L1, QJsonObject{{"providerID"_L1, p.model->providerID},
                                                     {"modelID"_L1, p.model->modelID}});
                json::putOptional(o, "command"_L1, p.command);
                return o;
            },
            [](const RetryPart &p) {
                return QJsonObject{{"type"_L1, "retry"_L1},
                                   {"attempt"_L1, p.attempt},
                                   {"error"_L1, p.error},
                                   {"time"_L1, QJsonObject{{"created"_L1, p.created}}}};
            },
            [](const CompactionPart &p) {
                QJsonObject o{{"type"_L1, "compaction"_L1}, {"auto"_L1, p.automatic}};
                json::putOptional(o, "overflow"_L1, p.overflow);
                return o;
            },
            [](const UnknownPart &p) { return QJsonObject{{"type"_L1, p.type}}; },
        },
        body);
}

PartBody bodyFromJson(const QJsonObject &o)
{
    const QString type = json::string(o, "type"_L1);
    if (type == "text"_L1) {
        TextPart p{json::string(o, "text"_L1), json::optBoolean(o, "synthetic"_L1), json::optBoolean(o, "ignored"_L1),
                   std::nullopt, json::optObject(o, "metadata"_L1)};
        if (const auto time = json::optObject(o, "time"_L1))
            p.time = timeFromJson(*time);
        return p;
    }
    if (type == "reasoning"_L1)
        return ReasoningPart{json::string(o, "text"_L1), json::optObject(o, "metadata"_L1),
                             timeFromJson(json::object(o, "time"_L1))};
    if (type == "file"_L1)
        return fileFromJson(o);
    if (type == "tool"_L1) {
        ToolPart p{json::string(o, "callID"_L1), json::string(o, "tool"_L1), ToolPending{},
                   json::optObject(o, "metadata"_L1), {}};
        const QJsonObject state = json::object(o, "state"_L1);
        p.state = stateFromJson(state);
        p.stateExtra = json::residual(state, stateJson(p.state));
        return p;
    }
    if (type == "step-start"_L1)
        return StepStartPart{json::optString(o, "snapshot"_L1)};
    if (type == "step-finish"_L1)
        return StepFinishPart{json::string(o, "reason"_L1), json::optString(o, "snapshot"_L1),
                              json::number(o, "cost"_L1), TokenUsage::fromJson(json::object(o, "tokens"_L1))};
    if (type == "snapshot"_L1)
        return SnapshotPart{json::string(o, "snapshot"_L1)};
    if (type == "patch"_L1) {
        QStringList files;
        for (const QJsonValue &v : json::array(o, "files"_L1))
            files.append(v.toString());
        return PatchPart{json::string(o, "hash"_L1), files};
    }
    if (type == "agent"_L1)
        return AgentPart{json::string(o, "name"_L1), json::optObject(o, "source"_L1)};
    if (type == "subtask"_L1) {
        SubtaskPart p{json::string(o, "prompt"_L1), json::string(o, "description"_L1), json::string(o, "agent"_L1),
                      std::nullopt, json::optString(o, "command"_L1)};
        if (const auto model = json::optObject(o, "model"_L1))
            p.model = ModelRef{json::string(*model, "providerID"_L1), json::string(*model, "modelID"_L1)};
        return p;
    }
    if (type == "retry"_L1)
        return RetryPart{int(json::integer(o, "attempt"_L1)), json::object(o, "error"_L1),
                         json::integer(json::object(o, "time"_L1), "created"_L1)};
    if (type == "compaction"_L1)
        return CompactionPart{json::boolean(o, "auto"_L1), json::optBoolean(o, "overflow"_L1)};
    return UnknownPart{type};
}

QJsonObject knownFields(const Part &p)
{
    QJsonObject o = bodyJson(p.body);
    o.insert("id"_L1, p.id);
    o.insert("sessionID"_L1, p.sessionID);
    o.insert("messageID"_L1, p.messageID);
    return o;
}

Error illegalTransition(const ToolState &from, const char *to)
{
    return Error{u"A tool call that is %1 cannot become %2."_s.arg(toolStatusName(from), QLatin1StringView(to))};
}

} // namespace

QJsonObject FileAttachment::toJson() const
{
    QJsonObject o = fileFields(file);
    o.insert("id"_L1, id);
    o.insert("sessionID"_L1, sessionID);
    o.insert("messageID"_L1, messageID);
    return json::merged(o, extra);
}

FileAttachment FileAttachment::fromJson(const QJsonObject &o)
{
    FileAttachment a{json::string(o, "id"_L1), json::string(o, "sessionID"_L1), json::string(o, "messageID"_L1),
                     fileFromJson(o), {}};
    a.extra = json::residual(o, a.toJson());
    return a;
}

QString toolStatusName(const ToolState &state)
{
    static const QString names[] = {u"pending"_s, u"running"_s, u"completed"_s, u"error"_s};
    return names[state.index()];
}

bool ToolPart::isFinished() const
{
    return std::holds_alternative<ToolCompleted>(state) || std::holds_alternative<ToolError>(state);
}

const QJsonObject &ToolPart::input() const
{
    return std::visit([](const auto &s) -> const QJsonObject & { return s.input; }, state);
}

Result<void> ToolPart::start(const QJsonObject &newInput, qint64 now)
{
    if (!std::holds_alternative<ToolPending>(state))
        return illegalTransition(state, "running");
    state = ToolRunning{newInput, std::nullopt, std::nullopt, now};
    return {};
}

Result<void> ToolPart::updateRunning(std::optional<QString> title, std::optional<QJsonObject> metadata)
{
    auto *running = std::get_if<ToolRunning>(&state);
    if (!running)
        return illegalTransition(state, "running");
    if (title)
        running->title = std::move(title);
    if (metadata)
        running->metadata = std::move(metadata);
    return {};
}

Result<void> ToolPart::complete(QString output, QString title, QJsonObject metadata, qint64 now,
                                std::optional<QList<FileAttachment>> attachments)
{
    const auto *running = std::get_if<ToolRunning>(&state);
    if (!running)
        return illegalTransition(state, "completed");
    state = ToolCompleted{running->input, std::move(output), std::move(title), std::move(metadata),
                          running->start, now, std::nullopt, std::move(attachments)};
    return {};
}

Result<void> ToolPart::fail(QString error, qint64 now)
{
    if (isFinished())
        return illegalTransition(state, "error");
    const auto *running = std::get_if<ToolRunning>(&state);
    state = ToolError{input(), std::move(error), running ? running->metadata : std::nullopt,
                      running ? running->start : now, now};
    return {};
}

QString Part::type() const
{
    // In PartBody's order.
    static const QLatin1StringView names[] = {"text"_L1,        "reasoning"_L1, "file"_L1,     "tool"_L1,
                                              "step-start"_L1,  "step-finish"_L1, "snapshot"_L1, "patch"_L1,
                                              "agent"_L1,       "subtask"_L1,   "retry"_L1,    "compaction"_L1};
    static_assert(std::size(names) + 1 == std::variant_size_v<PartBody>);
    if (const auto *unknown = as<UnknownPart>())
        return unknown->type;
    return names[body.index()];
}

QJsonObject Part::toJson() const
{
    return json::merged(knownFields(*this), extra);
}

QJsonObject Part::toDataJson() const
{
    // extra never holds the ids: they are known fields.
    return json::merged(bodyJson(body), extra);
}

Result<Part> Part::fromJson(const QJsonObject &o)
{
    Part p;
    p.id = json::string(o, "id"_L1);
    if (!Identifier::hasPrefix(p.id, Identifier::Prefix::Part))
        return Error{u"A part needs an \"id\" starting with prt_ (got \"%1\")."_s.arg(p.id)};
    p.sessionID = json::string(o, "sessionID"_L1);
    p.messageID = json::string(o, "messageID"_L1);
    if (!o.value("type"_L1).isString())
        return Error{u"Part %1 has no \"type\"."_s.arg(p.id)};
    p.body = bodyFromJson(o);
    p.extra = json::residual(o, knownFields(p));
    return p;
}

QJsonObject MessageWithParts::toJson() const
{
    QJsonArray list;
    for (const Part &p : parts)
        list.append(p.toJson());
    return QJsonObject{{"info"_L1, info.toJson()}, {"parts"_L1, list}};
}

Result<MessageWithParts> MessageWithParts::fromJson(const QJsonObject &o)
{
    auto info = Message::fromJson(json::object(o, "info"_L1));
    if (!info)
        return info.error();
    MessageWithParts out{std::move(info).value(), {}};
    for (const QJsonValue &v : json::array(o, "parts"_L1)) {
        auto part = Part::fromJson(v.toObject());
        if (!part)
            return part.error();
        if (part->messageID != out.info.id())
            return Error{u"Part %1 belongs to message %2, not to %3."_s.arg(part->id, part->messageID, out.info.id())};
        out.parts.append(std::move(part).value());
    }
    return out;
}

} // namespace qcode
