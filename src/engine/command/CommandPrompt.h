#pragma once

#include <QCoreApplication>
#include <QString>

#include <functional>

#include "CommandInput.h"
#include "CommandDefinition.h"
#include "engine/message/PromptInput.h"
#include "model/Result.h"

namespace qcode {

class AgentRegistry;

// What a command runs with, found before its template is expanded so a
// missing agent or model stops it before any !`cmd` runs.
struct CommandPlan {
    QString agent;     // the command's agent: command.agent, else the input's, else the default
    bool subtask = false;
    ModelRef taskModel; // command.model → the command agent's model → the input's → the session's
    QString userAgent;  // who the user message is from
    ModelRef userModel;
};

// The session and project facts a command needs.
struct CommandDefaults {
    const AgentRegistry *agents = nullptr;
    QString defaultAgent;
    // The session's last user model, else the project's default model.
    ModelRef currentModel;
    // Whether the model can be called: OpenCode's "Model not found" check.
    std::function<Result<void>(const ModelRef &)> checkModel;
    // @path references are resolved against it (the worktree, or the
    // project folder outside git); "@~/path" against the home folder.
    QString referenceRoot;
    QString homeDirectory;
};

// The prompt a slash command sends (OpenCode's SessionPrompt.command,
// reference §2.10). A command whose agent is a subagent (unless it says
// `subtask: false`) or that says `subtask: true` becomes one subtask part
// with the template as its prompt, sent as the person's own agent and model;
// any other becomes the template text plus a part for every @reference
// (a file or folder that exists, else an agent of that name) plus the
// person's files, sent as the command's agent and model.
class CommandPrompt
{
    Q_DECLARE_TR_FUNCTIONS(CommandPrompt)

public:
    static Result<CommandPlan> plan(const CommandDefinition &command, const CommandInput &input,
                                    const CommandDefaults &defaults);
    // `text` is the template expanded and its !`cmd` segments run, trimmed.
    static PromptInput build(const CommandDefinition &command, const CommandInput &input, const CommandPlan &plan,
                             const QString &text, const CommandDefaults &defaults);

    // "Command not found: "x". Available commands: a, b"
    static QString notFound(const QString &name, const QStringList &available);
};

} // namespace qcode
