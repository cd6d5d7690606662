#pragma once

#include <QJsonArray>
#include <QJsonValue>
#include <QList>
#include <QString>

#include "model/Result.h"
#include "model/Todo.h"

namespace qcode {

// How todowrite and todoread show a list (reference §8.10): the output is
// JSON.stringify(todos, null, 2) with keys in content/status/priority
// order, the title "<n> todos" counts what is not completed, and the
// metadata carries the list as JSON.
class TodoFormat
{
public:
    static QString json(const QList<Todo> &todos);
    static QJsonArray array(const QList<Todo> &todos);
    static QString title(const QList<Todo> &todos);
    // The model's `todos` argument, or which entry is malformed.
    static Result<QList<Todo>> fromJson(const QJsonValue &value);
    // The JSON Schema of one entry.
    static QJsonObject itemSchema();
};

} // namespace qcode
