#include "TodoWriteTool.h"

#include <QJsonArray>

#include "TodoFormat.h"
#include "ToolLogging.h"
#include "ToolPermission.h"
#include "engine/session/SessionEvents.h"
#include "model/Store.h"

namespace qcode {

TodoWriteTool::TodoWriteTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString TodoWriteTool::name() const
{
    return QStringLiteral("todowrite");
}

QString TodoWriteTool::description() const
{
    // Instructions for the model, in qcode's words; not translated.
    return QStringLiteral(
        "Writes the todo list of this session, replacing the previous one. Use it to plan and track work of "
        "three or more steps, and when the user gives you several tasks.\n\n"
        "- Give every task a short content, a status (pending, in_progress, completed, cancelled) and a "
        "priority (high, medium, low).\n"
        "- Keep exactly one task in_progress while you work, mark it completed as soon as it is done, and "
        "cancel tasks that are no longer needed.\n"
        "- Skip the list for a single trivial task or a plain question.");
}

QJsonObject TodoWriteTool::parameters() const
{
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("todos"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                          {QStringLiteral("items"), TodoFormat::itemSchema()},
                          {QStringLiteral("description"), QStringLiteral("The updated todo list")}}},
         }},
        {QStringLiteral("required"), QJsonArray{QStringLiteral("todos")}},
    };
}

QCoro::Task<ToolResult> TodoWriteTool::execute(QJsonObject arguments, ToolContext context)
{
    const Result<QList<Todo>> todos = TodoFormat::fromJson(arguments.value(QStringLiteral("todos")));
    if (!todos)
        co_return ToolFailure{todos.errorMessage()};
    if (!m_services.store)
        co_return ToolFailure{QStringLiteral("The todo list cannot be saved: there is no session store")};

    PermissionRequest ask;
    ask.permission = QStringLiteral("todowrite");
    ask.patterns = QStringList{QStringLiteral("*")};
    ask.always = QStringList{QStringLiteral("*")};
    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    const Result<void> saved = m_services.store->setTodos(context.sessionID, *todos);
    if (!saved) {
        // The store's words are for the person (translated); the model
        // reads English, and the log keeps the detail.
        qCWarning(lcTool) << "todo list of" << context.sessionID << "not saved:" << saved.errorMessage();
        co_return ToolFailure{QStringLiteral("The todo list could not be saved: the session's database refused it.")};
    }
    if (m_services.sink)
        m_services.sink->publish(TodoUpdated{context.sessionID, *todos});

    ToolOutput output;
    output.output = TodoFormat::json(*todos);
    output.title = TodoFormat::title(*todos);
    output.metadata = QJsonObject{{QStringLiteral("todos"), TodoFormat::array(*todos)}};
    co_return output;
}

} // namespace qcode
