#include "BuiltinTools.h"

#include "GlobTool.h"
#include "GrepTool.h"
#include "ReadTool.h"

namespace qcode {

std::unique_ptr<ToolRegistry> makeBuiltinToolRegistry(const ToolServices &services,
                                                      std::function<bool(const QString &)> agentCanUseTask)
{
    auto registry = std::make_unique<ToolRegistry>(services, std::move(agentCanUseTask));
    registry->add(std::make_unique<ReadTool>(services));
    registry->add(std::make_unique<GlobTool>(services));
    registry->add(std::make_unique<GrepTool>(services));
    return registry;
}

} // namespace qcode
