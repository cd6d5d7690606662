#include "TodoReadTool.h"

#include "TodoFormat.h"
#include "ToolLogging.h"
#include "ToolPermission.h"
#include "model/Store.h"

namespace qcode {

TodoReadTool::TodoReadTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString TodoReadTool::name() const
{
    return QStringLiteral("todoread");
}

QString TodoReadTool::description() const
{
    // Instructions for the model, in qcode's words; not translated.
    return QStringLiteral("Reads the todo list of this session as todowrite last wrote it. Takes no arguments.");
}

QJsonObject TodoReadTool::parameters() const
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), QJsonObject()}};
}

QCoro::Task<ToolResult> TodoReadTool::execute(QJsonObject, ToolContext context)
{
    if (!m_services.store)
        co_return ToolFailure{QStringLiteral("The todo list cannot be read: there is no session store")};

    PermissionRequest ask;
    ask.permission = QStringLiteral("todoread");
    ask.patterns = QStringList{QStringLiteral("*")};
    ask.always = QStringList{QStringLiteral("*")};
    QCoro::Task<std::optional<ToolFailure>> asking = ToolPermission::ask(context, ask);
    if (std::optional<ToolFailure> refused = co_await asking)
        co_return *refused;

    const Result<QList<Todo>> todos = m_services.store->todos(context.sessionID);
    if (!todos) {
        // The store's words are for the person (translated); the model
        // reads English, and the log keeps the detail.
        qCWarning(lcTool) << "todo list of" << context.sessionID << "not read:" << todos.errorMessage();
        co_return ToolFailure{QStringLiteral("The todo list could not be read from the session's database.")};
    }

    ToolOutput output;
    output.output = TodoFormat::json(*todos);
    output.title = TodoFormat::title(*todos);
    output.metadata = QJsonObject{{QStringLiteral("todos"), TodoFormat::array(*todos)}};
    co_return output;
}

} // namespace qcode
