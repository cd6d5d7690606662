#include "ToolArguments.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace qcode::ToolArguments {
namespace {

const QLatin1String CoerceKey("coerce");

QString typeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Bool:
        return u"boolean"_s;
    case QJsonValue::Double:
        return u"number"_s;
    case QJsonValue::String:
        return u"string"_s;
    case QJsonValue::Array:
        return u"array"_s;
    case QJsonValue::Object:
        return u"object"_s;
    case QJsonValue::Undefined:
        break;
    }
    return u"nothing"_s;
}

// A value as the model wrote it, short enough for an error line.
QString shown(const QJsonValue &value)
{
    QString text;
    if (value.isObject())
        text = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    else if (value.isArray())
        text = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    else
        text = QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
    constexpr qsizetype MaxShown = 80;
    return text.size() > MaxShown ? text.left(MaxShown) + u'…' : text;
}

QString number(double value)
{
    return QString::number(value, 'g', 17);
}

bool isInteger(double value)
{
    return std::isfinite(value) && std::floor(value) == value;
}

bool matchesType(const QJsonValue &value, const QString &type)
{
    if (type == "string"_L1)
        return value.isString();
    if (type == "number"_L1)
        return value.isDouble();
    if (type == "integer"_L1)
        return value.isDouble() && isInteger(value.toDouble());
    if (type == "boolean"_L1)
        return value.isBool();
    if (type == "array"_L1)
        return value.isArray();
    if (type == "object"_L1)
        return value.isObject();
    if (type == "null"_L1)
        return value.isNull();
    return false;
}

QStringList schemaTypes(const QJsonObject &schema)
{
    const QJsonValue type = schema.value("type"_L1);
    if (type.isString())
        return {type.toString()};
    QStringList types;
    for (const QJsonValue &entry : type.toArray())
        types.append(entry.toString());
    return types;
}

class Validator
{
public:
    QJsonValue check(const QJsonValue &given, const QJsonObject &schema, const QString &path)
    {
        QJsonValue value = coerced(given, schema);
        const QStringList types = schemaTypes(schema);
        if (!types.isEmpty()
            && std::none_of(types.begin(), types.end(), [&](const QString &t) { return matchesType(value, t); })) {
            const bool integral = types.contains("integer"_L1) && value.isDouble();
            problem(path, integral ? u"expected an integer, received %1"_s.arg(shown(value))
                                   : u"expected %1, received %2"_s.arg(types.join(" or "_L1), typeName(value)));
            return value;
        }
        checkEnum(value, schema, path);
        if (value.isDouble())
            checkRange(value.toDouble(), schema, path);
        else if (value.isString())
            checkLength(value.toString(), schema, path);
        else if (value.isArray())
            return checkArray(value.toArray(), schema, path);
        else if (value.isObject())
            return checkObject(value.toObject(), schema, path);
        return value;
    }

    QStringList problems;

private:
    void problem(const QString &path, const QString &text)
    {
        problems.append(path.isEmpty() ? text : path + u": "_s + text);
    }

    static QJsonValue coerced(const QJsonValue &value, const QJsonObject &schema)
    {
        if (!schema.value(CoerceKey).toBool() || !value.isString())
            return value;
        bool ok = false;
        const double n = value.toString().trimmed().toDouble(&ok);
        return ok && std::isfinite(n) ? QJsonValue(n) : value;
    }

    void checkEnum(const QJsonValue &value, const QJsonObject &schema, const QString &path)
    {
        if (!schema.contains("enum"_L1))
            return;
        const QJsonArray allowed = schema.value("enum"_L1).toArray();
        if (allowed.contains(value))
            return;
        QStringList names;
        for (const QJsonValue &entry : allowed)
            names.append(shown(entry));
        problem(path, u"expected one of %1, received %2"_s.arg(names.join(", "_L1), shown(value)));
    }

