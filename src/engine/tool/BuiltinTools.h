#pragma once

#include <QString>

#include <functional>
#include <memory>

#include "ToolRegistry.h"
#include "ToolServices.h"

namespace qcode {

// The registry of qcode's built-in tools in OpenCode 1.2's order
// (reference §8.0: question, bash, read, glob, grep, edit, write, task,
// webfetch, todowrite, apply_patch), each sharing `services`. `agentCanUseTask` says whether an
// agent's rules let it use the task tool (the truncation hint depends on
// it). `list` is not registered, as in OpenCode 1.2.
std::unique_ptr<ToolRegistry> makeBuiltinToolRegistry(const ToolServices &services,
                                                      std::function<bool(const QString &)> agentCanUseTask);

} // namespace qcode
