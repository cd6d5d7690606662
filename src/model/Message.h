#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QMetaType>
#include <QString>

#include <optional>
#include <variant>

#include "Result.h"

namespace qcode {

struct ModelRef {
    QString providerID;
    QString modelID;

    bool operator==(const ModelRef &) const = default;
};

struct TokenUsage {
    std::optional<qint64> total;
    qint64 input = 0;
    qint64 output = 0;
    qint64 reasoning = 0;
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;

    QJsonObject toJson() const;
    static TokenUsage fromJson(const QJsonObject &json);
    bool operator==(const TokenUsage &) const = default;
};

// A named error as OpenCode stores it: {name, data}, for example
// {name: "MessageAbortedError", data: {message}}.
struct NamedError {
    QString name;
    QJsonObject data;

    QString message() const { return data.value(QLatin1StringView("message")).toString(); }
    QJsonObject toJson() const;
    static NamedError fromJson(const QJsonObject &json);
};

struct UserMessage {
    QString id;
    QString sessionID;
    qint64 created = 0;
    QString agent;
    ModelRef model;
    std::optional<QJsonObject> format;
    std::optional<QString> system;
    std::optional<QJsonObject> tools;
    std::optional<QString> variant;
    std::optional<QJsonObject> summary;
    QJsonObject extra;
};

struct AssistantMessage {
    QString id;
    QString sessionID;
    qint64 created = 0;
    std::optional<qint64> completed;
    QString parentID; // the user message this answers
    QString modelID;
    QString providerID;
    QString mode;
    QString agent;
    QString cwd;
    QString root;
    std::optional<bool> summary; // true: a compaction summary
    double cost = 0;
    TokenUsage tokens;
    std::optional<QJsonValue> structured;
    std::optional<QString> variant;
    std::optional<QString> finish;
    std::optional<NamedError> error;
    QJsonObject extra;

    bool isSummary() const { return summary.value_or(false); }
};

enum class Role { User, Assistant };

// MessageV2.Info: one of the two roles.
class Message
{
public:
    Message() : m_info(UserMessage{}) {}
    Message(UserMessage user) : m_info(std::move(user)) {}
    Message(AssistantMessage assistant) : m_info(std::move(assistant)) {}

    Role role() const { return isUser() ? Role::User : Role::Assistant; }
    bool isUser() const { return std::holds_alternative<UserMessage>(m_info); }
    bool isAssistant() const { return !isUser(); }

    const QString &id() const;
    const QString &sessionID() const;
    qint64 created() const;

    const UserMessage *user() const { return std::get_if<UserMessage>(&m_info); }
    UserMessage *user() { return std::get_if<UserMessage>(&m_info); }
    const AssistantMessage *assistant() const { return std::get_if<AssistantMessage>(&m_info); }
    AssistantMessage *assistant() { return std::get_if<AssistantMessage>(&m_info); }

    QJsonObject toJson() const;
    static Result<Message> fromJson(const QJsonObject &json);

    friend bool operator==(const Message &a, const Message &b) { return a.toJson() == b.toJson(); }

private:
    std::variant<UserMessage, AssistantMessage> m_info;
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::Message)