    void checkRange(double value, const QJsonObject &schema, const QString &path)
    {
        if (schema.contains("minimum"_L1) && value < schema.value("minimum"_L1).toDouble())
            problem(path, u"must be greater than or equal to %1, received %2"_s.arg(
                              number(schema.value("minimum"_L1).toDouble()), number(value)));
        if (schema.contains("maximum"_L1) && value > schema.value("maximum"_L1).toDouble())
            problem(path, u"must be less than or equal to %1, received %2"_s.arg(
                              number(schema.value("maximum"_L1).toDouble()), number(value)));
    }

    void checkLength(const QString &value, const QJsonObject &schema, const QString &path)
    {
        if (schema.contains("minLength"_L1) && value.size() < schema.value("minLength"_L1).toInteger())
            problem(path, u"must be at least %1 characters long"_s.arg(schema.value("minLength"_L1).toInteger()));
        if (schema.contains("maxLength"_L1) && value.size() > schema.value("maxLength"_L1).toInteger())
            problem(path, u"must be at most %1 characters long, received %2"_s.arg(
                              QString::number(schema.value("maxLength"_L1).toInteger()), QString::number(value.size())));
    }

    QJsonValue checkArray(const QJsonArray &array, const QJsonObject &schema, const QString &path)
    {
        if (schema.contains("minItems"_L1) && array.size() < schema.value("minItems"_L1).toInteger())
            problem(path, u"must have at least %1 items"_s.arg(schema.value("minItems"_L1).toInteger()));
        if (schema.contains("maxItems"_L1) && array.size() > schema.value("maxItems"_L1).toInteger())
            problem(path, u"must have at most %1 items, received %2"_s.arg(
                              QString::number(schema.value("maxItems"_L1).toInteger()), QString::number(array.size())));
        const QJsonValue items = schema.value("items"_L1);
        if (!items.isObject())
            return array;
        QJsonArray out;
        for (qsizetype i = 0; i < array.size(); ++i)
            out.append(check(array.at(i), items.toObject(), u"%1[%2]"_s.arg(path).arg(i)));
        return out;
    }

    QJsonValue checkObject(const QJsonObject &object, const QJsonObject &schema, const QString &path)
    {
        if (!schema.contains("properties"_L1))
            return object;
        const QJsonObject properties = schema.value("properties"_L1).toObject();
        QStringList required;
        for (const QJsonValue &name : schema.value("required"_L1).toArray())
            required.append(name.toString());
        const auto field = [&path](const QString &name) { return path.isEmpty() ? name : path + u'.' + name; };

        QJsonObject out;
        for (const QString &name : required) {
            if (!object.contains(name) || object.value(name).isNull())
                problem(field(name), u"required, but missing"_s);
        }
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            if (!object.contains(it.key()))
                continue;
            const QJsonValue value = object.value(it.key());
            // Null for an optional field is "not given"; for a required
            // one it was reported above.
            if (value.isNull())
                continue;
            out.insert(it.key(), check(value, it.value().toObject(), field(it.key())));
        }
        return out;
    }
};

QJsonValue stripped(const QJsonValue &value)
{
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &entry : value.toArray())
            out.append(stripped(entry));
        return out;
    }
    if (!value.isObject())
        return value;
    QJsonObject out;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.key() != CoerceKey || !it.value().isBool())
            out.insert(it.key(), stripped(it.value()));
    }
    return out;
}

} // namespace

Result<QJsonObject> validate(const QJsonObject &arguments, const QJsonObject &schema)
{
    Validator validator;
    const QJsonValue checked = validator.check(arguments, schema, QString());
    if (!validator.problems.isEmpty())
        return Error{validator.problems.join(u'\n')};
    return checked.toObject();
}

QJsonObject publicSchema(const QJsonObject &schema)
{
    return stripped(schema).toObject();
}

QJsonObject stringProperty(const QString &description)
{
    return QJsonObject{{u"type"_s, u"string"_s}, {u"description"_s, description}};
}

} // namespace qcode::ToolArguments
