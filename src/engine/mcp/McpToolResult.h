#pragma once

#include <QJsonObject>

#include "engine/session/loop/ToolRunner.h"

namespace qcode::McpToolResult {

// A tools/call result as the model and the card get it (reference §5,
// and where qcode does better, §10):
//  - text items, and the text of embedded resources, joined by a blank line;
//  - `resource_link` items as "name (uri)";
//  - `structuredContent` as compact JSON when no item gave text;
//  - images, and resources with a blob, as attachments (data: URLs), which
//    reach a vision model as the read tool's images do;
//  - `isError: true` a failure the model reads as the tool's error, never a
//    success.
// Audio is left out, as OpenCode leaves it out.
ToolResult convert(const QJsonObject &result);

} // namespace qcode::McpToolResult
