#pragma once

#include <QString>

#include <optional>

#include "model/Message.h"

namespace qcode {

// One slash command (OpenCode's Command.Info, reference §2.10): a prompt
// template the person runs as "/name arguments", with the agent, model and
// subtask setting it runs with.
struct CommandDefinition {
    QString name;         // "review", or "team/review" from a nested Markdown file
    QString templateText; // $1…$N, $ARGUMENTS, !`cmd` and @file are expanded when it runs
    std::optional<QString> description;
    std::optional<QString> agent;
    std::optional<ModelRef> model;
    // true: always a subtask; false: never, even for a subagent; unset:
    // a subtask when the agent is a subagent.
    std::optional<bool> subtask;
    // Where the winning definition was read: a Markdown file, or "config".
    QString source;
};

} // namespace qcode
