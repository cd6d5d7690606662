#include "Message.h"

#include "Identifier.h"
#include "JsonFields.h"

using namespace Qt::StringLiterals;

namespace qcode {

QJsonObject TokenUsage::toJson() const
{
    QJsonObject o{{"input"_L1, input},
                  {"output"_L1, output},
                  {"reasoning"_L1, reasoning},
                  {"cache"_L1, QJsonObject{{"read"_L1, cacheRead}, {"write"_L1, cacheWrite}}}};
    json::putOptional(o, "total"_L1, total);
    return o;
}

TokenUsage TokenUsage::fromJson(const QJsonObject &o)
{
    const QJsonObject cache = json::object(o, "cache"_L1);
    return TokenUsage{json::optInteger(o, "total"_L1), json::integer(o, "input"_L1),
                      json::integer(o, "output"_L1), json::integer(o, "reasoning"_L1),
                      json::integer(cache, "read"_L1), json::integer(cache, "write"_L1)};
}

QJsonObject NamedError::toJson() const
{
    return QJsonObject{{"name"_L1, name}, {"data"_L1, data}};
}

NamedError NamedError::fromJson(const QJsonObject &o)
{
    return NamedError{json::string(o, "name"_L1), json::object(o, "data"_L1)};
}

namespace {

QJsonObject modelJson(const ModelRef &m)
{
    return QJsonObject{{"providerID"_L1, m.providerID}, {"modelID"_L1, m.modelID}};
}

QJsonObject knownFields(const UserMessage &m)
{
    QJsonObject o{{"id"_L1, m.id},
                  {"sessionID"_L1, m.sessionID},
                  {"role"_L1, "user"_L1},
                  {"time"_L1, QJsonObject{{"created"_L1, m.created}}},
                  {"agent"_L1, m.agent},
                  {"model"_L1, modelJson(m.model)}};
    json::putOptional(o, "format"_L1, m.format);
    json::putOptional(o, "system"_L1, m.system);
    json::putOptional(o, "tools"_L1, m.tools);
    json::putOptional(o, "variant"_L1, m.variant);
    json::putOptional(o, "summary"_L1, m.summary);
    return o;
}

QJsonObject knownFields(const AssistantMessage &m)
{
    QJsonObject time{{"created"_L1, m.created}};
    json::putOptional(time, "completed"_L1, m.completed);
    QJsonObject o{{"id"_L1, m.id},
                  {"sessionID"_L1, m.sessionID},
                  {"role"_L1, "assistant"_L1},
                  {"time"_L1, time},
                  {"parentID"_L1, m.parentID},
                  {"modelID"_L1, m.modelID},
                  {"providerID"_L1, m.providerID},
                  {"mode"_L1, m.mode},
                  {"agent"_L1, m.agent},
                  {"path"_L1, QJsonObject{{"cwd"_L1, m.cwd}, {"root"_L1, m.root}}},
                  {"cost"_L1, m.cost},
                  {"tokens"_L1, m.tokens.toJson()}};
    json::putOptional(o, "summary"_L1, m.summary);
    json::putOptional(o, "structured"_L1, m.structured);
    json::putOptional(o, "variant"_L1, m.variant);
    json::putOptional(o, "finish"_L1, m.finish);
    if (m.error)
        o.insert("error"_L1, m.error->toJson());
    return o;
}

UserMessage userFromJson(const QJsonObject &o)
{
    UserMessage m;
    m.id = json::string(o, "id"_L1);
    m.sessionID = json::string(o, "sessionID"_L1);
    m.created = json::integer(json::object(o, "time"_L1), "created"_L1);
    m.agent = json::string(o, "agent"_L1);
    const QJsonObject model = json::object(o, "model"_L1);
    m.model = ModelRef{json::string(model, "providerID"_L1), json::string(model, "modelID"_L1)};
    m.format = json::optObject(o, "format"_L1);
    m.system = json::optString(o, "system"_L1);
    m.tools = json::optObject(o, "tools"_L1);
    m.variant = json::optString(o, "variant"_L1);
    m.summary = json::optObject(o, "summary"_L1);
    m.extra = json::residual(o, knownFields(m));
    return m;
}

AssistantMessage assistantFromJson(const QJsonObject &o)
{
    AssistantMessage m;
    m.id = json::string(o, "id"_L1);
    m.sessionID = json::string(o, "sessionID"_L1);
    const QJsonObject time = json::object(o, "time"_L1);
    m.created = json::integer(time, "created"_L1);
    m.completed = json::optInteger(time, "completed"_L1);
    m.parentID = json::string(o, "parentID"_L1);
    m.modelID = json::string(o, "modelID"_L1);
    m.providerID = json::string(o, "providerID"_L1);
    m.mode = json::string(o, "mode"_L1);
    m.agent = json::string(o, "agent"_L1);
    const QJsonObject path = json::object(o, "path"_L1);
    m.cwd = json::string(path, "cwd"_L1);
    m.root = json::string(path, "root"_L1);
    m.summary = json::optBoolean(o, "summary"_L1);
    m.cost = json::number(o, "cost"_L1);
    m.tokens = TokenUsage::fromJson(json::object(o, "tokens"_L1));
    m.structured = json::optValue(o, "structured"_L1);
    m.variant = json::optString(o, "variant"_L1);
    m.finish = json::optString(o, "finish"_L1);
    if (const auto error = json::optObject(o, "error"_L1))
        m.error = NamedError::fromJson(*error);
    m.extra = json::residual(o, knownFields(m));
    return m;
}

} // namespace

const QString &Message::id() const
{
    return std::visit([](const auto &m) -> const QString & { return m.id; }, m_info);
}

const QString &Message::sessionID() const
{
    return std::visit([](const auto &m) -> const QString & { return m.sessionID; }, m_info);
}

qint64 Message::created() const
{
    return std::visit([](const auto &m) { return m.created; }, m_info);
}

QJsonObject Message::toJson() const
{
    return std::visit([](const auto &m) { return json::merged(knownFields(m), m.extra); }, m_info);
}

Result<Message> Message::fromJson(const QJsonObject &o)
{
    const QString id = json::string(o, "id"_L1);
    if (!Identifier::hasPrefix(id, Identifier::Prefix::Message))
        return Error{u"A message needs an \"id\" starting with msg_ (got \"%1\")."_s.arg(id)};
    if (!Identifier::hasPrefix(json::string(o, "sessionID"_L1), Identifier::Prefix::Session))
        return Error{u"Message %1 has no valid \"sessionID\"."_s.arg(id)};
    const QString role = json::string(o, "role"_L1);
    if (role == "user"_L1)
        return Message(userFromJson(o));
    if (role == "assistant"_L1)
        return Message(assistantFromJson(o));
    return Error{u"Message %1 has role \"%2\"; expected \"user\" or \"assistant\"."_s.arg(id, role)};
}

} // namespace qcode
