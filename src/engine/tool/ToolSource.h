#pragma once

#include <memory>
#include <vector>

#include "Tool.h"

namespace qcode {

// Tools that come and go while the registry lives (an MCP server's, as it
// connects, changes its list or dies). The registry asks for the current
// list at each step and each call; a call keeps its tool alive until it ends.
class ToolSource
{
public:
    virtual ~ToolSource() = default;
    virtual std::vector<std::shared_ptr<Tool>> tools() const = 0;

protected:
    ToolSource() = default;
    ToolSource(const ToolSource &) = default;
    ToolSource &operator=(const ToolSource &) = default;
};

} // namespace qcode
