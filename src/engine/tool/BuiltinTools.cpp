#include "BuiltinTools.h"

#include "ApplyPatchTool.h"
#include "BashTool.h"
#include "EditTool.h"
#include "GlobTool.h"
#include "GrepTool.h"
#include "ReadTool.h"
#include "TodoWriteTool.h"
#include "WriteTool.h"

namespace qcode {

std::unique_ptr<ToolRegistry> makeBuiltinToolRegistry(const ToolServices &services,
                                                      std::function<bool(const QString &)> agentCanUseTask)
{
    // OpenCode 1.2.27's order (reference §8.0); the registry offers
    // apply_patch or edit/write by model. question, task, webfetch,
    // websearch, codesearch and skill are not built yet; list and todoread
    // exist but OpenCode 1.2 does not register them.
    auto registry = std::make_unique<ToolRegistry>(services, std::move(agentCanUseTask));
    registry->add(std::make_unique<BashTool>(services));
    registry->add(std::make_unique<ReadTool>(services));
    registry->add(std::make_unique<GlobTool>(services));
    registry->add(std::make_unique<GrepTool>(services));
    registry->add(std::make_unique<EditTool>(services));
    registry->add(std::make_unique<WriteTool>(services));
    registry->add(std::make_unique<TodoWriteTool>(services));
    registry->add(std::make_unique<ApplyPatchTool>(services));
    return registry;
}

} // namespace qcode
