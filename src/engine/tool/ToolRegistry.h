#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

#include "OutputTruncation.h"
#include "Tool.h"
#include "ToolServices.h"
#include "ToolSource.h"
#include "engine/session/loop/ToolRunner.h"

namespace qcode {

// The tools the model may call, behind OpenCode's common wrapper
// (reference §8.0, §6.6). For each call it:
//  - finds the tool by name, or by the name in lower case (models write
//    "Read" and "BASH"); an unknown name gets the `invalid` tool's answer,
//    an output the model reads: "The arguments provided to the tool are
//    invalid: Model tried to call unavailable tool …";
//  - checks the arguments against the tool's schema (ToolArguments) and
//    answers a mismatch with OpenCode's "The <tool> tool was called with
//    invalid arguments: …" naming each bad field, without running it;
//  - runs the tool, and when the tool did not set metadata.truncated
//    itself, cuts long output (OutputTruncation) and adds
//    metadata.truncated and metadata.outputPath.
//
// Tools are offered in the order they were added (OpenCode's order when
// built by makeBuiltinToolRegistry). GPT models other than gpt-4 and the
// open-weight "oss" ones get apply_patch instead of edit and write, as in
// OpenCode; a call to a tool the model was not offered is unknown.
// Lives on the engine thread, and outlives every call it runs.
class ToolRegistry : public ToolRunner
{
public:
    // Whether `agent` may use the `task` tool (its rules do not deny
    // task/*): truncated output then suggests delegating the saved file.
    using TaskPermission = std::function<bool(const QString &agent)>;

    ToolRegistry(ToolServices services, TaskPermission agentCanUseTask);

    // A tool with a name already held replaces the old one in its place.
    void add(std::unique_ptr<Tool> tool);
    // Tools offered after the built-in ones, as the source lists them at
    // each step (MCP servers'); a built-in name wins over a source's.
    void addSource(std::shared_ptr<ToolSource> source);
    // Exact name; null when absent.
    Tool *find(const QString &name) const;
    QStringList names() const;

    QCoro::Task<ToolResult> run(ToolCall call, ToolContext context) override;
    QList<ToolDefinition> definitions(const ToolScope &scope) const override;

    const ToolServices &services() const { return m_services; }
    const OutputTruncation &truncation() const { return m_truncation; }

    // Whether `tool` is offered to `modelID` at all (apply_patch versus
    // edit/write).
    static bool offeredToModel(const QString &tool, const QString &modelID);

private:
    std::shared_ptr<Tool> findShared(const QString &name) const;
    std::shared_ptr<Tool> resolve(const QString &calledName, const QString &modelID) const;
    std::vector<std::shared_ptr<Tool>> sourceTools() const;
    QString unknownToolText(const QString &calledName, const QString &modelID) const;

    ToolServices m_services;
    TaskPermission m_agentCanUseTask;
    OutputTruncation m_truncation;
    std::vector<std::unique_ptr<Tool>> m_tools;
    std::vector<std::shared_ptr<ToolSource>> m_sources;
};

} // namespace qcode
