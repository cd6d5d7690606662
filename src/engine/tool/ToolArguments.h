#pragma once

#include <QJsonObject>
#include <QString>

#include "model/Result.h"

namespace qcode::ToolArguments {

// Checks a tool call's arguments against the tool's JSON Schema before the
// tool runs (OpenCode's zod parse in Tool.define, reference §6.6). The
// subset the built-in tools use: "type" (object, string, number, integer,
// boolean, array, null, or a list of them), "properties", "required",
// "items", "enum", "minimum", "maximum", "minLength", "maxLength",
// "minItems", "maxItems". Like zod's objects, properties the schema does not
// name are dropped; unlike zod, a null for an optional property counts as
// absent (models send it for "not given").
//
// A property schema carrying `"coerce": true` takes a numeric string as its
// number, as OpenCode's z.coerce.number() does for read's offset and limit.
// `coerce` is qcode's keyword: publicSchema() removes it before the schema
// goes to a provider.
//
// On success the arguments come back with coercions applied and unknown
// properties dropped; on failure the Error names every bad field by its
// path ("offset", "todos[1].status") and says what was expected and what
// came, one per line.
Result<QJsonObject> validate(const QJsonObject &arguments, const QJsonObject &schema);

// The schema as the model sees it: qcode's own keywords removed.
QJsonObject publicSchema(const QJsonObject &schema);

// {"type": "string", "description": description}: most tools' properties.
QJsonObject stringProperty(const QString &description);

} // namespace qcode::ToolArguments
