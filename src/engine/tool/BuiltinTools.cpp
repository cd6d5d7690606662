#include "BuiltinTools.h"

#include "ApplyPatchTool.h"
#include "BashTool.h"
#include "EditTool.h"
#include "GlobTool.h"
#include "GrepTool.h"
#include "QuestionTool.h"
#include "ReadTool.h"
#include "TaskTool.h"
#include "TodoWriteTool.h"
#include "WebFetchTool.h"
#include "WriteTool.h"

namespace qcode {

std::unique_ptr<ToolRegistry> makeBuiltinToolRegistry(const ToolServices &services,
                                                      std::function<bool(const QString &)> agentCanUseTask)
{
    // OpenCode 1.2.27's order (reference §8.0); the registry offers
    // apply_patch or edit/write by model. OpenCode offers question to its
    // own clients (app, cli, desktop), which qcode's window and `qcode run`
    // both are; where nobody can answer (run), the engine dismisses the
    // question with a clear error. websearch, codesearch and skill are not
    // built yet; list and todoread exist but OpenCode 1.2 does not
    // register them.
    auto registry = std::make_unique<ToolRegistry>(services, std::move(agentCanUseTask));
    registry->add(std::make_unique<QuestionTool>(services));
    registry->add(std::make_unique<BashTool>(services));
    registry->add(std::make_unique<ReadTool>(services));
    registry->add(std::make_unique<GlobTool>(services));
    registry->add(std::make_unique<GrepTool>(services));
    registry->add(std::make_unique<EditTool>(services));
    registry->add(std::make_unique<WriteTool>(services));
    registry->add(std::make_unique<TaskTool>(services));
    registry->add(std::make_unique<WebFetchTool>(services));
    registry->add(std::make_unique<TodoWriteTool>(services));
    registry->add(std::make_unique<ApplyPatchTool>(services));
    return registry;
}

} // namespace qcode
