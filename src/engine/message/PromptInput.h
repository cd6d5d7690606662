#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <variant>

#include "model/Message.h"
#include "model/Part.h"
#include "model/Result.h"

namespace qcode {

// One part of what a person sends (OpenCode's TextPartInput, FilePartInput,
// AgentPartInput, SubtaskPartInput): the stored part's body, and an id only
// when the caller made one in advance.
struct PromptPart {
    std::optional<QString> id;
    std::variant<TextPart, FilePart, AgentPart, SubtaskPart> body;

    static PromptPart text(const QString &text);
    // A file or folder dropped on the window: folders are listed, images
    // and PDFs attached, anything else read as text by the read tool.
    static PromptPart droppedFile(const QString &path);
};

// SessionPrompt.prompt's input, minus what the engine adds itself.
struct PromptInput {
    QString sessionID;
    std::optional<QString> messageID;
    std::optional<QString> agent;
    std::optional<ModelRef> model;
    std::optional<QString> variant;
    std::optional<QString> system;
    std::optional<QJsonObject> format;
    std::optional<QJsonObject> tools; // legacy {tool: enabled}
    QList<PromptPart> parts;
};

// One item of an MCP resource, as the MCP client returns it.
struct McpResourceContent {
    std::optional<QString> text;
    std::optional<QByteArray> blob;
    QString mimeType;
};

// What building a user message needs from registries others own (agents,
// providers, permissions, MCP, the session's history). These are values and
// callbacks the caller fills in; the builder never looks anything up.
struct PromptDefaults {
    QString defaultAgent; // used when the input names no agent
    // The chosen agent's own settings: the agent the input names, else the
    // default agent.
    std::optional<ModelRef> agentModel;
    std::optional<QString> agentVariant;
    std::optional<ModelRef> lastUserModel; // the session's last user message's model
    std::optional<ModelRef> defaultModel;  // the provider list's default
    // The variants a model defines; the agent's variant is used only when
    // the chosen model has it.
    std::function<QStringList(const ModelRef &)> modelVariants;
    // Whether the chosen agent's `task` permission denies this subagent.
    std::function<bool(const QString &subagent)> taskDenied;
    // Reads an MCP resource; unset while no MCP server is connected.
    std::function<Result<QList<McpResourceContent>>(const QString &clientName, const QString &uri)> readMcpResource;
    // Creation time in ms since the epoch; 0 takes the clock.
    qint64 now = 0;
};

} // namespace qcode
