#include "TodoFormat.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <algorithm>

namespace qcode {

namespace {

QString quoted(const QString &text)
{
    // A one-element array serialised compactly is ["…"]: the string with
    // JSON's escapes, between its brackets.
    const QByteArray json = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

} // namespace

QString TodoFormat::json(const QList<Todo> &todos)
{
    if (todos.isEmpty())
        return QStringLiteral("[]");
    QStringList items;
    for (const Todo &todo : todos) {
        items.append(QStringLiteral("  {\n    \"content\": %1,\n    \"status\": %2,\n    \"priority\": %3\n  }")
                         .arg(quoted(todo.content), quoted(todo.status), quoted(todo.priority)));
    }
    return QStringLiteral("[\n") + items.join(QStringLiteral(",\n")) + QStringLiteral("\n]");
}

QJsonArray TodoFormat::array(const QList<Todo> &todos)
{
    QJsonArray result;
    for (const Todo &todo : todos) {
        result.append(QJsonObject{{QStringLiteral("content"), todo.content},
                                  {QStringLiteral("status"), todo.status},
                                  {QStringLiteral("priority"), todo.priority}});
    }
    return result;
}

QString TodoFormat::title(const QList<Todo> &todos)
{
    const auto open = std::count_if(todos.cbegin(), todos.cend(),
                                    [](const Todo &todo) { return todo.status != QLatin1String("completed"); });
    return QStringLiteral("%1 todos").arg(open);
}

Result<QList<Todo>> TodoFormat::fromJson(const QJsonValue &value)
{
    if (!value.isArray())
        return Error{QStringLiteral("todos must be an array")};
    QList<Todo> todos;
    const QJsonArray items = value.toArray();
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QJsonObject item = items.at(i).toObject();
        const QJsonValue content = item.value(QStringLiteral("content"));
        const QJsonValue status = item.value(QStringLiteral("status"));
        const QJsonValue priority = item.value(QStringLiteral("priority"));
        if (!items.at(i).isObject() || !content.isString() || !status.isString() || !priority.isString())
            return Error{QStringLiteral("todos[%1] must be an object with string content, status and priority")
                             .arg(i)};
        todos.append(Todo{content.toString(), status.toString(), priority.toString()});
    }
    return todos;
}

QJsonObject TodoFormat::itemSchema()
{
    const auto string = [](const char *description) {
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                           {QStringLiteral("description"), QLatin1String(description)}};
    };
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("content"), string("Brief description of the task")},
             {QStringLiteral("status"),
              string("Current status of the task: pending, in_progress, completed, cancelled")},
             {QStringLiteral("priority"), string("Priority level of the task: high, medium, low")},
         }},
        {QStringLiteral("required"),
         QJsonArray{QStringLiteral("content"), QStringLiteral("status"), QStringLiteral("priority")}},
    };
}

} // namespace qcode
