#include "ToolRegistry.h"

#include <QJsonObject>

#include <algorithm>

#include "ToolArguments.h"
#include "ToolLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// What the model reads; OpenCode's and the AI SDK's words, not translated.
const QString InvalidToolTitle = u"Invalid Tool"_s;
const QString InvalidToolText = u"The arguments provided to the tool are invalid: %1"_s;
const QString UnavailableToolText = u"Model tried to call unavailable tool '%1'. Available tools: %2."_s;
const QString InvalidArgumentsText =
    u"The %1 tool was called with invalid arguments: %2.\nPlease rewrite the input so it satisfies the expected schema."_s;

// The permission a tool's rules are written under: the file-changing
// tools share "edit" (reference §6.6).
QString permissionName(const QString &tool)
{
    static const QStringList editing{u"edit"_s, u"write"_s, u"patch"_s, u"multiedit"_s, u"apply_patch"_s};
    return editing.contains(tool) ? u"edit"_s : tool;
}

} // namespace

ToolRegistry::ToolRegistry(ToolServices services, TaskPermission agentCanUseTask)
    : m_services(std::move(services))
    , m_agentCanUseTask(std::move(agentCanUseTask))
    , m_truncation(m_services.dataDirectory)
{
}

void ToolRegistry::add(std::unique_ptr<Tool> tool)
{
    const QString name = tool->name();
    for (auto &held : m_tools) {
        if (held->name() == name) {
            held = std::move(tool);
            return;
        }
    }
    m_tools.push_back(std::move(tool));
}

void ToolRegistry::addSource(std::shared_ptr<ToolSource> source)
{
    m_sources.push_back(std::move(source));
}

std::vector<std::shared_ptr<Tool>> ToolRegistry::sourceTools() const
{
    std::vector<std::shared_ptr<Tool>> out;
    for (const auto &source : m_sources) {
        for (std::shared_ptr<Tool> &tool : source->tools()) {
            const QString name = tool->name();
            const bool taken = std::any_of(m_tools.begin(), m_tools.end(), [&](const auto &t) { return t->name() == name; })
                || std::any_of(out.begin(), out.end(), [&](const auto &t) { return t->name() == name; });
            if (!taken)
                out.push_back(std::move(tool));
        }
    }
    return out;
}

std::shared_ptr<Tool> ToolRegistry::findShared(const QString &name) const
{
    for (const auto &tool : m_tools) {
        if (tool->name() == name)
            return std::shared_ptr<Tool>(std::shared_ptr<Tool>(), tool.get()); // the registry owns it
    }
    for (std::shared_ptr<Tool> &tool : sourceTools()) {
        if (tool->name() == name)
            return tool;
    }
    return nullptr;
}

Tool *ToolRegistry::find(const QString &name) const
{
    return findShared(name).get();
}

QStringList ToolRegistry::names() const
{
    QStringList out;
    for (const auto &tool : m_tools)
        out.append(tool->name());
    for (const auto &tool : sourceTools())
        out.append(tool->name());
    return out;
}

bool ToolRegistry::offeredToModel(const QString &tool, const QString &modelID)
{
    const bool usePatch = modelID.contains("gpt-"_L1) && !modelID.contains("oss"_L1) && !modelID.contains("gpt-4"_L1);
    if (tool == "apply_patch"_L1)
        return usePatch;
    if (tool == "edit"_L1 || tool == "write"_L1)
        return !usePatch;
    return true;
}

QList<ToolDefinition> ToolRegistry::definitions(const ToolScope &scope) const
{
    QList<ToolDefinition> out;
    for (const auto &tool : m_tools) {
        const QString name = tool->name();
        if (!offeredToModel(name, scope.modelID))
            continue;
        if (scope.disabled.contains(name) || scope.disabled.contains(permissionName(name)))
            continue;
        out.append(ToolDefinition{name, tool->descriptionFor(scope.agent), ToolArguments::publicSchema(tool->parameters())});
    }
    for (const auto &tool : sourceTools()) {
        if (!scope.disabled.contains(tool->name()))
            out.append(ToolDefinition{tool->name(), tool->descriptionFor(scope.agent), tool->parameters()});
    }
    return out;
}

std::shared_ptr<Tool> ToolRegistry::resolve(const QString &calledName, const QString &modelID) const
{
    // A caller that names no model may call any tool.
    const auto offered = [&modelID](const QString &name) { return modelID.isEmpty() || offeredToModel(name, modelID); };
    if (std::shared_ptr<Tool> exact = findShared(calledName); exact && offered(calledName))
        return exact;
    const QString lower = calledName.toLower();
    if (std::shared_ptr<Tool> repaired = findShared(lower); repaired && offered(lower))
        return repaired;
    return nullptr;
}

QString ToolRegistry::unknownToolText(const QString &calledName, const QString &modelID) const
{
    QStringList available;
    for (const auto &tool : m_tools) {
        if (modelID.isEmpty() || offeredToModel(tool->name(), modelID))
            available.append(tool->name());
    }
    for (const auto &tool : sourceTools())
        available.append(tool->name());
    return InvalidToolText.arg(UnavailableToolText.arg(calledName, available.join(", "_L1)));
}

QCoro::Task<ToolResult> ToolRegistry::run(ToolCall call, ToolContext context)
{
    // Held to the end: a source may drop the tool while it runs.
    const std::shared_ptr<Tool> tool = resolve(call.tool, context.model.modelID);
    if (!tool) {
        qCInfo(lcTool) << "unknown tool" << call.tool << "called in" << context.sessionID;
        co_return ToolOutput{unknownToolText(call.tool, context.model.modelID), InvalidToolTitle, {}, {}};
    }
    const QString name = tool->name();
    Result<QJsonObject> arguments = ToolArguments::validate(call.input, tool->parameters());
    if (!arguments) {
        qCInfo(lcTool) << "invalid arguments for" << name << arguments.errorMessage();
        co_return ToolFailure{InvalidArgumentsText.arg(name, arguments.errorMessage()), ToolFailure::Kind::Failed};
    }
    qCDebug(lcTool) << "running" << name << call.callID;
    const QString agent = context.agent;
    QCoro::Task<ToolResult> running = tool->execute(std::move(*arguments), std::move(context));
    ToolResult result = co_await running;
    auto *output = std::get_if<ToolOutput>(&result);
    if (!output || output->metadata.contains("truncated"_L1))
        co_return result;
    const bool canDelegate = m_agentCanUseTask && m_agentCanUseTask(agent);
    const OutputTruncation::Output cut = m_truncation.truncate(output->output, canDelegate);
    output->output = cut.content;
    output->metadata.insert("truncated"_L1, cut.truncated);
    if (cut.truncated && !cut.outputPath.isEmpty())
        output->metadata.insert("outputPath"_L1, cut.outputPath);
    co_return result;
}

} // namespace qcode
